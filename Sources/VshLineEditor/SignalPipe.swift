import Foundation

/// Turns SIGINT and SIGWINCH into bytes on a pipe (the self-pipe trick), so the
/// keyboard loop can poll() for keys and signals together. The handler only writes
/// one byte: async-signal-safe.
enum SignalPipe {
    nonisolated(unsafe) private(set) static var readEnd: Int32 = -1
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    static func install() {
        guard readEnd < 0 else { return }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        readEnd = fds[0]
        writeEnd = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signo in
            var byte = UInt8(truncatingIfNeeded: signo)
            _ = write(SignalPipe.writeEnd, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
        sigaction(SIGWINCH, &action, nil)
        // A parent may have started vsh with these blocked; the prompt needs them.
        var wanted = sigset_t()
        sigemptyset(&wanted)
        sigaddset(&wanted, SIGINT)
        sigaddset(&wanted, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
    }

    /// Reads what is pending and returns the signal numbers seen.
    @discardableResult
    static func drain() -> Set<Int32> {
        guard readEnd >= 0 else { return [] }
        var seen = Set<Int32>()
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readEnd, &buffer, buffer.count)
            if n <= 0 { break }
            for b in buffer[0..<n] { seen.insert(Int32(b)) }
        }
        return seen
    }
}
