import ArgumentParser
import VshCore
import VshStore
import VshTraining

/// `undo`: puts back what the last `delete` or `discard` moved to the trash.
package struct UndoCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "undo", summary: "Bring back what the last delete or discard moved to the trash",
        spokenForms: [SpokenForm("undo", runs: "undo")],
        // Said, it takes back a deletion of this session; typed, any.
        applies: { $0.store.canUndoOwnDeletion })

    package init() {}

    package func run(in context: CommandContext) throws {
        let restored = try context.store.undo()
        context.warn(context.store.takeNotices())
        var parts: [String] = []
        if !restored.items.isEmpty {
            parts.append("\(counted(restored.items.count, "transcript")) (\(restored.items.joined(separator: ", ")))")
        }
        if !restored.drafts.isEmpty {
            parts.append("\(counted(restored.drafts.count, "draft")) (\(restored.drafts.joined(separator: ", ")))")
        }
        if restored.directories.contains(TrainingTakes.modelName) {
            parts.append("the speech model adapted to your voice (in use again)")
        }
        context.output.line("restored " + (parts.isEmpty ? "nothing" : parts.joined(separator: " and ")))
    }
}
