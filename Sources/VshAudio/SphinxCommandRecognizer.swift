import Foundation
import VshCore
import VshStore
import VshVoice

/// Command recognition with PocketSphinx. Each utterance is level-normalised, decoded
/// against the command grammar, and decoded again with a free phone loop; a confidence
/// model then says whether the grammar's answer is a command or speech that merely fits
/// some phrase. A grammar search always returns a phrase, so without this vsh would
/// run a command for every sentence it overhears.
public final class SphinxCommandRecognizer: CommandRecognizer {
    public struct Settings: Sendable, Equatable {
        public var model: SpeechModel
        public init(model: SpeechModel) { self.model = model }
    }

    private let decoder: PocketSphinxDecoder
    /// A second decoder for tentative recognitions (`recognizeTentatively`): PocketSphinx
    /// adapts its noise estimate and cepstral mean from each decode to the next, so
    /// tentative decodes on `decoder` would change the decisions after them (they changed
    /// a quarter of the Speech Commands decisions). Loaded at the first tentative
    /// recognition: only the early end (`voice.early_end_ms`, off by default) asks for one.
    private lazy var tentative: PocketSphinxDecoder? = try? makeDecoder()
    private let makeDecoder: () throws -> PocketSphinxDecoder
    /// The audio of the last tentative recognition, for `adoptTentative`.
    private var lastTentative: (samples: [Int16], start: Double)?

    /// Loads the acoustic model with a dictionary of just `vocabulary`, the grammar and
    /// the phone loop. `workDirectory` receives the generated dictionary.
    public init(settings: Settings, jsgf: String, vocabulary: Set<String>, workDirectory: String) throws {
        let model = settings.model
        let (dictText, missing) = try PronunciationDictionary(path: model.dictionary, only: vocabulary).subset(vocabulary)
        if !missing.isEmpty {
            throw AudioError("the command grammar uses words the dictionary does not know: \(missing.joined(separator: ", "))")
        }
        // -topn 8 (Gaussians scored per frame, default 4): +2 to +6 points in noise; 16
        // scored the same and cost 25% more CPU.
        // -allphone_ci: a context-independent phone loop, 30 ms instead of seconds.
        makeDecoder = {
            try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
            let dictPath = workDirectory + "/commands-\(getpid()).dict"
            try dictText.write(toFile: dictPath, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: dictPath) }
            let decoder = try PocketSphinxDecoder(arguments: [
                "-hmm", model.acousticModel, "-dict", dictPath, "-topn", "8", "-allphone_ci", "yes",
            ])
            try decoder.addGrammar("cmd", jsgf: jsgf)
            try decoder.addPhoneLoop("phone", phoneLM: model.phoneLanguageModel)
            return decoder
        }
        decoder = try makeDecoder()
    }

    public func recognize(_ samples: [Int16], start: Double) -> Recognition {
        Self.recognize(samples, start: start, with: decoder)
    }

    public func recognizeTentatively(_ samples: [Int16], start: Double) -> Recognition {
        lastTentative = (samples, start)
        // Without a second decoder (it failed to load) the main one decodes: decisions may
        // then shift a little after a tentative decode, as measured, but none is lost.
        return Self.recognize(samples, start: start, with: tentative ?? decoder)
    }

    /// The main decoder decodes the adopted audio too, so that it adapts to the channel
    /// from the same utterances as without the early end.
    public func adoptTentative() {
        if let (samples, start) = lastTentative { _ = recognize(samples, start: start) }
        lastTentative = nil
    }

    private static func recognize(_ samples: [Int16], start: Double, with decoder: PocketSphinxDecoder) -> Recognition {
        let audio = normalised(samples)
        decoder.use("cmd")
        let hyp = decoder.decode(audio)
        guard !hyp.text.isEmpty, hyp.frames > 0 else { return Recognition(words: [], confidence: 0) }
        var words: [RecognizedWord] = []
        var wordFrames = 0
        for seg in hyp.segments {
            let word = VoiceGrammar.baseWord(seg.word)
            if word.hasPrefix("<") || word.hasPrefix("[") || word.isEmpty { continue }
            wordFrames += seg.endFrame - seg.startFrame + 1
            words.append(RecognizedWord(
                word: word, start: start + Double(seg.startFrame) / 100, end: start + Double(seg.endFrame + 1) / 100,
                confidence: min(1, PocketSphinxDecoder.probability(seg.posterior))))
        }
        let phones = hyp.text.split(separator: " ").reduce(0) { $0 + decoder.phoneCount(String($1)) }
        // The runners-up, for "did you mean" and for the confidence: read before the phone
        // loop replaces the lattice.
        let best = words.map(\.word)
        let scored = decoder.nbestScored(limit: 5, paths: 100).map { entry in
            (words: entry.text.split(separator: " ").map { VoiceGrammar.baseWord(String($0)) }
                .filter { !$0.hasPrefix("<") && !$0.hasPrefix("[") && !$0.isEmpty }, score: entry.score)
        }
        let alternatives = scored.map(\.words).filter { !$0.isEmpty && $0 != best }
        let top = scored.first.map { Double($0.score) } ?? Double(hyp.score)
        let runnerUp = scored.first { $0.words != best }.map { top - Double($0.score) }
        decoder.use("phone")
        let loop = decoder.decode(audio)
        let features = Confidence.Features(
            grammarScore: Double(hyp.score), grammarAcoustic: Double(hyp.acousticScore),
            phoneLoopScore: Double(loop.score), phoneLoopAcoustic: Double(loop.acousticScore),
            frames: hyp.frames, wordFrames: wordFrames, phones: phones, words: words.count, runnerUpGap: runnerUp)
        return Recognition(words: words, confidence: Confidence.model.probability(features), alternatives: alternatives,
                           features: features)
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
