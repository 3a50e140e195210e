import ArgumentParser
import Foundation
import VshAudio
import VshCore
import VshVoice
import VshCommands
import VshListening
import VshTraining

/// `vsh listen --from FILE`: the whole voice path over a file, as if it were the
/// microphone; prints one line per utterance and runs nothing.
struct ListenSubcommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Run the voice path over an audio file and print what each utterance would do.")

    @OptionGroup var tool: ToolOptions
    @ParentCommand var root: VshMain

    @Option(name: .long, help: ArgumentHelp("Audio file: WAV, FLAC, Ogg or 16 kHz 16-bit .raw.", valueName: "file"))
    var from: String

    @Flag(help: "One JSON object per utterance: text, command, confidence, start, end, latency, alternatives, features, early.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Recognise this JSGF grammar instead of vsh's commands; an accepted phrase is its own command.", valueName: "file.gram"))
    var grammar: String?

    @Option(name: .long, help: ArgumentHelp("Reject utterances below this confidence (0…1; default from voice.threshold).", valueName: "t"))
    var threshold: Double?

    @Flag(name: .customLong("real-time"), help: "Play the file at the pace of real time, as a microphone would; with --json each line also says when it was decided (\"decided_at\", seconds into the file).")
    var realTime = false

    @Flag(help: "With --json, also the input level every 25 ms: {\"level\": dBFS, \"time\": seconds}, for a meter.")
    var levels = false

    func validate() throws {
        if levels && !json { throw ValidationError("--levels goes with --json") }
        if let threshold, !(0...1).contains(threshold) {
            throw ValidationError("--threshold must be a number from 0 to 1, not \(threshold)")
        }
    }

    /// voice.threshold; for vsh's own commands, raised to the person's calibrated one
    /// while their adapted model is in use (a `--grammar` of one's own was not calibrated).
    func defaultThreshold(_ app: AppContext) -> Double {
        grammar != nil ? app.settings.voiceThreshold
            : AdaptedModel.commandThreshold(configured: app.settings.voiceThreshold, use: app.speechModel.adaptation)
    }

    func run() throws {
        let app = try tool.app(root: root)
        let path = app.voicePath
        let grammar = try app.commandGrammar(file: self.grammar)
        let threshold = self.threshold ?? defaultThreshold(app)
        let recognizer = try path.recognizer(for: grammar)
        let out = FileDescriptorSink.standardOutput
        let file = try FileAudioSource(path: from)
        let paced = realTime ? PacedSource(file) : nil
        let input: AudioSource = paced ?? file
        let source: AudioSource = levels ? LevelTap(input) { level, time in
            out.line("{\"level\": \(JSON.number((level * 10).rounded() / 10)), \"time\": \(JSON.number(time))}")
        } : input
        let pipeline = path.commandPipeline(source: source, recognizer: recognizer, isFinal: grammar.isFinal)
        try pipeline.run { event in
            guard case .utterance(let u) = event else { return true }
            let line = u.command(in: grammar, threshold: threshold)?.line
            if json, let paced {
                out.line(String(Self.json(u, line: line).dropLast()) + ", \"decided_at\": \(JSON.number(paced.now))}")
            } else {
                out.line(json ? Self.json(u, line: line) : Self.text(u, line: line))
            }
            return true
        }
    }

    /// `line`: the command it runs, nil when rejected.
    static func text(_ u: Utterance, line: String?) -> String {
        let time = String(format: "%6.2f-%6.2f", u.start, u.end)
        let confidence = String(format: "%.2f", u.recognition.confidence)
        if let line { return "\(time)  \(line)  (heard \"\(u.recognition.text)\", confidence \(confidence))" }
        return "\(time)  rejected \"\(u.recognition.text)\" (confidence \(confidence))"
    }

    static func json(_ u: Utterance, line: String?) -> String {
        let command = line.map(JSON.string) ?? "null"
        return "{\"text\": \(JSON.string(u.recognition.text)), \"command\": \(command), "
            + "\"confidence\": \(JSON.number(u.recognition.confidence)), "
            + "\"start\": \(JSON.number(u.start)), \"end\": \(JSON.number(u.end)), "
            + "\"latency\": \(JSON.number(u.latency))" + details(u.recognition)
            + ", \"early\": \(u.early), \"continues_early\": \(u.continuesEarly)}"
    }

    /// Appended after the fields above (their order and meaning stay): the other phrases
    /// that fit ("did you mean"), and what the confidence was computed from.
    static func details(_ r: Recognition) -> String {
        let alternatives = r.alternatives.map { JSON.string($0.joined(separator: " ")) }.joined(separator: ", ")
        var out = ", \"alternatives\": [\(alternatives)]"
        if let f = r.features {
            out += ", \"features\": {\"frames\": \(f.frames), \"word_frames\": \(f.wordFrames), \"phones\": \(f.phones), "
                + "\"words\": \(f.words), \"runner_up_gap\": \(f.runnerUpGap.map(JSON.number) ?? "null"), "
                + "\"other_word\": \(f.otherWord.map(JSON.string) ?? "null"), "
                + "\"speech_outside_words\": \(f.speechOutsideWords), "
                + "\"weakest_voicing\": \((f.weakestVoicing * 1000).rounded() / 1000)}"
        }
        return out
    }
}
