import ArgumentParser
import VshCore
import VshStore

/// `list [--on DATE | --since DATE --until DATE] [--json]`: the saved transcripts, newest
/// first, grouped by day and numbered for `show`, `delete` and `play`.
package struct ListCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "list", summary: "List the saved transcripts by day, numbered for show and delete",
        spokenForms: [
            SpokenForm("list [transcripts]", runs: "list"),
            SpokenForm("list [transcripts] [from] (today | yesterday)", runs: "list --on $1"),
        ])

    @Option(help: ArgumentHelp("Only this day: YYYY-MM-DD, today or yesterday.", valueName: "date"))
    var on: DayArgument?

    @Option(help: ArgumentHelp("Only from this day on.", valueName: "date"))
    var since: DayArgument?

    @Option(help: ArgumentHelp("Only up to and including this day.", valueName: "date"))
    var until: DayArgument?

    @Flag(help: "Print a JSON array of the transcripts.")
    var json = false

    package init() {}

    package func validate() throws {
        if on != nil && (since != nil || until != nil) {
            throw ValidationError("give either --on or --since/--until, not both")
        }
    }

    package func run(in context: CommandContext) throws {
        let listing = try context.store.items()
        context.warn(listing.warnings)
        let days = DayNames(store: context.store)
        let first = (on ?? since)?.dayNumber(days), last = (on ?? until)?.dayNumber(days)
        if let first, let last, first > last {
            throw CommandError("--since is after --until: no day is in that range")
        }
        var items = listing.items
        if first != nil || last != nil {
            items = items.filter {
                let day = days.offsets.civil($0.created).dayNumber
                return day >= (first ?? .min) && day <= (last ?? .max)
            }
        }
        if json { return context.printJSON(items) }
        guard !items.isEmpty else {
            context.remember(listing: [])
            context.output.line(listing.items.isEmpty ? "No transcripts yet." : "No transcripts on those days.")
            return
        }
        context.printListing(items)
    }
}

extension Session {
    private enum ListingKey: SessionKey { typealias Value = [String] }

    /// The ids the last `list` or `search` of this session numbered, so `show 2` means
    /// its second line; nil before the first (`CommandContext.lastListing` then reads the
    /// one kept in the store).
    package var listing: [String]? {
        get { self[ListingKey.self] }
        set { self[ListingKey.self] = newValue }
    }
}
