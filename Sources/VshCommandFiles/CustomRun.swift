import Foundation
import VshCore

/// A custom command with its slot values, ready to run its actions in order.
package struct CustomRun: RunnableCommand {
    let command: CustomCommand
    /// Slot name → value, in slot order.
    let values: [(String, String)]

    /// How deep `run:` lines may call custom commands that call others.
    static let maximumDepth = 8

    package func run(in context: CommandContext) throws {
        let state = context.session.custom
        switch command.action {
        case .keyword(let kind):
            try runKeyword(kind, in: context)
        case .steps(let steps):
            guard state.depth < Self.maximumDepth else {
                throw CommandError("'\(command.name)' and the commands it runs call each other without end (\(state.depth) deep); check the run: lines in \(command.file)")
            }
            state.depth += 1
            defer { state.depth -= 1 }
            for step in steps {
                switch step {
                case .line(let template):
                    try CustomRun.execute(SlotReferences.fill(template, values, transform: Words.quote), in: context)
                case .program(let call, let wait):
                    try ProgramRunner.run(call, values: values, wait: wait, in: context)
                }
            }
        }
    }

    private func runKeyword(_ kind: CustomCommand.KeywordKind, in context: CommandContext) throws {
        let state = context.session.custom
        switch kind {
        case .add:
            state.keywords.add(command: command.name, digits: values.map(\.1).joined())
        case .back:
            try state.keywords.back()
        case .reset:
            state.keywords.reset()
        case .done:
            let record = try state.keywords.finished()
            try OutputsFile(store: context.session.paths.store).append(record)
            state.keywords.reset()
            context.output.line(record.json)
        }
    }

    /// Runs a vsh command line from a `run:` action, with the caller's context.
    package static func execute(_ line: String, in context: CommandContext) throws {
        for words in try Words.splitCommands(line) where !context.session.exitRequested {
            let registry = context.session.registry
            guard let entry = registry.lookup(words[0]) else {
                var message = "there is no command '\(words[0])' (in '\(line)')"
                if let near = registry.suggestion(for: words[0]) { message += "; did you mean '\(near)'?" }
                throw CommandError(message)
            }
            switch entry.parse(Array(words.dropFirst())) {
            case .help(let text):
                context.output.write(text.hasSuffix("\n") ? text : text + "\n")
            case .failure(let message):
                throw CommandError("\(words[0]): \(message)")
            case .run(var runnable):
                try runnable.run(in: context)
            }
        }
    }
}

/// Runs programs from `exec:` and `start:` with an argument list: no shell, so no slot
/// value can become a command. Slot values are also in `VSH_SLOT_<name>`.
enum ProgramRunner {
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
        // The program's output appears as it comes.
        let reader = output.fileHandleForReading
        while case let chunk = reader.availableData, !chunk.isEmpty {
            context.output.write(String(decoding: chunk, as: UTF8.self))
        }
        process.waitUntilExit()
        group.wait()
        if !errors.isEmpty { context.error.write(String(decoding: errors, as: UTF8.self)) }
        let name = arguments[0]
        switch process.terminationReason {
        case .exit where process.terminationStatus != 0:
            throw CommandError("program '\(name)' failed (exit status \(process.terminationStatus))")
        case .uncaughtSignal:
            throw CommandError("program '\(name)' was stopped by signal \(process.terminationStatus)")
        default:
            return
        }
    }

    private static func launch(_ process: Process, _ arguments: [String]) throws {
        do {
            try process.run()
        } catch {
            throw CommandError("cannot run program '\(arguments[0])' (\(process.executableURL?.path ?? "")): \(error.localizedDescription); is it still installed?")
        }
    }
}
