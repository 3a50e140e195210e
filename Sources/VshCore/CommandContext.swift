/// Everything a running command may use. Built by the shell for each command.
package final class CommandContext {
    package let output: TextSink
    package let error: TextSink
    /// Styling for `output` (colours only on a terminal without NO_COLOR).
    package let style: Style
    /// The shell's shared state: registry, settings, history.
    package let session: Session
    /// True at an interactive prompt, false for scripts and `-c`.
    package let interactive: Bool

    package init(output: TextSink, error: TextSink, style: Style, session: Session, interactive: Bool) {
        self.output = output
        self.error = error
        self.style = style
        self.session = session
        self.interactive = interactive
    }

    /// Says what a command just did in words that only repeat what it was told ("deleted
    /// 'groceries'", "quality: high (48 kHz…)"): for the person at the prompt. In a script
    /// or `-c` it is left out, so a script sees only what it did not say itself: what it
    /// asked to see, and what a command made or found (README, Scripts).
    package func confirm(_ line: String) {
        if interactive { output.line(line) }
    }

    /// Writes one JSON value (an object, a listing) made by the one encoder, `JSONWriter`,
    /// and a line break: what every `--json` prints (FORMAT.md, "JSON output").
    package func writeJSON(_ body: (inout JSONWriter) -> Void) {
        var json = JSONWriter()
        body(&json)
        json.flush(to: output)
        output.line()
    }

    /// Writes a warning line to the error sink.
    package func warn(_ message: String) { error.line("warning: \(message)") }

    /// Whether `output` is a terminal, where a status line (a level bar, a step of a long
    /// task) can be rewritten in place; elsewhere such progress is left out or written as lines.
    package var hasStatusLine: Bool { output.isTerminal }

    /// Rewrites the status line with `text` (no newline: the next call replaces it) when
    /// `output` is a terminal; writes nothing otherwise.
    package func status(_ text: String) {
        if hasStatusLine { output.write(Self.clearLine + text) }
    }

    /// A step of a long task: the status line on a terminal, a line of its own elsewhere
    /// (a script or a pipe sees each step once).
    package func step(_ text: String) {
        if hasStatusLine { status(text) } else { output.line(text) }
    }

    /// What the person has typed (before Enter) while this command runs, for its status
    /// line to show, since the terminal does not echo it then; "" when nothing.
    package var typed: String { session.typedWhileRunning() }

    /// Clears the status line when `output` is a terminal, so what follows starts on an empty line.
    package func clearStatus() { status("") }

    /// Back to the line's start, then erase the line (VT100 EL 2).
    static let clearLine = "\r\u{1B}[2K"
}
