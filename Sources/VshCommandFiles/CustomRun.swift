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
