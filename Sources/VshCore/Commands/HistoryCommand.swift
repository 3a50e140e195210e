import ArgumentParser
import Foundation

/// `history [--last N]`: the commands entered at the prompt, oldest first, numbered.
public struct HistoryCommand: ShellCommand {
    public static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Show the commands entered at the prompt.")
    public static let info = CommandInfo(
        name: "history", summary: "Show the commands entered at the prompt",
        spokenForms: [SpokenForm("[show] history", runs: "history")])

    @Option(name: .long, help: ArgumentHelp("Show only the last N entries.", valueName: "n"))
    var last: Int?

    public init() {}

    public func validate() throws {
        if let last, last < 1 { throw ValidationError("--last must be at least 1, not \(last)") }
    }

    public func run(in context: CommandContext) throws {
        let entries = context.session.history.entries
        let start = max(0, entries.count - (last ?? entries.count))
        let width = String(entries.count).count
        for (i, entry) in entries.enumerated().dropFirst(start) {
            let number = String(i + 1)
            let padded = String(repeating: " ", count: width - number.count) + number
            var how = entry.source.rawValue
            if let c = entry.confidence { how += String(format: " %.2f", c) }
            context.output.line("\(padded)  \(context.style.dim(how.padding(toLength: 11, withPad: " ", startingAt: 0))) \(entry.line)")
        }
    }
}
