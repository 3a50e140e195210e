import ArgumentParser
import VshCore
import VshStore

/// `drafts`: recordings that were never saved (a crash, or vsh left mid-recording), with
/// how to keep or drop one.
package struct DraftsCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "drafts", summary: "List unsaved recordings; 'save --draft ID' keeps one",
        spokenForms: [SpokenForm("[show] drafts", runs: "drafts")])

    @Flag(help: "Print the drafts as a JSON array (the shape is in FORMAT.md).")
    var json = false

    package init() {}

    package func run(in context: CommandContext) throws {
        let (drafts, warnings) = try context.store.drafts()
        context.warn(warnings)
        if json {
            return context.writeJSON { json in
                json.listing { json in
                    for draft in drafts {
                        json.object { json in
                            json.field("id", draft.id)
                            json.field("created", draft.created.iso)
                            json.field("duration", draft.duration)
                            json.field("quality", draft.quality.rawValue)
                            json.field("sample_rate", integer: draft.sampleRate)
                            json.field("source", draft.source)
                            json.field("transcript", draft.transcript)
                            json.field("audio", draft.audioPath)
                        }
                    }
                }
            }
        }
        guard !drafts.isEmpty else { return context.output.line("No unsaved drafts.") }
        let offsets = LocalOffsets(context.store.timeZone)
        for draft in drafts {
            let c = offsets.civil(draft.created)
            let words = draft.transcript.split(whereSeparator: \.isWhitespace)
            let pending = Self.pendingNote(draft).map(context.style.dim)
            let text = words.isEmpty ? (pending ?? context.style.dim("(no transcript)"))
                : words.prefix(8).joined(separator: " ") + (words.count > 8 ? "…" : "") + (pending.map { " " + $0 } ?? "")
            context.output.line("\(draft.id)  \(DayNames.date(c)) \(pad(c.hour)):\(pad(c.minute))  \(Elapsed.text(draft.duration))  \(text)")
        }
        context.output.line(context.style.dim("'save --draft ID [TITLE]' keeps one; 'discard ID' moves it to the trash."))
    }

    /// For a draft whose recording was cut short, what `save` will do about its words
    /// (`SaveCommand.transcribed`); nil for one written down to its end.
    package static func pendingNote(_ draft: TranscriptStore.Draft) -> String? {
        draft.hasUntranscribedAudio ? "(not all written down yet: 'save --draft \(draft.id)' transcribes it)" : nil
    }
}
