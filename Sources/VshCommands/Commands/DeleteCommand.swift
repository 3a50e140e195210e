import ArgumentParser
import VshCore
import VshStore

/// `delete N|ID...`: moves transcripts to the trash, all in one batch that `undo` brings
/// back. Nothing is deleted when one of them is unknown.
package struct DeleteCommand: WordsCommand {
    package static let info = CommandInfo(
        name: "delete", summary: "Move transcripts to the trash; 'undo' brings them back",
        spokenForms: [SpokenForm("delete [transcript] [number] <number>", runs: "delete $1")],
        destructive: true,
        // Said, it names a number of the last `list` or `search` (ids are not spoken): with
        // no numbered listing it could only fail, so the prompt says so instead of running
        // it, and never asks to confirm it.
        unavailable: { session in
            (session.listing ?? session.store.lastListing()?.ids ?? []).isEmpty
                ? "there is no listing to delete from; 'list' first" : nil
        })

    @Argument(help: ArgumentHelp("Numbers from the last list or search, or ids.", valueName: "number|id"))
    var transcripts: [String] = []

    package init() {}

    package init(words: [String]) throws {
        transcripts = words
        try validate()
    }

    package func validate() throws {
        if transcripts.isEmpty { throw ValidationError("say which transcripts to delete: numbers from 'list', or ids") }
    }

    package func run(in context: CommandContext) throws {
        let ids = try transcripts.map { reference in
            let id = try context.resolveID(reference)
            guard try context.store.item(id) != nil else { throw CommandError(context.missing(id, reference: reference)) }
            return id
        }
        let deleted = try context.store.delete(ids)
        context.warn(context.store.takeNotices())
        let what = deleted.count == 1 ? "'\(deleted[0].title.visible)'" : counted(deleted.count, "transcript")
        context.confirm("deleted \(what); 'undo' brings \(deleted.count == 1 ? "it" : "them") back")
    }
}
