import ArgumentParser
import VshCore
import VshStore

/// `save [TITLE]` keeps the recording just made; `save --draft ID [TITLE]` keeps an
/// unsaved draft from earlier. The title defaults to the transcript's first words.
package struct SaveCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "save", summary: "Save the recording just made (or a draft) as a transcript",
        spokenForms: [SpokenForm("save [recording]", runs: "save")],
        // Said, it saves the recording just made; typed, also a draft (`--draft ID`).
        applies: { $0.currentDraft != nil })

    @Option(help: ArgumentHelp("Save this unsaved draft ('drafts' lists them).", valueName: "id"))
    var draft: String?

    @Argument(help: ArgumentHelp("The title; the first words of the transcript if none.", valueName: "title"))
    var title: [String] = []

    package init() {}

    package func run(in context: CommandContext) throws {
        let session = context.session
        guard let chosen = try context.draft(draft) else {
            let waiting = try context.store.drafts().drafts
            if waiting.isEmpty {
                throw CommandError(session.lastRecordingID == nil
                    ? "nothing to save: no recording has been made" : "nothing to save: \(session.noCurrentRecording)")
            }
            throw CommandError("\(session.noCurrentRecording); \(counted(waiting.count, "unsaved draft")) from earlier: 'drafts' lists them, 'save --draft ID' keeps one")
        }
        let item = try context.store.save(chosen, title: title.isEmpty ? nil : title.joined(separator: " "))
        context.warn(context.store.takeNotices())
        if session.currentDraft?.id == item.id { session.currentDraft = nil }
        context.output.line("saved \(item.id): \(item.title.visible)")
    }
}
