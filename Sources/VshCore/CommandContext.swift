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

    /// Writes a warning line to the error sink.
    package func warn(_ message: String) { error.line("warning: \(message)") }
}
