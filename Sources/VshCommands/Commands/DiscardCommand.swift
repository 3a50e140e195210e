import ArgumentParser
import VshCore
import VshStore

/// `discard [ID]`: moves the recording just made (or the draft ID) to the trash.
package struct DiscardCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "discard", summary: "Move the recording just made, or a draft, to the trash",
        spokenForms: [SpokenForm("discard [recording]", runs: "discard")],
        destructive: true, unavailable: { $0.currentDraft == nil ? "there is no recording to discard" : nil })

    @Argument(help: ArgumentHelp("The draft's id ('drafts' lists them).", valueName: "id"))
    var id: String?

    package init() {}

    package func run(in context: CommandContext) throws {
        let session = context.session
        guard let chosen = try context.draft(id) else {
            throw CommandError("\(session.noCurrentRecording); give a draft's id ('drafts' lists them)")
        }
        try context.store.discard(chosen)
        context.warn(context.store.takeNotices())
        if session.currentDraft?.id == chosen.id { session.currentDraft = nil }
        context.confirm("discarded \(chosen.id); 'undo' brings it back")
    }
}
