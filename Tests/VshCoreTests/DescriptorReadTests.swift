import Foundation
import Testing
import VshCore

/// A child's output is read whole even when signals interrupt the read: a handler
/// without SA_RESTART makes a blocked read(2) fail with EINTR, which Foundation's own
/// readers (`readDataToEndOfFile`, `availableData`) turn into a crash of the process.
@Suite(.serialized) struct DescriptorReadTests {
    /// The handler, installed once for the test process and never taken back: the
    /// disposition is process-wide, and a case that restored the default while another
    /// was still signalling killed the process with SIGUSR1 (CI, on a fresh clone).
    static let handler: Void = {
        var noted = sigaction()
        noted.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&noted.sa_mask)
        noted.sa_flags = 0  // no SA_RESTART: the blocked read returns EINTR
        sigaction(SIGUSR1, &noted, nil)
    }()

    /// Each signal is sent while the reader sleeps in read(2), as /proc shows it.
    @Test(arguments: [false, true]) func aReadInterruptedBySignalsGoesOnToTheEnd(piecewise: Bool) throws {
        Self.handler

        let pipe = Pipe()
        let reader = Locked<(thread: pthread_t, id: pid_t)?>(nil)
        let result = Locked<Data?>(nil)
        Thread.detachNewThread {
            // The test's own threads block signals; vsh's main thread does not.
            var usr1 = sigset_t()
            sigemptyset(&usr1)
            sigaddset(&usr1, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &usr1, nil)
            let id = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
                .flatMap { $0.split(separator: "/").last.flatMap { pid_t($0) } } ?? 0
            reader.withLock { $0 = (pthread_self(), id) }
            var data = Data()
            if piecewise {
                while case let some = pipe.fileHandleForReading.readSomeRetrying(), !some.isEmpty { data += some }
            } else {
                data = pipe.fileHandleForReading.readToEndRetrying()
            }
            result.withLock { $0 = data }
        }
        let thread = try #require(reader.wait(until: { $0 != nil }, deadline: Date() + 5) { $0! })
        #expect(thread.id > 0)
        func interruptTheBlockedRead() throws {
            let stat = "/proc/self/task/\(thread.id)/stat"
            let deadline = Date() + 5
            // The state follows the name in parentheses: S is asleep, here in read(2).
            while (try String(contentsOfFile: stat, encoding: .utf8)).split(separator: ")").last?.dropFirst().first != "S" {
                #expect(Date() < deadline, "the reader never blocked")
                usleep(500)
            }
            pthread_kill(thread.thread, SIGUSR1)
        }
        var sent = Data()
        for piece in 0..<10 {
            try interruptTheBlockedRead()
            let bytes = Data(repeating: UInt8(piece), count: 1000 + piece)
            pipe.fileHandleForWriting.write(bytes)
            sent += bytes
        }
        try interruptTheBlockedRead()
        try pipe.fileHandleForWriting.close()
        let read = try #require(result.wait(until: { $0 != nil }, deadline: Date() + 5) { $0! })
        #expect(read == sent)
    }
}
