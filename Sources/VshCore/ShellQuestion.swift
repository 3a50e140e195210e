/// A yes-or-no question a command asked the person at the prompt (`CommandContext.ask`):
/// the next line answers it. "yes" (or "y") runs what was asked about; "no" (or "n"),
/// Ctrl-C and Ctrl-D answer no; any other line answers no and then runs as usual. Only
/// at an interactive prompt: a script cannot answer, so a command there refuses instead
/// and names the flag that does it anyway.
package struct ShellQuestion {
    /// The command that asked: what "yes" runs reports its errors under this name.
    package var command: String
    /// What is said when the answer is no.
    package var declined: String
    /// What "yes" does, with the context of the line that answered.
    package var yes: (CommandContext) throws -> Void

    package init(command: String, declined: String, yes: @escaping (CommandContext) throws -> Void) {
        self.command = command
        self.declined = declined
        self.yes = yes
    }

    /// Whether `line` (trimmed) answers yes, no, or is no answer (nil).
    static func answer(_ line: String) -> Bool? {
        switch line.lowercased() {
        case "yes", "y": true
        case "no", "n": false
        default: nil
        }
    }

    /// The prompt while a question waits: `vsh [yes/no]> `.
    static func prompt(_ base: String) -> String {
        base.hasSuffix("> ") ? base.dropLast(2) + " [yes/no]> " : "[yes/no] " + base
    }
}

extension CommandContext {
    /// Asks the person at the prompt `question`; the next line answers it (`ShellQuestion`)
    /// and "yes" runs `yes`, anything else says `declined`. Only when `interactive`.
    package func ask(_ question: String, by command: String, declined: String,
                     yes: @escaping (CommandContext) throws -> Void) {
        precondition(interactive, "a script cannot answer; refuse and name the flag instead")
        output.line(question + " (yes or no)")
        session.question = ShellQuestion(command: command, declined: declined, yes: yes)
    }
}
