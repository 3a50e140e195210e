import ArgumentParser
import VshCore
import VshStore
import Foundation
import Foundation

/// `help [COMMAND]`: the list of commands, or how to use and say one.
package struct HelpCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "help", summary: "List the commands, or show how to use and say one",
        spokenForms: [SpokenForm("help", runs: "help")], arguments: [.commandName])

    @Argument(help: "The command to explain.")
    var command: String?

    package init() {}

    package func run(in context: CommandContext) throws {
        let registry = context.session.registry
        guard let name = command else {
            let width = registry.entries.map(\.info.name.count).max() ?? 0
            context.output.line("Commands:")
            for entry in registry.entries.sorted(by: { $0.info.name < $1.info.name }) {
                let padded = entry.info.name.padding(toLength: width, withPad: " ", startingAt: 0)
                context.output.line("  \(context.style.bold(padded))  \(entry.info.summary)")
            }
            context.output.line("Type 'help NAME' for how to use a command and what to say for it.")
            return
        }
        guard let entry = registry.lookup(name) else {
            var message = "no command named '\(name)'"
            if let near = registry.suggestion(for: name) { message += "; did you mean '\(near)'?" }
            throw CommandError(message)
        }
        let info = entry.info
        context.output.line("\(context.style.bold(info.name)) — \(info.summary)")
        context.output.line("usage: \(entry.usage)")
        if !info.aliases.isEmpty {
            context.output.line("also:  \(info.aliases.joined(separator: ", "))")
        }
        if !info.spokenForms.isEmpty {
            let said = info.spokenForms.map { "\"\($0.pattern)\"" }.joined(separator: ", ")
            context.output.line("say:   \(said)")
        }
        if info.destructive {
            context.output.line("When spoken, vsh asks you to confirm before it runs.")
        }
        let details = Self.details(of: entry.helpText())
        if !details.isEmpty { context.output.write("\n" + details) }
    }

    /// The parser's ARGUMENTS and OPTIONS sections, without its own usage and the
    /// `-h, --help` line every command has.
    static func details(of help: String) -> String {
        var lines = help.components(separatedBy: "\n")
        if let start = lines.firstIndex(where: { $0.hasPrefix("ARGUMENTS:") || $0.hasPrefix("OPTIONS:") }) {
            lines = Array(lines[start...])
        } else {
            return ""
        }
        lines.removeAll { $0.contains("-h, --help") }
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        if lines == ["OPTIONS:"] { return "" }
        if let last = lines.last, last == "OPTIONS:" { lines.removeLast() }
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }
}
