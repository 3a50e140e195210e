import ArgumentParser
import VshCore
import VshStore
import VshTraining

/// `undo`: puts back what this session's last `delete` or `discard` moved to the trash.
/// When this session has none left there, the last deletion is another vsh's: `undo` says
/// what it would restore, when and by which vsh it was deleted, and asks at the prompt; a
/// script is refused unless it says `--yes`.
package struct UndoCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "undo", summary: "Bring back what this session's last delete or discard moved to the trash",
        spokenForms: [SpokenForm("undo", runs: "undo")],
        // Said, it takes back a deletion of this session; typed, any (asking first).
        unavailable: { $0.store.canUndoOwnDeletion ? nil : "there is nothing to undo" })

    @Flag(help: "Restore the last deletion even when another vsh made it, without asking.")
    var yes = false

    package init() {}

    package func run(in context: CommandContext) throws {
        guard let batch = context.store.lastDeletion() else { throw CommandError("nothing to undo: the trash is empty") }
        context.warn(context.store.takeNotices())
        if batch.isOwn || yes { return try Self.restore(batch, in: context) }
        try context.store.requireWritable()
        let what = "the last deletion was made by another vsh: undo would restore \(Self.contents(of: batch)), "
            + "deleted \(batch.time) by \(Self.describe(batch.origin))"
        guard context.interactive else { throw CommandError(what + "; to restore it, run 'undo --yes'") }
        context.ask(what + ". Restore it?", by: Self.info.name, declined: "nothing restored") { answering in
            try Self.restore(batch, in: answering)
        }
    }

    private static func restore(_ batch: TranscriptStore.TrashBatch, in context: CommandContext) throws {
        let restored = try context.store.undo(batch.name)
        context.warn(context.store.takeNotices())
        var parts: [String] = []
        if !restored.items.isEmpty {
            parts.append("\(counted(restored.items.count, "transcript")) (\(restored.items.joined(separator: ", ")))")
        }
        if !restored.drafts.isEmpty {
            parts.append("\(counted(restored.drafts.count, "draft")) (\(restored.drafts.joined(separator: ", ")))")
        }
        if restored.directories.contains(AdaptedModel.directoryName) {
            parts.append("the speech model adapted to your voice (in use again)")
        }
        context.output.line("restored " + (parts.isEmpty ? "nothing" : parts.joined(separator: " and ")))
    }

    /// What a batch holds, by title: `'Buy milk' (20261121-jg54) and draft 20261121-jh00`.
    static func contents(of batch: TranscriptStore.TrashBatch) -> String {
        var parts = batch.items.prefix(3).map { "'\($0.title.visible)' (\($0.id))" }
        if batch.items.count > 3 { parts.append("\(batch.items.count - 3) more transcripts") }
        if !batch.drafts.isEmpty {
            parts.append(batch.drafts.count == 1 ? "draft \(batch.drafts[0])" : "\(batch.drafts.count) drafts")
        }
        if batch.directories.contains(AdaptedModel.directoryName) { parts.append("the speech model adapted to your voice") }
        return parts.isEmpty ? "nothing" : parts.listed("and")
    }

    /// Which vsh deleted it: `vsh process 4711 on /dev/pts/3`.
    static func describe(_ origin: TranscriptStore.Origin?) -> String {
        guard let origin else { return "a vsh that did not record which (an older vsh, or another tool)" }
        return "vsh process \(origin.process) " + (origin.terminal.map { "on \($0)" } ?? "without a terminal")
    }
}
