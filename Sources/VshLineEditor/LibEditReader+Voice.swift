import CLibEdit
import CVshShims
import Foundation
import VshCore
import VshSpoken

/// How the voice listener shares the line with the keyboard. The reader's key function
/// hands libedit a private key (Ctrl-], bound to `vsh-voice`) whenever the listener has
/// something; the bound function then works on the line with libedit's own tools, so the
/// prompt and what was typed are never garbled:
///
/// - a new mark (listening, hearing, off): the prompt text changes, libedit redraws it;
/// - a notice ("did you mean …"): the prompt and typed text are blanked and redrawn by
///   libedit, the notice is printed where they were, and libedit draws them afresh below;
/// - a spoken command: the typed text is put aside, the command takes the line, its mark
///   (`[spoken 0.91]`) follows, and the line ends as if Enter was pressed. The typed text
///   comes back, cursor and all, at the next prompt.
///
/// Each of these needs libedit to redraw between two halves: the function keeps the
/// action in `afterRefresh` and returns CC_REFRESH, and once libedit has redrawn, the
/// key function finishes it (`finish`).
extension LibEditReader {
    /// Ctrl-]: nothing else in vsh uses it; typed by hand it does nothing.
    static let voiceKeyName = "^]"
    static let voiceKeyCode: wchar_t = 0x1D

    /// The text of the line and where the cursor was, in characters.
    struct SavedLine {
        var text: String
        var cursor: Int
    }

    /// At the start of a line: what was typed before the last spoken command comes back
    /// first; marks queued for an earlier prompt are stale.
    func prepareVoiceSteps() {
        voiceSteps.removeAll {
            if case .prompt = $0 { return true }
            return false
        }
        if let saved = restoreNext {
            restoreNext = nil
            restoring = saved
        }
    }

    /// The bound function: one step of voice work on the line. Returns a CC_* code.
    func voiceKey() -> UInt8 {
        if let spoken = submitting {
            submitting = nil
            finished = .spoken(spoken)
            return UInt8(vsh_cc_newline())
        }
        if let saved = restoring {
            restoring = nil
            put(saved)
            return UInt8(vsh_cc_refresh())
        }
        guard !voiceSteps.isEmpty else { return UInt8(vsh_cc_norm()) }
        let action = voiceSteps.removeFirst()
        switch action {
        case .prompt(let prompt):
            vsh_el_set_prompt_text(editLine, prompt)
        case .notice:
            typedAside = takeLine()
            vsh_el_set_prompt_text(editLine, "")
            afterRefresh = action
        case .submit(let spoken, _):
            restoreNext = takeLine()
            el_insertstr(editLine, spoken.line)
            afterRefresh = action
        }
        return UInt8(vsh_cc_refresh())
    }

    /// The second half of `action`, once libedit has redrawn the line. Returns true when
    /// the voice key must come next (to end a spoken line).
    func finish(_ action: PromptAction) -> Bool {
        fflush(stdout)
        switch action {
        case .prompt:
            return false
        case .notice(let lines, let prompt):
            // libedit left the cursor where the blanked prompt began.
            fputs(lines.map { $0 + "\n" }.joined(), stdout)
            fflush(stdout)
            vsh_el_set_prompt_text(editLine, prompt)
            if let typed = typedAside { put(typed) }
            typedAside = nil
            vsh_el_refresh(editLine)
            return false
        case .submit(let spoken, let mark):
            fputs(mark + "\n", stdout)
            fflush(stdout)
            submitting = spoken
            return true
        }
    }

    /// While a spoken command runs, keys typed meanwhile wait unechoed for the next
    /// prompt, which shows them in the line: the terminal's own echo (it is in cooked mode
    /// between prompts) would print them into the command's output.
    func holdEcho() {
        var settings = termios()
        guard echoHeld == nil, tcgetattr(0, &settings) == 0, settings.c_lflag & tcflag_t(ECHO) != 0 else { return }
        echoHeld = settings
        settings.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSANOW, &settings)
    }

    /// Gives the terminal its echo back (before libedit reads its settings at a prompt,
    /// and when vsh leaves).
    func releaseEcho() {
        guard var settings = echoHeld else { return }
        echoHeld = nil
        var now = termios()
        if tcgetattr(0, &now) == 0 {
            now.c_lflag |= settings.c_lflag & tcflag_t(ECHO)
            settings = now
        }
        tcsetattr(0, TCSANOW, &settings)
    }

    /// Empties the line and returns what it held.
    func takeLine() -> SavedLine {
        guard let info = el_wline(editLine) else { return SavedLine(text: "", cursor: 0) }
        let count = info.pointee.lastchar - info.pointee.buffer
        let cursor = info.pointee.cursor - info.pointee.buffer
        var text = String.UnicodeScalarView()
        for i in 0..<count {
            if let scalar = Unicode.Scalar(UInt32(bitPattern: info.pointee.buffer[i])) { text.append(scalar) }
        }
        if count > 0 {
            _ = el_cursor(editLine, Int32(count - cursor))
            el_deletestr(editLine, Int32(count))
        }
        return SavedLine(text: String(text), cursor: cursor)
    }

    /// Inserts saved text and puts the cursor back where it was in it.
    func put(_ saved: SavedLine) {
        guard !saved.text.isEmpty else { return }
        el_insertstr(editLine, saved.text)
        let back = saved.text.unicodeScalars.count - saved.cursor
        if back > 0 { _ = el_cursor(editLine, Int32(-back)) }
    }
}
