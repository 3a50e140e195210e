import ArgumentParser
import VshAudioFiles
import VshCore
import VshStore

/// `show N|ID [--json]`: one transcript: its header, its text, and a sparkline of its
/// audio's loudness.
package struct ShowCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "show", summary: "Show a transcript, its details and a sketch of its audio",
        spokenForms: [SpokenForm("show [transcript] [number] <number>", runs: "show $1")])

    @Argument(help: ArgumentHelp("A number from the last list or search, or an id.", valueName: "number|id"))
    var transcript: String

    @Flag(help: "Print the transcript as a JSON object (the shape is in FORMAT.md).")
    var json = false

    package init() {}

    package func run(in context: CommandContext) throws {
        let item = try context.resolveItem(transcript)
        if json { return context.writeJSON { CommandContext.writeJSON(item, number: nil, to: &$0) } }
        let out = context.output, style = context.style
        let offsets = LocalOffsets(context.store.timeZone)
        let c = offsets.civil(item.created)
        out.line(style.bold(item.title.visible))
        out.line("Id:       \(item.id)")
        out.line("Created:  \(DayNames.date(c)) \(pad(c.hour)):\(pad(c.minute))")
        var details = [item.quality] + [item.sampleRate.map { "\($0) Hz" }, item.source].compactMap { $0 }
        details.removeAll { $0.isEmpty }
        out.line("Duration: \(Elapsed.text(item.duration))" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"))
        let placeholder = style.dim("(no words were recognised)")
        guard let audio = item.audioPath, item.hasAudio else {
            out.line("Audio:    " + style.yellow(item.audioPath.map { "missing (\($0))" } ?? "none"))
            out.line()
            out.line(item.transcript.isEmpty ? placeholder : item.transcript)
            return
        }
        out.line("Audio:    \(audio)" + (SealedAudio.isSealed(path: audio) ? " (encrypted)" : ""))
        out.line()
        out.line(item.transcript.isEmpty ? placeholder : item.transcript)
        out.line()
        out.line(Self.sparkline(audio))
    }

    static let bars = Array("▁▂▃▄▅▆▇█")

    /// The loudest moment of each of about 60 stretches of the audio, as block characters
    /// scaled to the loudest of all.
    /// An encrypted file that cannot be read (no key, another key, damaged) gets the
    /// reason instead.
    static func sparkline(_ path: String, columns: Int = 60) -> String {
        let audio: AudioBytes
        do {
            audio = try AudioBytes(path: path)
        } catch {
            return "(no sketch: \(error))"
        }
        guard let wave = WaveFile(audio) else { return "(the audio is not a WAV file vsh can read)" }
        guard wave.dataBytes >= 2 else { return "(the audio is empty)" }
        let peaks: [Double]
        do {
            guard let found = try wave.peaks(audio, columns: min(columns, wave.dataBytes / 2)) else {
                return "(no sketch: the audio is not 16-bit PCM)"
            }
            peaks = found
        } catch {
            return "(no sketch: \(error))"
        }
        let loudest = peaks.max() ?? 0
        return String(peaks.map { peak in
            loudest < 1.0 / 1000 ? bars[0] : bars[min(bars.count - 1, Int(peak / loudest * Double(bars.count - 1) + 0.5))]
        })
    }
}
