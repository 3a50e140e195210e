import Foundation

/// While a long command runs at the prompt (record, play, train), the person stops it with
/// Enter (or by typing `stop` and Enter) or Ctrl-C; Ctrl-C arrives through the signal pipe
/// the line editor installed.
///
/// The terminal is in its normal line mode between prompts, where it echoes each key at
/// the cursor: at the end of the command's status line, which its next redraw then wipes
/// or leaves behind. So, when it `takesKeys` (a prompt libedit edits), the watch takes the
/// keys one at a time and unechoed from the first look on, keeps what is typed (`typed`,
/// which the command shows on its status line) until Enter, and gives the terminal its
/// line mode and echo back at the next prompt (`release`, which `LibEditReader.readLine`
/// calls) or when vsh leaves. Without it (a plain reader), the terminal's line mode
/// assembles the line as before.
package final class KeyboardWatch {
    private let takesKeys: Bool
    /// The terminal's settings before the watch took its keys; nil while it has not.
    private var held: termios?
    /// The bytes typed since the command started, not yet ended by Enter.
    private var pending: [UInt8] = []
    /// Within a key's escape sequence (an arrow: ESC [ A), which is no text.
    private var escape = false

    package init(takesKeys: Bool) {
        self.takesKeys = takesKeys
    }

    /// What has been typed and not yet ended with Enter ("" when nothing).
    package var typed: String { String(decoding: pending, as: UTF8.self) }

    /// What the person did to ask for a stop ("Ctrl-C", "Enter", the line they typed, "end
    /// of input"), or nil. Never blocks.
    package func stopRequested() -> String? {
        if SignalPipe.drain().contains(SIGINT) { return "Ctrl-C" }
        if takesKeys { hold() }
        guard held != nil else { return lineRequested() }
        // One byte at a time, so that what follows Enter stays for the next prompt.
        var byte: UInt8 = 0
        while Self.ready() {
            guard read(0, &byte, 1) == 1 else { return "end of input" }
            if escape {
                // ESC, then `[` or `O`, then parameters, up to a final byte from @ to ~.
                escape = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") || !(64...126).contains(byte)
                continue
            }
            switch byte {
            case 10, 13:
                let line = typed.trimmingCharacters(in: .whitespaces)
                pending = []
                return line.isEmpty ? "Enter" : line
            case 4 where pending.isEmpty:
                return "end of input"  // Ctrl-D, as on an empty line in line mode
            case 8, 127:
                // Backspace: the last character, however many bytes it took.
                var text = typed
                if !text.isEmpty { text.removeLast() }
                pending = Array(text.utf8)
            case 21:
                pending = []  // Ctrl-U
            case 27:
                escape = true
            case 0..<32:
                break
            default:
                pending.append(byte)
            }
        }
        return nil
    }

    /// The terminal in its line mode: a line ended with Enter is waiting, or nothing.
    private func lineRequested() -> String? {
        guard Self.ready() else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(0, &buffer, buffer.count)
        guard n > 0 else { return "end of input" }
        let typed = String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return typed.isEmpty ? "Enter" : typed
    }

    private static func ready() -> Bool {
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, 0) > 0
    }

    /// Keys one at a time (Ctrl-C still a signal), unechoed, until `release`.
    private func hold() {
        var settings = termios()
        guard held == nil, isatty(0) != 0, tcgetattr(0, &settings) == 0 else { return }
        held = settings
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(0, TCSANOW, &settings)
    }

    /// Gives the terminal back the settings it had before the watch took its keys, and
    /// forgets what was typed without Enter.
    package func release() {
        pending = []
        escape = false
        guard var settings = held else { return }
        held = nil
        tcsetattr(0, TCSANOW, &settings)
    }

    /// Whether Ctrl-C was pressed since the last look; never blocks, and leaves what was
    /// typed for the command (a program vsh waits for stops on Ctrl-C alone).
    package static func interrupted() -> Bool {
        SignalPipe.drain().contains(SIGINT)
    }
}
