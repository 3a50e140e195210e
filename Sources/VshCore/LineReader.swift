import Foundation
import VshSpoken

/// What reading a line gave.
package enum LineInput: Equatable {
    case line(String)
    /// A command heard at the prompt (see `VoicePrompt`), shown on the prompt line as if typed.
    case spoken(SpokenLine)
    /// Ctrl-C: the line being typed was abandoned.
    case interrupted
    /// Ctrl-D or the end of a script.
    case endOfInput
}

/// Reads command lines: libedit at a terminal, plain reads for scripts, a scripted fake
/// in tests.
package protocol LineReader: AnyObject {
    /// Reads one line, showing `prompt` where the reader shows prompts.
    func readLine(prompt: String) -> LineInput
    /// Offers `line` to the reader's own recall (arrow keys, Ctrl-R).
    func addToRecall(_ line: String)
}

/// Tab completion over the registry: what to offer for the text before the cursor.
package enum Completion {
    /// The candidates for the word being typed at the end of `text`.
    package static func candidates(for text: String, registry: CommandRegistry) -> (partial: String, matches: [String]) {
        // Only the last command of a `a; b` line is being completed.
        let current = text.split(separator: ";", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        var words = current.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let endsInSpace = current.last.map { $0 == " " || $0 == "\t" } ?? true
        let partial = endsInSpace ? "" : (words.popLast() ?? "")
        guard let first = words.first else { return (partial, registry.allNames.filter { $0.hasPrefix(partial) }) }
        guard let entry = registry.lookup(first) else { return (partial, []) }
        // Option names, as the command's usage line gives them: `record --<Tab>`.
        if partial.hasPrefix("-") { return (partial, options(in: entry.usage).filter { $0.hasPrefix(partial) }) }
        // The file of `--from`, whichever command takes it.
        if words.last == "--from" { return (partial, paths(partial)) }
        // Otherwise what the command declares its argument here to be.
        let offered: [String]
        switch entry.info.argumentKind(after: Array(words.dropFirst())) {
        case .values(let values): offered = values
        case .subcommands(let subcommands): offered = subcommands.map(\.name)
        case .commandName: offered = registry.allNames
        case .file: return (partial, paths(partial))
        case nil: offered = []
        }
        return (partial, offered.filter { $0.hasPrefix(partial) })
    }

    /// The `--name` options in a usage line, sorted, each once.
    static func options(in usage: String) -> [String] {
        var found: [String] = []
        var rest = Substring(usage)
        while let start = rest.range(of: "--") {
            let name = rest[start.lowerBound...].prefix { $0 == "-" || $0.isLetter || $0.isNumber }
            if name.count > 2, !found.contains(String(name)) { found.append(String(name)) }
            rest = rest[start.upperBound...]
        }
        return found.sorted()
    }

    /// Files and directories (with a `/`) whose path starts with `partial`; `~/` is the
    /// home directory. Hidden ones only when `partial` names a dot.
    package static func paths(_ partial: String) -> [String] {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        let expanded = partial.hasPrefix("~/") ? home + partial.dropFirst(1) : partial
        let slash = expanded.lastIndex(of: "/")
        let directory = slash.map { String(expanded[...$0]) } ?? ""
        let stem = slash.map { String(expanded[expanded.index(after: $0)...]) } ?? expanded
        let shown = slash.map { _ in String(partial[...partial.lastIndex(of: "/")!]) } ?? ""
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else {
            return []
        }
        // A name with control characters is never offered: it could not be typed, and
        // printing it would send its escapes to the terminal.
        return names.filter { $0.hasPrefix(stem) && (stem.hasPrefix(".") || !$0.hasPrefix(".")) && $0.visible == $0 }
            .sorted().compactMap { name in
            var isDirectory: ObjCBool = false
            // A name gone since the directory was read is not offered.
            guard FileManager.default.fileExists(atPath: directory + name, isDirectory: &isDirectory) else { return nil }
            return shown + name + (isDirectory.boolValue ? "/" : "")
        }
    }

    /// The longest prefix all `matches` share.
    package static func commonPrefix(_ matches: [String]) -> String {
        guard var prefix = matches.first else { return "" }
        for m in matches.dropFirst() {
            while !m.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
