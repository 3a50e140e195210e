/// Reads lines from standard input without editing: for scripts (`vsh < file`), pipes,
/// and terminals that cannot edit (TERM=dumb), where it shows the prompt itself.
package final class PlainLineReader: LineReader {
    private let promptSink: TextSink?

    /// `promptSink` receives the prompt before each read; nil shows none (scripts).
    package init(promptSink: TextSink?) {
        self.promptSink = promptSink
    }

    package func readLine(prompt: String) -> LineInput {
        promptSink?.write(prompt)
        guard let line = Swift.readLine(strippingNewline: true) else { return .endOfInput }
        return .line(line)
    }

    package func addToRecall(_ line: String) {}
}
