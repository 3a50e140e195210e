import ArgumentParser
import VshCore
import VshStore
import VshVoice

/// `save [TITLE]` keeps the recording just made; `save --draft ID [TITLE]` keeps an
/// unsaved draft from earlier. The title defaults to the transcript's first words.
package struct SaveCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "save", summary: "Save the recording just made (or a draft) as a transcript",
        spokenForms: [SpokenForm("save [recording]", runs: "save")],
        // Said, it saves the recording just made; typed, also a draft (`--draft ID`).
        unavailable: { $0.currentDraft == nil ? "there is no recording to save; 'record' first" : nil })

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
        let item = try context.store.save(
            try Self.transcribed(chosen, context), title: title.isEmpty ? nil : title.joined(separator: " "))
        context.warn(context.store.takeNotices())
        if session.currentDraft?.id == item.id { session.currentDraft = nil }
        context.output.line("saved \(item.id): \(item.title.visible)")
    }

    /// A draft whose recording was cut short has audio past its words: they are written
    /// down first, so that `search` finds it. When they cannot be (no speech model), it is
    /// saved with the words it has, and the warning says so; nothing is lost.
    static func transcribed(_ draft: TranscriptStore.Draft, _ context: CommandContext) throws -> TranscriptStore.Draft {
        guard draft.hasUntranscribedAudio, draft.id != context.session.currentDraft?.id else { return draft }
        guard let voice = context.session.voice else {
            context.warn("the last \(Elapsed.text(draft.duration - draft.transcribedSeconds)) of \(draft.id) were recorded after its words were written down, and vsh has no audio to transcribe them with (--no-voice); it is saved with the words it has")
            return draft
        }
        context.step("transcribing the recovered audio of \(draft.id) (\(Elapsed.text(draft.duration)))…")
        defer { context.clearStatus() }
        do {
            return try Recorder(store: context.store, voice: voice).transcribeRest(of: draft)
        } catch {
            context.warn("the recovered audio of \(draft.id) was not transcribed (\(error)); it is saved with the words it has")
            return draft
        }
    }
}
