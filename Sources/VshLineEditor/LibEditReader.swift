import CLibEdit
import CVshShims
import Foundation
import VshCore

/// The `vsh>` prompt through libedit's native API: emacs-style editing, history recall
/// (arrows, Ctrl-R incremental search), tab completion from the registry, and Ctrl-C
/// that abandons the line instead of killing vsh.
///
/// vsh reads the keyboard itself (EL_GETCFN) so one loop can wait on several sources:
/// the keyboard, signals (Ctrl-C, window resize) and, later, the recogniser.
public final class LibEditReader: LineReader {
    /// Owned: freed with el_end in deinit.
    private let editLine: OpaquePointer
    /// Owned: freed with history_end in deinit.
    private let history: OpaquePointer
    private let completer: (String) -> (partial: String, matches: [String])
    private var interrupted = false
    private var decoder = mbstate_t()

    /// Starts libedit on the terminal. Returns nil when libedit cannot start (then the
    /// caller falls back to plain reads). `completer` gets the text before the cursor.
    public init?(historySize: Int, completer: @escaping (String) -> (partial: String, matches: [String])) {
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
        vsh_el_bind(el, "^I", "vsh-complete")
        vsh_el_bind(el, "^C", "vsh-interrupt")
        vsh_el_bind(el, "^R", "em-inc-search-prev")
        // The person's own ~/.editrc (or $EDITRC) has the last word.
        el_source(el, nil)
    }

    deinit {
        el_end(editLine)
        history_end(history)
    }

    private static func from(_ el: OpaquePointer) -> LibEditReader? {
        guard let data = vsh_el_get_clientdata(el) else { return nil }
        return Unmanaged<LibEditReader>.fromOpaque(data).takeUnretainedValue()
    }

    public func readLine(prompt: String) -> LineInput {
        interrupted = false
        SignalPipe.drain()
        vsh_el_set_prompt_text(editLine, prompt)
        var count: Int32 = 0
        let text = el_gets(editLine, &count)
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

    public func addToRecall(_ line: String) {
        vsh_history_enter(history, line)
    }

    /// Waits for a key or a signal. Ctrl-C arrives as SIGINT (the terminal turns it into
    /// a signal) and is handed to libedit as the ^C character, bound to vsh-interrupt.
    private func readCharacter(into ch: UnsafeMutablePointer<wchar_t>) -> Int32 {
        while true {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
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
            el_insertstr(editLine, String(matches[0].dropFirst(partial.count)) + " ")
            return UInt8(vsh_cc_refresh())
        }
        let common = Completion.commonPrefix(matches)
        if common.count > partial.count {
            el_insertstr(editLine, String(common.dropFirst(partial.count)))
            return UInt8(vsh_cc_refresh())
        }
        fputs("\n" + matches.joined(separator: "  ") + "\n", stdout)
        fflush(stdout)
        return UInt8(vsh_cc_redisplay())
    }
}
