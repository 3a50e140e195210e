import ArgumentParser
import VshCore
import VshStore
import VshTraining

/// `trash` lists what was deleted, newest first; `trash empty --yes` removes it for good.
/// Emptying asks for `--yes` rather than a y/N prompt: commands get no line reader, and a
/// flag works the same typed, in scripts and with `-c`. Said, "empty the trash" runs
/// `trash empty`, which says what `--yes` would remove: nothing spoken empties the trash,
/// since nothing, not even `undo`, brings it back.
package struct TrashCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "trash", summary: "List deleted transcripts and drafts; 'trash empty --yes' removes them for good",
        spokenForms: [
            SpokenForm("[show] [the] trash", runs: "trash"),
            SpokenForm("(empty [the] trash | trash empty)", runs: "trash empty"),
        ],
        arguments: [.values(["empty"])], destructiveWith: ["empty --yes"])

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case empty
    }

    @Argument(help: ArgumentHelp("'empty' removes everything in the trash for good.", valueName: "empty"))
    var action: Action?

    @Flag(help: "Confirm emptying the trash.")
    var yes = false

    @Flag(help: "List the trash as a JSON array (the shape is in FORMAT.md).")
    var json = false

    package init() {}

    package func validate() throws {
        if json && action != nil { throw ValidationError("--json goes with 'trash' alone (the listing)") }
    }

    package func run(in context: CommandContext) throws {
        let batches = context.store.trash()
        context.warn(context.store.takeNotices())
        let items = batches.reduce(0) { $0 + $1.items.count }, drafts = batches.reduce(0) { $0 + $1.drafts.count }
        let models = batches.reduce(0) { $0 + $1.directories.count }
        let count = items + drafts + models
        if action == .empty {
            guard count > 0 else { return context.output.line("The trash is already empty.") }
            guard yes else {
                let what = [items > 0 ? counted(items, "transcript") : nil, drafts > 0 ? counted(drafts, "draft") : nil,
                            models > 0 ? counted(models, "adapted speech model") : nil]
                throw CommandError("emptying the trash removes \(what.compactMap { $0 }.joined(separator: " and ")) for good; to do it, run 'trash empty --yes'")
            }
            let removed = try context.store.emptyTrash()
            context.confirm("removed \(removed) for good")
            return
        }
        let undoes = batches.first(where: \.isOwn) ?? batches.first
        if json { return Self.writeJSON(batches, undoes: undoes, in: context) }
        guard count > 0 else { return context.output.line("The trash is empty.") }
        for batch in batches {
            context.output.line(context.style.bold("Deleted \(batch.time)")
                + (batch == undoes ? context.style.dim("  ('undo' restores this)") : ""))
            for item in batch.items { context.output.line("  \(item.id)  \(item.title.visible)") }
            for draft in batch.drafts { context.output.line("  \(draft)  " + context.style.dim("(unsaved draft)")) }
            if batch.directories.contains(AdaptedModel.directoryName) {
                context.output.line("  the speech model adapted to your voice  " + context.style.dim("('train reset')"))
            }
        }
    }

    /// `trash --json`: one object per deletion, newest first (FORMAT.md, "JSON output").
    static func writeJSON(_ batches: [TranscriptStore.TrashBatch], undoes: TranscriptStore.TrashBatch?, in context: CommandContext) {
        context.writeJSON { json in
            json.listing { json in
                for batch in batches {
                    json.object { json in
                        json.field("batch", batch.name)
                        json.field("deleted", batch.time)
                        json.key("transcripts")
                        json.array { json in
                            for item in batch.items {
                                json.object { json in
                                    json.field("id", item.id)
                                    json.field("title", item.title)
                                }
                            }
                        }
                        json.field("drafts", strings: batch.drafts)
                        json.field("speech_model", batch.directories.contains(AdaptedModel.directoryName))
                        json.field("process", integer: batch.origin.map { Int($0.process) })
                        json.field("terminal", batch.origin?.terminal)
                        json.field("this_session", batch.isOwn)
                        json.field("undo_restores", batch == undoes)
                    }
                }
            }
        }
    }
}
