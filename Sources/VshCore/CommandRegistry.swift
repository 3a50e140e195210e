import ArgumentParser

/// The outcome of turning a command's words into something that can run.
package enum ParseOutcome {
    case run(RunnableCommand)
    /// The words asked for help (`--help`); the text to show.
    case help(String)
    /// The words were wrong; the message for the person, with usage.
    case failure(String)
}

/// One registered command: its description and how to build a runnable from words.
package struct CommandEntry {
    package let info: CommandInfo
    /// The usage line, e.g. `quality [low|medium|high]`.
    package let usage: String
    /// Makes the full help text for `help NAME` (only `help` needs it, so not at start-up).
    package let helpText: () -> String
    /// Parses the arguments (the words after the name). Never exits the process.
    package let parse: ([String]) -> ParseOutcome

    package init(info: CommandInfo, usage: String, helpText: @escaping () -> String,
                parse: @escaping ([String]) -> ParseOutcome) {
        self.info = info
        self.usage = usage
        self.helpText = helpText
        self.parse = parse
    }

    /// The entry for a built-in command type.
    package init<C: ShellCommand>(_ type: C.Type) {
        let usage = C.usageString().replacingPrefix("Usage: ", with: "")
        let cache = ParseCache()
        self.init(
            info: C.info,
            usage: usage,
            helpText: {
                if cache.helpText == nil { cache.helpText = C.helpMessage(columns: 80) }
                return cache.helpText!
            },
            parse: { arguments in
                if let known = cache.outcomes[arguments] { return known }
                let outcome = Self.parse(C.self, arguments, usage: usage)
                cache.remember(outcome, for: arguments)
                return outcome
            })
    }

    private static func parse<C: ShellCommand>(_ type: C.Type, _ arguments: [String], usage: String) -> ParseOutcome {
        var arguments = arguments
        // `history --last -1`: a negative number right after an option that takes a value
        // (`--last <n>` in the usage) is its value, which the command judges; the parser
        // would take it for an option and say the value is missing.
        let valued = valuedOptions(in: usage)
        for i in arguments.indices.dropFirst().reversed()
        where isNegativeNumber(arguments[i]) && valued.contains(arguments[i - 1]) && !arguments[..<i].contains("--") {
            arguments[i - 1] += "=" + arguments.remove(at: i)
        }
        do {
            if let words = C.self as? any WordsCommand.Type, !arguments.isEmpty, !arguments.contains(where: { $0.hasPrefix("-") }) {
                return .run(try words.init(words: arguments))
            }
            // `show -1` is a (wrong) number, not an unknown option: it reaches the command,
            // which says what numbers there are.
            if let first = arguments.firstIndex(where: Self.isNegativeNumber), !arguments[..<first].contains("--") {
                var marked = arguments
                marked.insert("--", at: first)
                return .run(try C.parse(marked))
            }
            return .run(try C.parse(arguments))
        } catch {
            if C.exitCode(for: error) == .success {
                return .help(C.fullMessage(for: error, columns: 80))
            }
            return .failure("\(C.message(for: error))\nusage: \(usage)")
        }
    }
}

extension CommandEntry {
    static func isNegativeNumber(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && word.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The options a usage line shows with a value: `--last` in `[--last <n>]` (not
    /// `--json` in `[--json] <n>`, whose bracket closes before the value).
    static func valuedOptions(in usage: String) -> Set<String> {
        var found = Set<String>()
        let words = usage.split(separator: " ").map { $0.drop { $0 == "[" } }
        for (word, next) in zip(words, words.dropFirst())
        where word.hasPrefix("--") && !word.hasSuffix("]") && next.hasPrefix("<") {
            found.insert(String(word))
        }
        return found
    }
}

extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}

/// Parsing is a pure function of the words, and swift-argument-parser rebuilds its
/// argument tables on every call; scripts repeat the same lines, so recent outcomes
/// are kept (a bounded number), and the help text once it has been asked for.
private final class ParseCache {
    private(set) var outcomes: [[String]: ParseOutcome] = [:]
    var helpText: String?

    func remember(_ outcome: ParseOutcome, for arguments: [String]) {
        if outcomes.count >= 256 { outcomes.removeAll(keepingCapacity: true) }
        outcomes[arguments] = outcome
    }
}

/// All commands the shell knows, typed and spoken. Built-ins and (later) commands from
/// config files join the same registry; names and aliases are unique.
package struct CommandRegistry {
    package private(set) var entries: [CommandEntry] = []
    private var byName: [String: Int] = [:]

    package init() {}

    /// Registers a command. Throws when the name or an alias is already taken.
    package mutating func register(_ entry: CommandEntry) throws {
        var seen = Set<String>()
        for name in [entry.info.name] + entry.info.aliases {
            if let existing = byName[name] {
                throw CommandError(
                    "command name '\(name)' is already used by '\(entries[existing].info.name)'")
            }
            if !seen.insert(name).inserted {
                throw CommandError("command '\(entry.info.name)' lists the name '\(name)' twice")
            }
        }
        entries.append(entry)
        for name in seen { byName[name] = entries.count - 1 }
    }

    /// The command with this name or alias.
    package func lookup(_ name: String) -> CommandEntry? {
        byName[name].map { entries[$0] }
    }

    /// All names and aliases, sorted.
    package var allNames: [String] { byName.keys.sorted() }

    /// The closest known name to a mistyped one, when it is close enough to be a likely typo.
    package func suggestion(for name: String) -> String? {
        Suggest.closest(to: name, among: allNames)
    }
}
