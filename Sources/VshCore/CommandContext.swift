/// Everything a running command may use. Built by the shell for each command.
public final class CommandContext {
    public let output: TextSink
    public let error: TextSink
    /// Styling for `output` (colours only on a terminal without NO_COLOR).
    public let style: Style
    /// The shell's shared state: registry, settings, history.
    public let session: Session
    /// True at an interactive prompt, false for scripts and `-c`.
    public let interactive: Bool

    public init(output: TextSink, error: TextSink, style: Style, session: Session, interactive: Bool) {
        self.output = output
        self.error = error
        self.style = style
        self.session = session
        self.interactive = interactive
    }

    /// Writes a warning line to the error sink.
    public func warn(_ message: String) { error.line("warning: \(message)") }
}
