import ArgumentParser

/// What the registry, `help`, completion and the voice grammar know about a command.
package struct CommandInfo: Sendable {
    /// The name typed at the prompt.
    package var name: String
    /// Other names that run the same command.
    package var aliases: [String]
    /// One line for `help`.
    package var summary: String
    /// Phrases a person may say, in a small pattern language: `(a | b)` alternatives,
    /// `[a]` optional words, `<number>` and `<digit>` slots. Each phrase maps to the
    /// typed line in `spokenForms` order: see `SpokenForm`.
    package var spokenForms: [SpokenForm]
    /// What each positional argument is, in order: what tab completion offers for it.
    package var arguments: [ArgumentKind]
    /// Whether running the command cannot be taken back without `undo` (asks when spoken).
    package var destructive: Bool
    /// Destructive only with one of these first arguments (`encrypt on`), or with all the
    /// words of one (`empty --yes`: `trash empty` alone removes nothing).
    package var destructiveWith: Set<String>
    /// Running it ends the session (`exit`): spoken, it always asks first, since a word
    /// misheard as it would end vsh.
    package var endsSession: Bool
    /// Why saying it can do nothing now, as what would make it apply ("there is nothing
    /// to undo"); nil when it can (`save` with a recording to save, `undo` with a deletion
    /// of this session to take back); no closure: it always can. The prompt hears every
    /// command as itself, and answers one that cannot apply with this instead of running
    /// it, or says nothing during talk (`VoicePrompt`): taken out of the grammar, it was
    /// heard as another command ("undo" as `play 2`). Typing it is never refused.
    package var unavailable: (@Sendable (Session) -> String?)?

    package init(
        name: String, aliases: [String] = [], summary: String,
        spokenForms: [SpokenForm] = [], arguments: [ArgumentKind] = [], destructive: Bool = false,
        destructiveWith: Set<String> = [], endsSession: Bool = false,
        unavailable: (@Sendable (Session) -> String?)? = nil
    ) {
        self.name = name
        self.aliases = aliases
        self.summary = summary
        self.spokenForms = spokenForms
        self.arguments = arguments
        self.destructive = destructive
        self.destructiveWith = destructiveWith
        self.endsSession = endsSession
        self.unavailable = unavailable
    }

    /// Whether running it with `arguments` is destructive: the one place that decides
    /// whether a spoken command asks first.
    package func isDestructive(arguments: [String]) -> Bool {
        destructive || arguments.first.map(destructiveWith.contains) == true
            || destructiveWith.contains { words in
                let needed = words.split(separator: " ").map(String.init)
                return needed.count > 1 && needed.allSatisfy(arguments.contains)
            }
    }

    /// What the positional argument after `given` is (the words typed after the command's
    /// name), or nil when the command takes no more.
    package func argumentKind(after given: [String]) -> ArgumentKind? {
        var kinds = arguments[...]
        for word in given {
            guard let kind = kinds.popFirst() else { return nil }
            if case .subcommands(let subcommands) = kind, let chosen = subcommands.first(where: { $0.name == word }) {
                kinds = chosen.arguments[...] + kinds
            }
        }
        return kinds.first
    }
}

/// What a positional argument of a command is, so that tab completion knows what to offer.
package enum ArgumentKind: Sendable, Equatable {
    /// One of these words (`quality low`); none: anything, with nothing to offer.
    case values([String])
    /// One of these words, each with arguments of its own after it (`history export FILE`).
    case subcommands([Subcommand])
    /// The name of a command, built-in or from a command file (`help record`).
    case commandName
    /// A file or directory (`history export ~/commands.txt`).
    case file

    /// A word of `.subcommands` and the arguments that follow it.
    package struct Subcommand: Sendable, Equatable {
        package var name: String
        package var arguments: [ArgumentKind]

        package init(_ name: String, _ arguments: [ArgumentKind] = []) {
            self.name = name
            self.arguments = arguments
        }
    }
}

/// A spoken pattern and the command line it stands for. In `line`, `$1`, `$2`… are
/// replaced by the words the slots and alternatives of the pattern matched, in order.
package struct SpokenForm: Sendable, Equatable {
    package var pattern: String
    package var line: String

    package init(_ pattern: String, runs line: String) {
        self.pattern = pattern
        self.line = line
    }
}

/// A command that has been parsed and can run.
package protocol RunnableCommand {
    mutating func run(in context: CommandContext) throws
}

/// A built-in command: its arguments parse with swift-argument-parser (`parse(_:)`,
/// never anything that exits), it describes itself once in `info`, and it runs against
/// a context. The parser's `configuration` (name, summary, aliases in the usage line and
/// `--help`) is made from `info`.
package protocol ShellCommand: ParsableCommand, RunnableCommand {
    static var info: CommandInfo { get }
}

/// A command whose arguments can be only words (`search a b c`, `delete 1 2 3`): without
/// an option among them it is made directly from the words. swift-argument-parser takes
/// time that grows with the square of the number of words (13 s for 20,000).
package protocol WordsCommand: ShellCommand {
    /// The command for these words (none of them starts with `-`), checked as `parse` would.
    init(words: [String]) throws
}

extension ShellCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: info.name, abstract: info.summary + ".", aliases: info.aliases)
    }
}

/// A failure a command reports to the person: printed as `error: <message>`.
package struct CommandError: Error, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
