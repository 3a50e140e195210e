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

    @Argument(help: ArgumentHelp("Audio files: WAV, FLAC, Ogg or 16 kHz 16-bit .raw.", valueName: "file"))
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
        let out = FileDescriptorSink.standardOutput
        var failed = false
        for file in files {
            do {
                let pipeline = app.voicePath.dictationPipeline(
                    source: try FileAudioSource(path: file), recognizer: recognizer, interim: interim)
                var heard = false
                try pipeline.run { event in
                    switch event {
                    case .speechStarted, .stopPhrase, .transcribing:
                        break
                    case .partial(let text):
                        if interim && !text.isEmpty {
                            out.line(json ? "{\"file\": \(JSON.string(file)), \"partial\": \(JSON.string(text))}" : "\(file): ... \(text)")
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

    static func json(_ file: String, _ r: Recognition, _ start: Double, _ end: Double) -> String {
        let words = r.words.map {
            "{\"word\": \(JSON.string($0.word)), \"start\": \(JSON.number($0.start)), \"end\": \(JSON.number($0.end)), "
                + "\"confidence\": \(JSON.number($0.confidence))}"
        }
        return "{\"file\": \(JSON.string(file)), \"text\": \(JSON.string(r.text)), \"start\": \(JSON.number(start)), "
            + "\"end\": \(JSON.number(end)), \"confidence\": \(JSON.number(r.confidence)), \"words\": [\(words.joined(separator: ", "))]}"
    }
}
