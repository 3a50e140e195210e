import Foundation

/// While a long command runs at the prompt (record, play), the person stops it with
/// Enter (or by typing `stop` and Enter) or Ctrl-C. The terminal is in its normal line
/// mode then, so a finished line is waiting on standard input; Ctrl-C arrives through
/// the signal pipe the line editor installed.
package enum KeyboardWatch {
    /// What the person did to ask for a stop, or nil. Never blocks.
    package static func stopRequested() -> String? {
        if SignalPipe.drain().contains(SIGINT) { return "Ctrl-C" }
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, 0) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(0, &buffer, buffer.count)
        guard n > 0 else { return "end of input" }
        let typed = String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return typed.isEmpty ? "Enter" : typed
    }

    /// Whether Ctrl-C was pressed since the last look; never blocks, and leaves what was
    /// typed for the command (a program vsh waits for stops on Ctrl-C alone).
    package static func interrupted() -> Bool {
        SignalPipe.drain().contains(SIGINT)
    }
}
