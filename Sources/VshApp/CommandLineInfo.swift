import ArgumentParser
import Foundation

/// The command line as swift-argument-parser describes it (`--experimental-dump-help`,
/// ArgumentParserToolInfo's shape, of which only this is read): what the manual page
/// (`Manual`) and the shell's completion of `listen` and `transcribe` (`ShellCompletion`)
/// are made from, the same definitions as `--help`.
enum CommandLineInfo {
    /// The description of `command` and its subcommands.
    static func of(_ command: ParsableCommand.Type) throws -> Command {
        try JSONDecoder().decode(Tool.self, from: Data(command._dumpHelp().utf8)).command
    }

    struct Tool: Decodable {
        var command: Command
    }

    struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var subcommands: [Command]?
        var arguments: [Argument]?
        var shouldDisplay: Bool?

        /// What its help shows, but for `-h, --help`.
        var shown: [Argument] { (arguments ?? []).filter { $0.shouldDisplay && $0.valueName != "help" } }
        /// The command line's own subcommands (not the parser's `help`).
        var shownSubcommands: [Command] {
            (subcommands ?? []).filter { $0.shouldDisplay != false && $0.commandName != "help" }
        }
    }

    struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        /// What completion offers for its value: files (with these extensions, none: any),
        /// directories, or these words.
        struct Completion: Decodable {
            struct Files: Decodable { var extensions: [String] }
            struct Words: Decodable { var values: [String] }
            struct Nothing: Decodable {}
            var file: Files?
            var directory: Nothing?
            var list: Words?
        }
        var kind: String
        var names: [Name]?
        var valueName: String?
        var abstract: String?
        var isOptional: Bool
        var isRepeating: Bool
        var shouldDisplay: Bool
        var completionKind: Completion?

        /// `--store`, `-c`; nil for a positional argument.
        var spelled: String? {
            guard kind != "positional", let name = (names ?? []).first(where: { $0.kind != "short" }) ?? names?.first else { return nil }
            return (name.kind == "short" ? "-" : "--") + name.name
        }

        /// mdoc: `Fl -store Ar dir`, `Fl c Ar commands`, `Ar file ...`.
        var macros: [String] {
            guard let spelled else { return ["Ar", valueName ?? "value"] + (isRepeating ? ["..."] : []) }
            let flag = ["Fl", String(spelled.dropFirst())]
            return kind == "option" ? flag + ["Ar", valueName ?? "value"] : flag
        }
    }
}
