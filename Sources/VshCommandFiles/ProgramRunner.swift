import Foundation
import VshCore

/// Runs programs from `exec:` and `start:` with an argument list: no shell, so no slot
/// value can become a command. Slot values are also in `VSH_SLOT_<name>`.
///
/// Foundation starts each program in a process group of its own, so the terminal's
/// Ctrl-C reaches vsh and not the program. While vsh waits for an `exec:` program it
/// passes Ctrl-C on: SIGINT to the program's group, then SIGTERM and SIGKILL, each after
/// `grace` if the program is still running, and the command fails saying so.
enum ProgramRunner {
    /// How long a program has after SIGINT, and again after SIGTERM, to end.
    static let grace = 1.0

    static func run(_ call: CustomCommand.ProgramCall, values: [(String, String)], wait: Bool, in context: CommandContext) throws {
        let arguments = call.arguments.map { SlotReferences.fill($0, values) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: call.path)
        process.arguments = Array(arguments.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in values { environment["VSH_SLOT_\(name)"] = value }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        guard wait else {
            // Started, not waited for: a window or a player outlives the command.
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try launch(process, arguments)
            context.session.custom.started.removeAll { !$0.isRunning }
            context.session.custom.started.append(process)
            return
        }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let group = DispatchGroup()
        nonisolated(unsafe) var errors = Data()
        let (signalsSent, uncaught) = try UncaughtInterrupt.noting { pressed in
            try launch(process, arguments)
            DispatchQueue.global().async(group: group) { errors = error.fileHandleForReading.readToEndRetrying() }
            return waitShowingOutput(of: process, from: output.fileHandleForReading.fileDescriptor, in: context) {
                context.session.interrupted() || pressed()
            }
        }
        group.wait()
        if !errors.isEmpty { context.error.write(String(decoding: errors, as: UTF8.self) + (errors.last == 10 ? "" : "\n")) }
        let name = arguments[0]
        if let last = signalsSent.last {
            let escalated = signalsSent.count == 1 ? " (SIGINT)"
                : ": it went on after \(signalsSent.dropLast().joined(separator: " and ")), so vsh sent \(last)"
            // In a script or -c, Ctrl-C ends vsh too, as it would have without the program.
            if uncaught == .wouldEndVsh { context.session.exitRequested = true }
            throw CommandError("program '\(name)' was stopped by Ctrl-C\(escalated)" + (uncaught == .wouldEndVsh ? "; vsh stops here" : ""))
        }
        switch process.terminationReason {
        case .exit where process.terminationStatus != 0:
            throw CommandError("program '\(name)' failed (exit status \(process.terminationStatus))")
        case .uncaughtSignal:
            throw CommandError("program '\(name)' was stopped by signal \(process.terminationStatus)")
        default:
            return
        }
    }

    /// Shows the program's output as it comes until the program has ended, looking for
    /// Ctrl-C (`interrupted`) between reads; returns the signals sent to stop it.
    /// Output that does not end a line is ended, so the prompt starts on its own line.
    private static func waitShowingOutput(
        of process: Process, from output: Int32, in context: CommandContext, interrupted: () -> Bool
    ) -> [String] {
        let escalation: [(signal: Int32, name: String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGKILL, "SIGKILL")]
        var sent: [String] = []
        var nextSignal = 0.0
        var open = true
        var endsLine = true
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while open || process.isRunning {
            if open {
                var watched = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                if poll(&watched, 1, 100) > 0 {
                    let n = read(output, &buffer, buffer.count)
                    if n > 0 {
                        context.output.write(String(decoding: buffer[0..<n], as: UTF8.self))
                        endsLine = buffer[n - 1] == 10
                    } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                        open = false
                    }
                }
            } else {
                usleep(50_000)  // the program closed its output but runs on
            }
            guard process.isRunning, sent.count < escalation.count else { continue }
            let now = ProcessInfo.processInfo.systemUptime
            if sent.isEmpty ? interrupted() : now >= nextSignal {
                let next = escalation[sent.count]
                kill(-process.processIdentifier, next.signal)
                sent.append(next.name)
                nextSignal = now + grace
            }
        }
        process.waitUntilExit()
        if !endsLine { context.output.write("\n") }
        return sent
    }

    private static func launch(_ process: Process, _ arguments: [String]) throws {
        do {
            try process.run()
        } catch {
            throw CommandError("cannot run program '\(arguments[0])' (\(process.executableURL?.path ?? "")): \(error.localizedDescription); is it still installed?")
        }
    }
}

/// Ctrl-C where nothing in vsh catches it: in a script or `vsh -c` it would end vsh and
/// leave the program running in its own group; at a terminal without line editing
/// (TERM=dumb) vsh ignores it, and the program would inherit that. While vsh waits for a
/// program a handler only notes it, so the program is stopped as at the prompt; the
/// previous disposition is put back after. At the prompt with line editing the editor's
/// handler is in place, and this does nothing.
enum UncaughtInterrupt {
    /// What Ctrl-C would have done to vsh, when it was noted here.
    enum Noted: Equatable {
        case no
        case wouldEndVsh
        case wasIgnored
    }

    nonisolated(unsafe) private static var pressed: sig_atomic_t = 0

    /// Runs `body`, noting SIGINT if vsh has no handler of its own; `body` asks whether
    /// it came since it last asked. Returns `body`'s result and what was noted.
    static func noting<T>(_ body: (_ pressed: () -> Bool) throws -> T) rethrows -> (T, Noted) {
        var previous = sigaction()
        sigaction(SIGINT, nil, &previous)
        let handler = previous.__sigaction_handler.sa_handler
        let ignored = handler.map { unsafeBitCast($0, to: Int.self) == 1 } ?? false  // SIG_IGN
        guard handler == nil || ignored else { return (try body { false }, .no) }  // SIG_DFL or SIG_IGN only
        pressed = 0
        var noting = sigaction()
        noting.__sigaction_handler.sa_handler = { _ in UncaughtInterrupt.pressed = 1 }
        sigemptyset(&noting.sa_mask)
        noting.sa_flags = SA_RESTART
        sigaction(SIGINT, &noting, nil)
        defer { sigaction(SIGINT, &previous, nil) }
        var noted = Noted.no
        let result = try body {
            guard pressed != 0 else { return false }
            pressed = 0
            noted = ignored ? .wasIgnored : .wouldEndVsh
            return true
        }
        return (result, noted)
    }
}
