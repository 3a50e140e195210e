import ArgumentParser
import Foundation
import VshCore
import VshStore
import VshVoice

/// `record [--title T] [--from FILE]`: records a note with a live status line; the
/// result becomes the current, unsaved recording (a draft until `save`).
package struct RecordCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "record", summary: "Record a note (stop with Enter, Ctrl-C or \"stop recording\")",
        spokenForms: [SpokenForm("record", runs: "record"), SpokenForm("start recording", runs: "record")])

    @Option(help: ArgumentHelp("The title to save it under (default: its first words).", valueName: "title"))
    var title: String?

    @Option(help: ArgumentHelp("Record this audio file instead of the microphone, to its end.", valueName: "file"))
    var from: String?

    package init() {}

    package func run(in context: CommandContext) throws {
        let session = context.session
        guard let voice = session.voice else {
            throw CommandError("recording needs audio, and vsh was started with --no-voice; start it without that option")
        }
        if let previous = session.currentDraft {
            context.output.line("The last recording was not saved; it stays in drafts as \(previous.id) ('drafts' lists them).")
            session.currentDraft = nil
        }
        let quality = session.settings.quality
        let recorder = Recorder(store: session.store, voice: voice)
        // Said once the input is open: a microphone that fails is the only thing said.
        let result = try recorder.record(file: from, quality: quality, shouldStop: session.stopRequest, started: {
            if context.interactive {
                context.output.line("Recording at \(quality.rawValue) quality; press Enter, Ctrl-C or say \"stop recording\" to stop.")
            }
        }) { status in
            context.status(Self.statusLine(status, typed: context.typed))
        }
        context.clearStatus()
        let draft = result.draft
        session.currentDraft = draft
        let transcript = draft.transcript.isEmpty ? "(no words recognised)" : draft.transcript
        context.output.line(String(format: "Recorded %.1f s: ", draft.duration) + transcript)
        for note in result.notes { context.warn(note) }
        if result.overruns > 0 {
            context.error.line("warning: the microphone overran \(result.overruns) time\(result.overruns == 1 ? "" : "s") "
                + "(the computer was too busy to take its audio in time), so the recording has short gaps")
        }
        var kept = "Not saved yet: 'save [TITLE]' keeps it (it is draft \(draft.id) until then)."
        if let title {
            let item = try session.store.save(draft, title: title)
            session.currentDraft = nil
            kept = "saved \(item.id): \(item.title.visible)"
        }
        if case .failed(let reason) = result.ending {
            let keptNote = title == nil
                ? "the \(String(format: "%.1f", draft.duration)) s recorded until then are kept: 'save [TITLE]' keeps them (draft \(draft.id))"
                : "the \(String(format: "%.1f", draft.duration)) s recorded until then are \(kept)"
            throw CommandError("recording stopped early: \(reason)\n\(keptNote)")
        }
        context.output.line(kept)
    }

    /// `● 00:12  ██████······  -23 dB  the words so far`; a file's says how far in it is:
    /// `● 01:30 of 05:00 30%  ██████······  -23 dB  the words so far`. While something is
    /// typed (`stop` before its Enter), that in place of the words: `typed: sto`.
    static func statusLine(_ status: Recorder.Status, typed: String = "") -> String {
        let level = status.level.isFinite ? String(format: "%4.0f dB", status.level) : "  -∞ dB"
        var words = typed.isEmpty ? status.words : "typed: " + typed
        if words.count > 50 { words = "…" + words.suffix(49) }
        var position = "● " + clock(status.elapsed)
        if let length = status.length, length > 0 {
            position += " of \(clock(length)) " + String(format: "%.0f%%", min(100, 100 * status.elapsed / length))
        }
        return position + "  " + LevelMeter.bar(status.level, width: 12) + "  " + level + "  " + words
    }

    /// `mm:ss`, or `h:mm:ss` from an hour on.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds)
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%02d:%02d", s / 60, s % 60)
    }
}

/// `stop`: what ends a recording when typed while it runs; at the prompt there is
/// nothing to stop.
package struct StopCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "stop", summary: "Stop recording or playing (type it while a recording runs)",
        spokenForms: [SpokenForm("stop", runs: "stop"), SpokenForm("stop recording", runs: "stop")])

    package init() {}

    package func run(in context: CommandContext) throws {
        context.output.line("Nothing is recording or playing.")
    }
}
