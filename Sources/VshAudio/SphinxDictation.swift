import Foundation
import VshCore
import VshSpoken
import VshVoice

/// Free speech with PocketSphinx: dictation with the en-us language model and the full
/// pronunciation dictionary, or spotting a few keyphrases in any speech ("stop
/// recording" while dictating).
package final class SphinxDictation: StreamingRecognizer {
    private let decoder: PocketSphinxDecoder
    private var start = 0.0

    /// Dictation. Loading the language model and dictionary takes about 0.3 s and
    /// 100 MB, so vsh creates one only when something dictates.
    package init(model: SpeechModel) throws {
        decoder = try PocketSphinxDecoder(arguments: [
            "-hmm", model.acousticModel, "-lm", model.languageModel, "-dict", model.dictionary,
        ])
    }

    /// Keyword spotting. `threshold`: the detection threshold PocketSphinx compares a
    /// phrase's posterior with (1e-50 spots almost anything, 1 almost nothing).
    package init(model: SpeechModel, keyphrases: [String], threshold: Double, workDirectory: String) throws {
        let words = Set(keyphrases.flatMap { $0.lowercased().split(separator: " ").map(String.init) })
        let (dictText, missing) = try PronunciationDictionary(path: model.dictionary, only: words).subset(words)
        if !missing.isEmpty {
            throw AudioError("keywords the dictionary does not know: \(missing.sorted().joined(separator: ", "))")
        }
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        let base = workDirectory + "/keywords-\(getpid())"
        try dictText.write(toFile: base + ".dict", atomically: true, encoding: .utf8)
        let list = keyphrases.map { "\($0.lowercased()) /\(threshold)/\n" }.joined()
        try list.write(toFile: base + ".list", atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(atPath: base + ".dict")
            try? FileManager.default.removeItem(atPath: base + ".list")
        }
        decoder = try PocketSphinxDecoder(arguments: ["-hmm", model.acousticModel, "-dict", base + ".dict"])
        try decoder.addKeywords("keywords", file: base + ".list")
        decoder.use("keywords")
    }

    package func begin(at start: Double) {
        self.start = start
        decoder.start()
    }

    package func feed(_ samples: [Int16]) -> String {
        decoder.process(samples)
        return decoder.partial
    }

    package func end() -> Recognition {
        SphinxWords.recognition(decoder.end(), start: start)
    }

    package func recognize(_ samples: [Int16], start: Double) -> Recognition {
        SphinxWords.recognition(decoder.decode(samples, newStream: false), start: start)
    }
}

/// A decoder's result as vsh's words: fillers and silences dropped, variants stripped,
/// frames turned into stream seconds, posteriors into 0…1.
enum SphinxWords {
    /// `raw` as the word it stands for (`record(2)` → `record`), or nil for a filler,
    /// silence or sentence mark (`[noise]`, `<sil>`, `</s>`).
    static func word(_ raw: String) -> String? {
        // Keyphrases come back as one segment, with a trailing space.
        let word = VoiceGrammar.baseWord(raw).trimmingCharacters(in: .whitespaces)
        return word.hasPrefix("<") || word.hasPrefix("[") || word.isEmpty ? nil : word
    }

    /// The decoded words of `hyp` that are words, not fillers, each with the word it stands for.
    static func words(of hyp: PocketSphinxDecoder.Hypothesis) -> [(word: String, segment: PocketSphinxDecoder.DecodedWord)] {
        hyp.words.compactMap { seg in word(seg.word).map { ($0, seg) } }
    }

    /// A word of the result, timed in stream seconds from `start`.
    static func recognized(_ word: String, _ seg: PocketSphinxDecoder.DecodedWord, start: Double) -> RecognizedWord {
        RecognizedWord(
            word: word, start: start + Double(seg.startFrame) / 100, end: start + Double(seg.endFrame + 1) / 100,
            confidence: min(1, PocketSphinxDecoder.probability(seg.posterior)))
    }

    static func recognition(_ hyp: PocketSphinxDecoder.Hypothesis, start: Double) -> Recognition {
        let words = Self.words(of: hyp).map { recognized($0.word, $0.segment, start: start) }
        let confidence = words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
        return Recognition(words: words, confidence: confidence)
    }
}
