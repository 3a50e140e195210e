import Foundation
import VshCommands
import VshCore

/// Fault injection for the transcript store: vsh run under a file-size limit, as another
/// user, or killed at a random moment; stores filled directly in the format of FORMAT.md;
/// and `StoreCheck`, which says what is wrong with a store after the fault.
package enum FaultInjection {
    /// How one run of vsh ended.
    package struct Run {
        package var stdout: String
        package var stderr: String
        /// The exit status, or the signal that ended it (`signaled`).
        package var status: Int32
        package var signaled: Bool
        /// Whether it ended by our SIGKILL rather than on its own.
        package var killed: Bool { signaled && status == SIGKILL }
        /// With `changing`: seconds from vsh's first change of the store to its end.
        package var changingSeconds: Double?
    }

    /// Runs vsh with `arguments` and `stdin`, as `user` (uid and gid; nil: as we are) with
    /// `fileSizeLimit` bytes (RLIMIT_FSIZE, via prlimit), killing it with SIGKILL after
    /// `killAfter` seconds if it is still running; with `changing`, those seconds count
    /// from the moment vsh first marks that store's lock file (its first change begins,
    /// seen through inotify), so the kill lands among the script's changes however slow
    /// the start was.
    package static func run(
        _ vsh: VshBinary, _ arguments: [String], stdin: String = "", environment extra: [String: String] = [:],
        fileSizeLimit: Int? = nil, user: UInt32? = nil, killAfter: Double? = nil, changing store: String? = nil
    ) throws -> Run {
        var command = [VshBinary.path] + arguments
        if let user { command = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + command }
        if let fileSizeLimit { command = ["/usr/bin/prlimit", "--fsize=\(fileSizeLimit)"] + command }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = vsh.environment(extra)
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        // Watched before vsh starts, so its first change cannot be missed.
        let watch = store.map { store -> Int32 in
            let fd = inotify_init1(Int32(IN_CLOEXEC))
            close(open(store + "/.lock", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
            inotify_add_watch(fd, store + "/.lock", UInt32(IN_MODIFY))
            return fd
        }
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data(), err = Data()
        nonisolated(unsafe) var firstChange: Date?
        DispatchQueue.global().async(group: group) { out = output.fileHandleForReading.readToEndRetrying() }
        DispatchQueue.global().async(group: group) { err = error.fileHandleForReading.readToEndRetrying() }
        if let killAfter {
            // prlimit and setpriv exec vsh, so the pid is vsh's.
            let pid = process.processIdentifier
            if let watch {
                // A thread of its own: the dispatch pool's threads may all be blocked in
                // the pipe reads above until vsh ends.
                group.enter()
                Thread.detachNewThread {
                    var ready = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
                    if poll(&ready, 1, 30_000) == 1 {
                        firstChange = Date()
                        usleep(useconds_t(killAfter * 1e6))
                        kill(pid, SIGKILL)
                    }
                    close(watch)
                    group.leave()
                }
            } else {
                DispatchQueue.global().asyncAfter(deadline: .now() + killAfter) { kill(pid, SIGKILL) }
            }
        }
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        let ended = Date()
        group.wait()
        return Run(stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
                   status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                   changingSeconds: firstChange.map { ended.timeIntervalSince($0) })
    }

    /// A 16-bit mono WAV of `seconds` of a tone at `rate`, its samples varying with `seed`.
    package static func wav(seconds: Double, rate: Int = 16000, seed: Int = 0) -> Data {
        let count = Int(seconds * Double(rate))
        var data = Data(capacity: 44 + 2 * count)
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); put(UInt32(36 + count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); put(UInt32(16)); put(UInt16(1)); put(UInt16(1))
        put(UInt32(rate)); put(UInt32(rate * 2)); put(UInt16(2)); put(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); put(UInt32(count * 2))
        let step = 0.02 + Double(seed % 50) / 1000
        for i in 0..<count { put(Int16(8000 * sin(Double(i) * step))) }
        return data
    }

    /// The id vsh would give something started `second` seconds into 2026-11-21 (slot 0).
    package static func id(day: Int = 21, second: Int) -> String {
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
        var value = second * 12
        var chars = [Character](repeating: "0", count: 4)
        for i in (0..<4).reversed() {
            chars[i] = alphabet[value % 32]
            value /= 32
        }
        return "202611\(day)-" + String(chars)
    }

    static func header(_ id: String, second: Int, title: String?, seconds: Double) -> String {
        let created = String(format: "2026-11-21T%02d:%02d:%02dZ", second / 3600, second / 60 % 60, second % 60)
        return "Id: \(id)\n" + (title.map { "Title: \($0)\n" } ?? "") + "Created: \(created)\n"
            + String(format: "Duration: %.2f\n", seconds) + "Quality: medium\nSample-Rate: 16000\nAudio: \(id).wav\nSource: file test.wav\n\n"
    }

    static func write(_ data: Data, _ path: String) throws {
        try data.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }

    static func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Writes a saved transcript (`.txt`, `.wav`, `.json`) as vsh would.
    package static func saveItem(in store: String, second: Int, text: String, seconds: Double = 0.2) throws -> String {
        let id = id(second: second)
        try makeDirectory(store)
        try write(wav(seconds: seconds, seed: second), store + "/\(id).wav")
        try write(Data("{\"words\":[]}\n".utf8), store + "/\(id).json")
        try write(Data((header(id, second: second, title: text, seconds: seconds) + text + "\n").utf8), store + "/\(id).txt")
        return id
    }

    /// Leaves a draft in `drafts/` as the recorder leaves it: WAV, header and text, timings.
    package static func leaveDraft(in store: String, second: Int, text: String, seconds: Double = 0.2) throws -> String {
        let id = id(second: second)
        try makeDirectory(store + "/drafts")
        try write(wav(seconds: seconds, seed: second), store + "/drafts/\(id).wav")
        try write(Data("{\"words\":[{\"word\":\"x\",\"start\":0,\"end\":0.1,\"confidence\":0.5}]}\n".utf8), store + "/drafts/\(id).json")
        try write(Data((header(id, second: second, title: nil, seconds: 0) + text + "\n").utf8), store + "/drafts/\(id).txt")
        return id
    }

    /// Every file under `directory` (relative path) and a digest of its bytes and mode:
    /// equal digests mean nothing changed.
    package static func snapshot(_ directory: String) -> [String: String] {
        var out: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return out }
        for case let name as String in walker {
            let full = directory + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            var digest = "mode \(String(info.st_mode, radix: 8))"
            if (info.st_mode & S_IFMT) == S_IFREG, let data = FileManager.default.contents(atPath: full) {
                var h: UInt64 = 0xcbf29ce484222325
                for b in data { h = (h ^ UInt64(b)) &* 0x100000001b3 }
                digest += " \(data.count) \(String(h, radix: 16))"
            }
            out[name] = digest
        }
        return out
    }
}

