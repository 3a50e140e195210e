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
        try launch(process, arguments)
        let group = DispatchGroup()
        nonisolated(unsafe) var errors = Data()
        DispatchQueue.global().async(group: group) { errors = error.fileHandleForReading.readDataToEndOfFile() }
        let signalsSent = waitShowingOutput(of: process, from: output.fileHandleForReading.fileDescriptor, in: context)
        group.wait()
        if !errors.isEmpty { context.error.write(String(decoding: errors, as: UTF8.self) + (errors.last == 10 ? "" : "\n")) }
        let name = arguments[0]
        if let last = signalsSent.last {
            let escalated = signalsSent.count == 1 ? " (SIGINT)"
                : ": it went on after \(signalsSent.dropLast().joined(separator: " and ")), so vsh sent \(last)"
            throw CommandError("program '\(name)' was stopped by Ctrl-C\(escalated)")
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
    /// Ctrl-C (`Session.interrupted`) between reads; returns the signals sent to stop it.
    /// Output that does not end a line is ended, so the prompt starts on its own line.
    private static func waitShowingOutput(of process: Process, from output: Int32, in context: CommandContext) -> [String] {
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
            if sent.isEmpty ? context.session.interrupted() : now >= nextSignal {
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
