/// What reading a line gave.
public enum LineInput: Equatable {
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
public protocol LineReader: AnyObject {
    /// Reads one line, showing `prompt` where the reader shows prompts.
    func readLine(prompt: String) -> LineInput
    /// Offers `line` to the reader's own recall (arrow keys, Ctrl-R).
    func addToRecall(_ line: String)
}

/// Tab completion over the registry: what to offer for the text before the cursor.
public enum Completion {
    /// The candidates for the word being typed at the end of `text`.
    public static func candidates(for text: String, registry: CommandRegistry) -> (partial: String, matches: [String]) {
        // Only the last command of a `a; b` line is being completed.
        let current = text.split(separator: ";", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        var words = current.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let endsInSpace = current.last.map { $0 == " " || $0 == "\t" } ?? true
        let partial = endsInSpace ? "" : (words.popLast() ?? "")
        return (partial, registry.completions(previous: words, partial: partial))
    }

    /// The longest prefix all `matches` share.
    public static func commonPrefix(_ matches: [String]) -> String {
        guard var prefix = matches.first else { return "" }
        for m in matches.dropFirst() {
            while !m.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
