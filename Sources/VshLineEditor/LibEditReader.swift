import CLibEdit
import CVshShims
import Foundation
import VshCore
import VshSpoken

/// The `vsh>` prompt through libedit's native API: emacs-style editing, history recall
/// (arrows, Ctrl-R incremental search), tab completion from the registry, and Ctrl-C
/// that abandons the line instead of killing vsh.
///
/// vsh reads the keyboard itself (EL_GETCFN) so one loop can wait on several sources:
/// the keyboard, signals (Ctrl-C, window resize) and the voice listener (`sideInput`,
/// see LibEditReader+Voice.swift).
package final class LibEditReader: LineReader {
    /// Owned: freed with el_end in deinit.
    let editLine: OpaquePointer
    /// Owned: freed with history_end in deinit.
    private let history: OpaquePointer
    private let completer: (String) -> (partial: String, matches: [String])
    private var interrupted = false
    private var decoder = mbstate_t()

    /// The voice side: its descriptor joins the keyboard's poll; its actions redraw the
    /// prompt, print notices above it, or enter a spoken line.
    package var sideInput: PromptSideInput?
    /// Voice work waiting for its turn at the line (the keyboard goes first).
    var voiceSteps: [PromptAction] = []
    /// What was typed before the last spoken command, to put back first at this prompt.
    var restoring: SavedLine?
    /// The action to finish once libedit has redrawn the line (its second half).
    var afterRefresh: PromptAction?
    /// What was typed when a notice blanked the line: it comes back under the notice.
    var typedAside: SavedLine?
    /// A spoken line shown, its mark printed: the next voice key ends the line with it.
    var submitting: SpokenLine?
    /// What `readLine` returns instead of libedit's line (a spoken one).
    var finished: LineInput?
    /// What was typed when a spoken line took the prompt: it comes back at the next one.
    var restoreNext: SavedLine?
    /// The terminal settings from before a spoken command turned its echo off.
    var echoHeld: termios?
    /// The keys while a long command runs: taken one at a time and unechoed, so that they
    /// do not land in its status line; given back at the next prompt.
    package let keyboard = KeyboardWatch(takesKeys: true)

    /// Starts libedit on the terminal. Returns nil when libedit cannot start (then the
    /// caller falls back to plain reads). `completer` gets the text before the cursor.
    package init?(historySize: Int, completer: @escaping (String) -> (partial: String, matches: [String])) {
        setlocale(LC_CTYPE, "")
        guard let el = el_init("vsh", stdin, stdout, stderr) else { return nil }
        guard let h = history_init() else {
            el_end(el)
            return nil
        }
        editLine = el
        history = h
        self.completer = completer
        SignalPipe.install()

        vsh_history_set_size(h, Int32(max(1, historySize)))
        vsh_history_set_unique(h, 1)
        vsh_el_set_history(el, h)
        vsh_el_set_editor(el, "emacs")
        // libedit's own handlers re-raise signals to the whole process group; vsh handles them.
        vsh_el_set_signal(el, 0)
        vsh_el_set_clientdata(el, Unmanaged.passUnretained(self).toOpaque())
        vsh_el_set_getc(el, { el, ch in
            guard let el, let ch, let reader = LibEditReader.from(el) else { return -1 }
            return reader.readCharacter(into: ch)
        })
        vsh_el_add_function(el, "vsh-complete", "Complete a command name or argument", { el, _ in
            guard let el, let reader = LibEditReader.from(el) else { return UInt8(vsh_cc_error()) }
            return reader.complete()
        })
        vsh_el_add_function(el, "vsh-interrupt", "Abandon the line", { el, _ in
            guard let el, let reader = LibEditReader.from(el) else { return UInt8(vsh_cc_error()) }
            reader.interrupted = true
            return UInt8(vsh_cc_newline())
        })
        vsh_el_add_function(el, "vsh-voice", "Take what the voice listener has for the line", { el, _ in
            guard let el, let reader = LibEditReader.from(el) else { return UInt8(vsh_cc_error()) }
            return reader.voiceKey()
        })
        vsh_el_add_function(el, "vsh-talk", "Listen for one spoken command (push to talk)", { el, _ in
            guard let el, let reader = LibEditReader.from(el) else { return UInt8(vsh_cc_error()) }
            reader.sideInput?.talkKey()
            return UInt8(vsh_cc_norm())
        })
        vsh_el_bind(el, Self.voiceKeyName, "vsh-voice")
        // Push to talk (voice.attention = "key"); ~/.editrc may bind vsh-talk elsewhere.
        vsh_el_bind(el, "^T", "vsh-talk")
        vsh_el_bind(el, "^I", "vsh-complete")
        vsh_el_bind(el, "^C", "vsh-interrupt")
        vsh_el_bind(el, "^R", "em-inc-search-prev")
        // The person's own ~/.editrc (or $EDITRC) has the last word.
        el_source(el, nil)
    }

    deinit {
        keyboard.release()
        releaseEcho()
        el_end(editLine)
        history_end(history)
    }

    static func from(_ el: OpaquePointer) -> LibEditReader? {
        guard let data = vsh_el_get_clientdata(el) else { return nil }
        return Unmanaged<LibEditReader>.fromOpaque(data).takeUnretainedValue()
    }

    package func readLine(prompt: String) -> LineInput {
        // The keyboard watch's settings first: they were taken over the held echo's.
        keyboard.release()
        releaseEcho()
        interrupted = false
        finished = nil
        SignalPipe.drain()
        prepareVoiceSteps()
        vsh_el_set_prompt_text(editLine, prompt)
        var count: Int32 = 0
        let text = el_gets(editLine, &count)
        if let finished {
            self.finished = nil
            holdEcho()
            return finished
        }
        if interrupted {
            interrupted = false
            fputs("\n", stdout)
            fflush(stdout)
            return .interrupted
        }
        guard let text, count > 0 else { return .endOfInput }
        var line = String(cString: text)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    package func addToRecall(_ line: String) {
        vsh_history_enter(history, line)
    }

    /// Waits for a key or a signal. Ctrl-C arrives as SIGINT (the terminal turns it into
    /// a signal) and is handed to libedit as the ^C character, bound to vsh-interrupt.
    /// The keyboard goes first, so a key sequence (an arrow's ESC [ A) is never split by
    /// voice work; what the listener has waits until no key does, then arrives as the
    /// voice key.
    private func readCharacter(into ch: UnsafeMutablePointer<wchar_t>) -> Int32 {
        while true {
            if let action = afterRefresh {
                afterRefresh = nil
                if finish(action) {
                    ch.pointee = Self.voiceKeyCode
                    return 1
                }
                continue
            }
            // What was typed before a spoken command comes back before any key typed since.
            if restoring != nil {
                ch.pointee = Self.voiceKeyCode
                return 1
            }
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: sideInput?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 3, voiceSteps.isEmpty ? -1 : 0)
            if ready < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let signals = SignalPipe.drain()
                if signals.contains(SIGWINCH) { el_resize(editLine) }
                if signals.contains(SIGINT) {
                    ch.pointee = 3  // ^C
                    return 1
                }
                continue
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                var byte: UInt8 = 0
                let n = read(0, &byte, 1)
                if n == 0 { return 0 }
                if n < 0 {
                    if errno == EINTR { continue }
                    return -1
                }
                var wide: wchar_t = 0
                let used = withUnsafePointer(to: byte) { p in
                    p.withMemoryRebound(to: CChar.self, capacity: 1) { mbrtowc(&wide, $0, 1, &decoder) }
                }
                if used == -2 { continue }  // more bytes of a multibyte character to come
                if used == -1 {  // not valid in this locale: pass the byte through
                    decoder = mbstate_t()
                    wide = wchar_t(byte)
                }
                ch.pointee = wide
                return 1
            }
            if fds[2].revents & Int16(POLLIN) != 0, let sideInput {
                voiceSteps += sideInput.takeActions()
            }
            if !voiceSteps.isEmpty {
                ch.pointee = Self.voiceKeyCode
                return 1
            }
        }
    }

    /// Tab: one match completes (with a space); several extend to their common prefix,
    /// or are listed under the line when there is nothing more in common.
    private func complete() -> UInt8 {
        guard let info = el_line(editLine) else { return UInt8(vsh_cc_error()) }
        let length = info.pointee.cursor - info.pointee.buffer
        let before = String(
            decoding: UnsafeRawBufferPointer(start: info.pointee.buffer, count: length), as: UTF8.self)
        let (partial, matches) = completer(before)
        if matches.isEmpty { return UInt8(vsh_cc_error()) }
        if matches.count == 1 {
            let match = matches[0]
            // A directory goes on with its files (no space); a name with spaces is quoted.
            let end = match.hasSuffix("/") ? "" : " "
            let quoted = Words.quote(match)
            if quoted != match, !match.hasSuffix("/") {
                el_deletestr(editLine, Int32(partial.count))
                el_insertstr(editLine, quoted + end)
            } else {
                el_insertstr(editLine, String(match.dropFirst(partial.count)) + end)
            }
            return UInt8(vsh_cc_refresh())
        }
        let common = Completion.commonPrefix(matches)
        if common.count > partial.count {
            el_insertstr(editLine, String(common.dropFirst(partial.count)))
            return UInt8(vsh_cc_refresh())
        }
        fputs("\n" + matches.map(\.visible).joined(separator: "  ") + "\n", stdout)
        fflush(stdout)
        return UInt8(vsh_cc_redisplay())
    }
}
