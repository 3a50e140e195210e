import ArgumentParser
import VshCore
import VshStore
import VshCommandFiles
import Foundation

/// `outputs [--json]`, `outputs delete N`: what keyword commands recorded with `done`,
/// oldest first and numbered; `delete` removes one.
package struct OutputsCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "outputs", summary: "Show what keyword commands recorded ('outputs delete N' removes one)",
        spokenForms: [SpokenForm("[show] outputs", runs: "outputs")],
        arguments: [.values(["delete"])])

    @Flag(help: "Print the records as a JSON array (the shape is in FORMAT.md).")
    var json = false

    @Argument(help: ArgumentHelp("'delete' and the number of the output to remove.", valueName: "delete n"))
    var action: [String] = []

    package init() {}

    package func validate() throws {
        guard !action.isEmpty else { return }
        guard action[0] == "delete" else { throw ValidationError("unknown action '\(action[0])'; use 'outputs delete N'") }
        guard action.count == 2, let n = Int(action[1]), n >= 1 else {
            throw ValidationError("say which output to delete: 'outputs delete N', N from the list 'outputs' shows")
        }
    }

    package func run(in context: CommandContext) throws {
        let file = OutputsFile(store: context.session.paths.store)
        if action.count == 2, let number = Int(action[1]) {
            let removed = try file.delete(number)
            let what = removed.record.map { "\($0.command) \($0.value)" } ?? removed.text
            context.confirm("deleted output \(number) (\(what))")
            return
        }
        let lines = try file.read()
        if json {
            // A listing, as `list --json` prints: the records, in order.
            let records = lines.compactMap(\.record)
            if records.count < lines.count {
                context.warn("\(lines.count - records.count) line(s) of \(file.path) are not records; 'outputs' shows them")
            }
            return context.writeJSON { json in json.listing { json in for record in records { record.write(to: &json) } } }
        }
        if lines.isEmpty && context.interactive {
            context.output.line("no outputs yet: start a keyword command (such as 'code 7'), then say 'done'")
        }
        let width = String(lines.count).count
        let names = lines.compactMap(\.record?.command.count).max() ?? 0
        for (i, line) in lines.enumerated() {
            let number = String(i + 1)
            let padded = String(repeating: " ", count: width - number.count) + number
            if let record = line.record {
                context.output.line("\(padded)  \(record.command.padding(toLength: names, withPad: " ", startingAt: 0))  \(record.value)")
            } else {
                context.output.line("\(padded)  \(context.style.dim("(not a record: \(line.text))"))")
            }
        }
    }
}
