import ArgumentParser
import Foundation
import VshAudio
import VshCore
import VshVoice
import VshCommands
import VshListening
import VshTraining

/// `vsh listen --from FILE`: the whole voice pipeline over a file, as if it were the
/// microphone, decided as the prompt decides; prints one line per utterance and runs
/// nothing.
struct ListenSubcommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Run the voice pipeline over an audio file and print what each utterance would do.")

    @OptionGroup var tool: ToolOptions
    @ParentCommand var root: VshMain

    @Option(name: .long, help: ArgumentHelp("Audio file: WAV, FLAC, Ogg, MP3 or 16 kHz 16-bit .raw.", valueName: "file"), completion: .file())
    var from: String

    @Flag(help: "One JSON object per utterance: text, command, confidence, start, end, latency, alternatives, features, early, decision (run, confirm, choose, answer, wake, ignore) and what stopped it.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Recognise this JSGF grammar instead of vsh's commands; an accepted phrase is its own command.", valueName: "file.gram"),
            completion: .file(extensions: ["gram"]))
    var grammar: String?

    @Option(name: .long, help: ArgumentHelp("Reject utterances below this confidence (0…1; default from voice.threshold).", valueName: "t"))
    var threshold: Double?

    @Option(name: .long, help: ArgumentHelp("When commands are taken, as at the prompt: always, wake (after the wake phrase) or key (default from voice.attention; key needs the prompt's terminal, so here it is always).", valueName: "mode"))
    var attention: Attention?

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

    func run() throws {
        let app = try tool.app(root: root)
        let factory = app.voiceFactory
        let (grammar, decide, recognizer) = try self.reader(app)
        if let warning = recognizer.warning { FileDescriptorSink.standardError.line("warning: " + warning) }
        // The gate of the model the recogniser loaded, made once; --threshold sets the
        // confidence a command needs, the person's calibration notwithstanding.
        var gate = factory.gate(for: recognizer)
        if let threshold {
            gate.threshold = threshold
            gate.rejectBelow = min(gate.rejectBelow, threshold)
        }
        let out = FileDescriptorSink.standardOutput
        let file = try FileAudioSource(path: from)
        let paced = realTime ? PacedSource(file) : nil
        let input: AudioSource = paced ?? file
        let source: AudioSource = levels ? LevelTap(input) { level, time in
            out.line(JSONWriter.text { $0.object { $0.field("level", (level * 10).rounded() / 10); $0.field("time", time) } })
        } : input
        let pipeline = factory.commandPipeline(source: source, recognizer: recognizer, ending: grammar.ending(of:))
        var heard = false
        try pipeline.run { event in
            guard case .utterance(let u) = event else { return true }
            heard = true
            let verdict = decide(u, gate)
            out.line(json ? Self.json(u, verdict, gate: gate, decidedAt: paced?.now) : Self.text(u, verdict))
            return true
        }
        if !heard {
            // Nothing printed is no answer: say why, as transcribe does (status stays 0,
            // the file was read; stdout stays one object per utterance for --json).
            FileDescriptorSink.standardError.line("\(from): no speech was found")
        }
    }

    /// How utterances are read. Without `--grammar`, exactly as at the prompt: its grammar
    /// (the commands, the answers, the wake phrase), its decisions and its state as a
    /// fresh session has them (a question asked is answered by what follows; a destructive
    /// command asks first), with time told by the file. With `--grammar`, each phrase of the
    /// file is its own command, kept at the threshold.
    func reader(_ app: AppContext) throws
        -> (grammar: CommandGrammar, decide: (Utterance, Gate) -> Verdict, recognizer: CommandRecognizer) {
        if let file = grammar {
            let grammar = try app.grammar(file: file)
            return (grammar, { u, gate in
                let (decision, command) = u.judged(in: grammar, by: gate)
                guard let command else { return Verdict(.ignore, stoppedBy: decision.stoppedBy ?? .confidence) }
                return Verdict(.run, line: command.line)
            }, try app.voiceFactory.recognizer(for: grammar))
        }
        var settings = app.settings
        replaceUnsayableWakePhrase(&settings, warn: FileDescriptorSink.standardError.line)
        let registry = app.registry()
        // Every command is heard as itself; what applies is that of a fresh session:
        // nothing recorded, nothing deleted, no keyword command listening, `delete` only
        // where the store keeps a numbered listing.
        let session = Session(
            registry: registry, settings: app.settings, paths: app.paths,
            history: CommandHistory(path: app.paths.historyFile, limit: 0))
        let wakePhrase = settings.wakePhrase
        var options = VoicePrompt.Options(settings: settings)
        options.attention = attention ?? options.attention
        if options.attention == .key {
            FileDescriptorSink.standardError.line(
                "warning: attention \"key\" listens after a key at the prompt's terminal, which vsh listen has not; using \"always\"")
            options.attention = .always
        }
        let afterWake = options.attention == .wake
        let grammar = try (try? PromptGrammar(registry: registry, wakePhrase: wakePhrase, commandsAfterWake: afterWake))
            ?? PromptGrammar(registry: registry, wakePhrase: nil)
        let voice = VoicePrompt.deciding(options: options, session: session)
        var now = 0.0
        voice.clock = { now }
        // Asleep or awake as the utterance begins, by the file's time.
        let recognizer = try app.voiceFactory.recognizer(for: grammar) { start in voice.awaitsWakePhrase(at: start) }
        return (grammar, { u, gate in
            now = u.segment.end
            voice.post(.heard(u, grammar, gate))
            _ = voice.takeActions()
            return voice.lastVerdict ?? Verdict(.ignore, stoppedBy: .noCommand)
        }, recognizer)
    }

    static func text(_ u: Utterance, _ verdict: Verdict) -> String {
        let time = String(format: "%6.2f-%6.2f", u.segment.start, u.segment.end)
        var heard = "heard \"\(u.recognition.text)\", confidence " + String(format: "%.2f", u.recognition.confidence)
        if let alone = u.recognition.phraseAlone.first {
            heard += "; again with the wake phrase alone: \"\(alone.text)\", " + String(format: "%.2f", alone.confidence)
        }
        if let after = u.recognition.afterPhrase.first {
            heard += "; after the phrase, on its own: \"\(after.text)\", " + String(format: "%.2f", after.confidence)
        }
        switch verdict.kind {
        case .run: return "\(time)  \(verdict.line ?? "")  (\(heard))"
        case .confirm: return "\(time)  \(verdict.line ?? "")  (asks first; \(heard))"
        case .choose: return "\(time)  did you mean \(verdict.line ?? "")?  (\(heard))"
        case .answer: return "\(time)  an answer  (\(heard))"
        case .wake: return "\(time)  wakes  (\(heard))"
        case .ignore:
            return "\(time)  rejected \"\(u.recognition.text)\" (" + String(format: "confidence %.2f", u.recognition.confidence)
                + (verdict.stoppedBy.map { ", \($0.rawValue)" } ?? "")
                + (verdict.unheardNote.map { "; " + $0 } ?? "")
                + (verdict.missingWord.isEmpty ? "" : "; said without " + verdict.missingWord.map { "\"\($0)\"" }.listed("or")
                    + " before it")
                + (verdict.missingNextWord.isEmpty ? "" : "; said without " + Self.examples(verdict.missingNextWord) + " after it")
                + ")"
        }
    }

    /// `words` quoted, three at most ("one", "two", "three" or another): a number said
    /// after "play" could be any of a hundred.
    static func examples(_ words: [String]) -> String {
        let quoted = words.prefix(3).map { "\"\($0)\"" }
        return words.count > 3 ? quoted.joined(separator: ", ") + " or another" : quoted.listed("or")
    }

    /// One utterance as one JSON object, its fields in this order (bench/lib/vsh.py reads
    /// them): `command` is what it runs, or asks to confirm; `decision` says which, or what
    /// else; `missing_word`, for a slot heard without its carrier, the words that would
    /// have made it a command; `missing_next_word`, the same for a carrier heard without
    /// what follows it; `unheard`, the words of a phrase the grammar put in; `decided_at`
    /// (with --real-time) when, in seconds into the file.
    static func json(_ u: Utterance, _ verdict: Verdict, gate: Gate, decidedAt: Double? = nil) -> String {
        JSONWriter.text { json in
            json.object { json in
                let r = u.recognition
                json.field("text", r.text)
                json.field("command", [.run, .confirm].contains(verdict.kind) ? verdict.line : nil)
                json.field("confidence", r.confidence)
                json.field("start", u.segment.start)
                json.field("end", u.segment.end)
                json.field("latency", u.latency)
                json.field("alternatives", strings: r.alternatives.map { $0.joined(separator: " ") })
                if let f = r.features {
                    json.key("features")
                    json.object { json in
                        json.field("frames", integer: f.frames)
                        json.field("word_frames", integer: f.wordFrames)
                        json.field("phones", integer: f.phones)
                        json.field("words", integer: f.words)
                        json.field("runner_up_gap", f.runnerUpGap)
                        json.field("other_word", f.otherWord)
                        json.field("speech_outside_words", integer: f.speechOutsideWords)
                        json.field("weakest_voicing", (f.weakestVoicing * 1000).rounded() / 1000)
                        json.field("speaker_score", f.speakerScore.map { ($0 * 1000).rounded() / 1000 })
                        json.field("shortest_word", f.shortestWord.map { ($0 * 100).rounded() / 100 })
                        json.field("weakest_word", f.weakestWord)
                        json.field("weakest_word_ratio", f.weakestWordRatio.map { ($0 * 10).rounded() / 10 })
                        json.field("strongest_word_ratio", f.strongestWordRatio.map { ($0 * 10).rounded() / 10 })
                        json.field("weakest_hiss", f.weakestHiss.map { ($0 * 1000).rounded() / 1000 })
                        json.field("syllable_dip", f.syllableDip.map { ($0 * 10).rounded() / 10 })
                        json.field("hiss_in_voice", integer: f.hissInVoice)
                        json.field("hiss_before", integer: f.hissBefore)
                        json.field("left_out_reading", f.leftOutReading?.joined(separator: " "))
                        json.field("left_out_gap", f.leftOutGap)
                    }
                }
                if let alone = r.phraseAlone.first {
                    // Asleep, what the words that began with the wake phrase were heard as
                    // with the phrase alone, and the gate's check that stopped that, if any.
                    json.key("phrase_alone")
                    json.object { json in
                        json.field("text", alone.text)
                        json.field("confidence", alone.confidence)
                        json.field("stopped_by", gate.judge(alone, isPhrase: !alone.words.isEmpty,
                                                             continuesEarly: u.segment.continuesEarly).stoppedBy?.rawValue)
                    }
                }
                if let after = r.afterPhrase.first {
                    // The audio after the phrase heard on its own, with the commands.
                    json.key("after_phrase")
                    json.object { json in
                        json.field("text", after.text)
                        json.field("confidence", after.confidence)
                        json.field("stopped_by", gate.take(after, isPhrase: !after.words.isEmpty).stoppedBy?.rawValue)
                    }
                }
                json.field("early", u.segment.early)
                json.field("continues_early", u.segment.continuesEarly)
                json.field("quiet_before", u.segment.quietBefore.isFinite ? (u.segment.quietBefore * 100).rounded() / 100 : nil)
                json.field("decision", verdict.kind.rawValue)
                json.field("stopped_by", verdict.stoppedBy?.rawValue)
                // Words heard that would be a command with one of these before them ("five").
                if !verdict.missingWord.isEmpty { json.field("missing_word", strings: verdict.missingWord) }
                // Words heard that would be a command with one of these after them ("quality").
                if !verdict.missingNextWord.isEmpty { json.field("missing_next_word", strings: verdict.missingNextWord) }
                // Words of the phrase heard that the grammar put in ("eight" of `play eight`).
                if !verdict.unheard.isEmpty { json.field("unheard", strings: verdict.unheard) }
                if let decidedAt { json.field("decided_at", decidedAt) }
            }
        }
    }
}

extension Attention: ExpressibleByArgument {}
