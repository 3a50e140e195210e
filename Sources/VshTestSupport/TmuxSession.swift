import Foundation

/// A program in a real pseudo-terminal, driven through tmux: type keys, read the screen.
/// Each session has its own tmux server socket, so tests never meet each other.
package final class TmuxSession {
    package let socket: String
    private let name = "vsh"

    /// Starts `command` (argv) in a `width`×`height` terminal with `environment`.
    package init(command: [String], environment: [String: String], width: Int = 100, height: Int = 30) throws {
        socket = FileManager.default.temporaryDirectory.path + "/vsh-tmux-\(getpid())-\(UUID().uuidString.prefix(8))"
        let env = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // sh reports the exit status on the screen: a tmux server started from a test
        // runner does not always notice its child's exit, so pane_dead is not reliable.
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        // `trap : INT`: Ctrl-C goes to the whole foreground group; sh must outlive it.
        let script = "trap : INT; \(quoted.joined(separator: " ")); echo \"\(Self.exitMarker)$?]\"; sleep 3600"
        try tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
                  "env", "-i"] + env + ["/bin/sh", "-c", script])
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// Types keys: literal text, or tmux key names such as "Tab", "Enter", "C-c", "Up".
    package func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", name] + (literal ? ["-l"] : []) + keys)
    }

    /// Types `text` exactly as written.
    package func type(_ text: String) throws { try send(text, literal: true) }

    /// The visible screen as typed (trailing spaces kept: `-N`), trailing blank lines removed.
    package func screen() throws -> String {
        var text = try tmux(["capture-pane", "-p", "-N", "-t", name])
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Waits until `predicate` holds for the screen; returns the screen. Throws with the
    /// last screen when it does not happen within `timeout` seconds.
    @discardableResult
    package func waitFor(_ what: String, timeout: Double = 10, _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if predicate(last) { return last }
            usleep(20_000)
        }
        throw Timeout(message: "timed out waiting for \(what); the screen was:\n\(last)")
    }

    /// Waits for `text` to appear on the screen.
    @discardableResult
    package func waitFor(_ text: String, timeout: Double = 10) throws -> String {
        try waitFor("'\(text)'", timeout: timeout) { $0.contains(text) }
    }

    static let exitMarker = "[vsh-test: exited with status "

    /// The program's exit status once it has exited, else nil.
    package func exitStatus() throws -> Int32? {
        let text = try screen()
        guard let range = text.range(of: Self.exitMarker, options: .backwards) else { return nil }
        return Int32(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// Waits for the program to exit and returns its status.
    package func waitForExit(timeout: Double = 10) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = try exitStatus() { return status }
            usleep(20_000)
        }
        throw Timeout(message: "the program did not exit; the screen was:\n\(try screen())")
    }

    package struct Timeout: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Runs tmux and returns what it printed. posix_spawn and waitpid rather than
    /// Foundation's Process: the tmux server daemonises with inherited descriptors, and
    /// Process waits for those to close, which the server never does.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let outputPath = socket + ".out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ["tmux", "-S", socket] + arguments
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        // Test threads block signals and children inherit the mask: the tmux server would
        // never see SIGCHLD, nor vsh SIGINT. Start tmux with nothing blocked, defaults set.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, cArgs, environ)
        guard spawned == 0 else { throw Timeout(message: "cannot run tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: outputPath)
        let exited = (status & 0x7f) == 0
        guard exited && (status >> 8) & 0xff == 0 else {
            throw Timeout(message: "tmux \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }
}
