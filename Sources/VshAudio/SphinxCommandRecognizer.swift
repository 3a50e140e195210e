import Foundation
import VshCore

/// Command recognition with PocketSphinx: each utterance is level-normalised, decoded
/// against the command grammar, and decoded again with a free phone loop. How much
/// better the grammar explains the audio than the phone loop, per frame, is the
/// confidence: speech that is not a command fits the phone loop about as well as any
/// grammar phrase (or better), a command fits its phrase well.
public final class SphinxCommandRecognizer: CommandRecognizer {
    public struct Settings: Sendable, Equatable {
        public var modelDirectory: String
        /// Where the confidence's logistic curve is centred, in log-score units per frame
        /// (grammar score minus phone-loop score).
        public var marginCentre: Double = -300
        public var marginScale: Double = 100

        public init(modelDirectory: String) { self.modelDirectory = modelDirectory }
    }

    private let decoder: PocketSphinxDecoder
    private let settings: Settings

    /// Loads the acoustic model with a dictionary of just `vocabulary`, the grammar and
    /// the phone loop. `workDirectory` receives the generated dictionary.
    public init(settings: Settings, jsgf: String, vocabulary: Set<String>, workDirectory: String) throws {
        self.settings = settings
        let model = SpeechModel(directory: settings.modelDirectory)
        let fullDictionary = try PronunciationDictionary(path: model.dictionary)
        let (dictText, missing) = fullDictionary.subset(vocabulary)
        if !missing.isEmpty {
            throw AudioError("the command grammar uses words the dictionary does not know: \(missing.joined(separator: ", "))")
        }
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        let dictPath = workDirectory + "/commands-\(getpid()).dict"
        try dictText.write(toFile: dictPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: dictPath) }
        decoder = try PocketSphinxDecoder(arguments: [
            "-hmm", model.acousticModel, "-dict", dictPath, "-bestpath", "yes", "-allphone_ci", "yes",
        ])
        try decoder.addGrammar("cmd", jsgf: jsgf)
        try decoder.addPhoneLoop("phone", phoneLM: model.phoneLanguageModel)
    }

    public func recognize(_ samples: [Int16], start: Double) -> Recognition {
        let audio = Self.normalised(samples)
        decoder.use("cmd")
        let hyp = decoder.decode(audio)
        decoder.use("phone")
        let phones = decoder.decode(audio)
        let frames = Double(max(1, hyp.frames))
        let margin = Double(hyp.score - phones.score) / frames
        let confidence = 1 / (1 + exp(-(margin - settings.marginCentre) / settings.marginScale))
        let words = hyp.segments.compactMap { seg -> RecognizedWord? in
            let word = VoiceGrammar.baseWord(seg.word)
            if word.hasPrefix("<") || word.hasPrefix("[") || word.isEmpty { return nil }
            return RecognizedWord(
                word: word, start: start + Double(seg.startFrame) / 100, end: start + Double(seg.endFrame + 1) / 100,
                confidence: min(1, PocketSphinxDecoder.probability(seg.posterior)))
        }
        return Recognition(words: words, confidence: hyp.text.isEmpty ? 0 : confidence)
    }

    /// Brings the utterance to a steady speaking level (RMS ≈ 3000), never clipping and
    /// never more than +40 dB: quiet microphones and loud ones look alike to the model.
    static func normalised(_ samples: [Int16]) -> [Int16] {
        guard !samples.isEmpty else { return samples }
        var peak = 1.0, sum = 0.0
        for s in samples {
            let v = Double(s)
            peak = max(peak, abs(v))
            sum += v * v
        }
        let rms = (sum / Double(samples.count)).squareRoot() + 1e-9
        let gain = min(3_000 / rms, 32_000 / peak, 100)
        return samples.map { Int16(clamping: Int((Double($0) * gain).rounded())) }
    }
}
