/// What the line reader waits on besides the keyboard: the voice side of the prompt
/// (VshListening's `VoicePrompt`), so the libedit adapter needs the core alone.

/// What a line reader does for the voice side while it waits for keys.
package enum PromptAction: Equatable, Sendable {
    /// Redraw the prompt as this (the listening mark changed).
    case prompt(String)
    /// Print these lines above the prompt, then redraw it as `prompt`, with whatever was
    /// typed so far and the cursor where it was.
    case notice([String], prompt: String)
    /// Put `spoken.line` on the prompt line as if typed, show `mark` after it, and finish
    /// the line as `.spoken`. What was typed so far comes back at the next prompt.
    case submit(SpokenLine, mark: String)
}

/// Input besides the keyboard that a line reader waits on (the voice listener).
package protocol PromptSideInput: AnyObject {
    /// Readable when there is something to take.
    var fileDescriptor: Int32 { get }
    /// What to do now, in order: at most one `submit`, and only as the last action.
    func takeActions() -> [PromptAction]
    /// The talk key was pressed at the prompt (push to talk, `voice.attention = "key"`).
    func talkKey()
}

extension PromptSideInput {
    package func talkKey() {}
}
