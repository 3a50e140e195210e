import ArgumentParser
import Foundation
import VshAudio
import VshCore
import VshVoice
import VshCommands

/// `vsh transcribe FILE...`: dictation over audio files with the en-us language model,
/// or keyword spotting with `--keywords`. Prints one line per utterance.
struct TranscribeSubcommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcribe",
        abstract: "Transcribe audio files with the language model, or spot keywords in them.")

    @OptionGroup var tool: ToolOptions
    @ParentCommand var root: VshMain

    @Argument(help: ArgumentHelp("Audio files: WAV, FLAC, Ogg, MP3 or 16 kHz 16-bit .raw.", valueName: "file"), completion: .file())
    var files: [String]

    @Flag(help: "One JSON object per utterance: file, text, start, end, confidence, words.")
    var json = false

    @Flag(help: "Also print the words so far while an utterance is decoded.")
    var interim = false

    @Option(help: ArgumentHelp("Spot these phrases (comma-separated) instead of transcribing.", valueName: "phrases"))
    var keywords: String?

    @Option(name: .customLong("keywords-threshold"),
            help: ArgumentHelp("How sure a spotted phrase must be: 1e-50 spots nearly anything, 1 nearly nothing.", valueName: "t"))
    var keywordsThreshold: Double = 1e-20

    @Flag(help: "Also say where saying \"stop recording\" would end a recording of the file (JSON: \"stop\"), and go on.")
    var stop = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one audio file") }
        if let keywords, Self.phrases(keywords).isEmpty { throw ValidationError("--keywords needs at least one phrase") }
        if !(keywordsThreshold > 0 && keywordsThreshold <= 1) {
            throw ValidationError("--keywords-threshold must be above 0 and at most 1, not \(keywordsThreshold)")
        }
    }

    static func phrases(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() throws {
        let app = try tool.app(root: root)
        PocketSphinxLog.send(to: app.paths.recognizerLog)
        let recognizer: StreamingRecognizer
        if let keywords {
            recognizer = try SphinxDictation(
                model: app.speechModel, keyphrases: Self.phrases(keywords),
                threshold: keywordsThreshold, workDirectory: app.paths.state)
        } else {
            recognizer = try SphinxDictation(model: app.speechModel)
        }
        var stopPhrase: SpokenStop?
        if stop {
            let recognizer = try app.voiceFactory.recognizer(for: Recorder.stopGrammar)
            stopPhrase = SpokenStop(recognizer: recognizer, phrase: Recorder.stopPhrase, gate: app.voiceFactory.gate(for: recognizer))
        }
        let out = FileDescriptorSink.standardOutput
        var failed = false
        for file in files {
            do {
                let pipeline = app.voiceFactory.dictationPipeline(
                    source: try FileAudioSource(path: file), recognizer: recognizer, interim: interim)
                pipeline.stop = stopPhrase
                var heard = false
                try pipeline.run { event in
                    switch event {
                    case .speechStarted, .transcribing:
                        break
                    case .stopPhrase(let recognition, let start, let end):
                        heard = true
                        out.line(json ? Self.json(file, recognition, start, end, stop: true)
                                      : Self.text(file, recognition, start, end) + "  (stop)")
                    case .partial(let text):
                        if interim && !text.isEmpty {
                            out.line(json ? JSONWriter.text { $0.object { $0.field("file", file); $0.field("partial", text) } } : "\(file): ... \(text)")
                        }
                    case .utterance(let recognition, let start, let end):
                        heard = true
                        if keywords != nil && recognition.words.isEmpty { break }
                        out.line(json ? Self.json(file, recognition, start, end) : Self.text(file, recognition, start, end))
                    }
                    return true
                }
                if !heard {
                    // Nothing printed is no answer: say why (status stays 0, the file was read).
                    FileDescriptorSink.standardError.line("\(file): no speech was found")
                }
            } catch {
                FileDescriptorSink.standardError.line("error: \(error)")
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    static func text(_ file: String, _ r: Recognition, _ start: Double, _ end: Double) -> String {
        String(format: "%@: %6.2f-%6.2f  ", file, start, end) + r.text
    }

    /// One utterance as one JSON object (FORMAT.md, "JSON output").
    static func json(_ file: String, _ r: Recognition, _ start: Double, _ end: Double, stop: Bool = false) -> String {
        JSONWriter.text { json in
            json.object { json in
                json.field("file", file)
                if stop { json.field("stop", true) }
                json.field("text", r.text)
                json.field("start", start)
                json.field("end", end)
                json.field("confidence", r.confidence)
                json.key("words")
                json.array { json in
                    for word in r.words {
                        json.object { json in
                            json.field("word", word.word)
                            json.field("start", word.start)
                            json.field("end", word.end)
                            json.field("confidence", word.confidence)
                        }
                    }
                }
            }
        }
    }
}
