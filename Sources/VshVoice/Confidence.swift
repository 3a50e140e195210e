import Foundation
import VshCore
import VshStore

/// How sure vsh is that an utterance is the command the grammar search found, 0…1.
///
/// A grammar search always returns its best phrase, even for a sentence that was not
/// meant for vsh. The same audio is therefore also decoded with a free phone loop, which
/// fits any speech. A real command fits its phrase nearly as well as the phone loop
/// fits it; other speech fits the phrase much worse, and its words get squeezed into
/// too few or too many frames. A logistic model over six such features gives the
/// probability. It was fitted on the spoken-command corpus against 315 out-of-grammar
/// recordings (research/recognition/FINDINGS.md): with one voice held out, at 0.5 it
/// kept 81% of commands at 8% false accepts. An earlier version also weighed the
/// utterance's loudness over the noise; that only learned that the synthetic voices
/// were recorded without noise (it marked quiet human speech down) and helped nothing
/// on held-out voices, so it was dropped.
public struct Confidence: Sendable, Equatable {
    /// What the model looks at, from the grammar and phone-loop decodes of one utterance.
    /// Scores are PocketSphinx path scores (log base 1.0001, higher is better).
    public struct Features: Sendable, Equatable {
        public var grammarScore: Double
        /// Acoustic part only (no grammar weight, no penalties).
        public var grammarAcoustic: Double
        public var phoneLoopScore: Double
        public var phoneLoopAcoustic: Double
        /// 10 ms frames decoded; frames inside real words (not silence or fillers).
        public var frames: Int
        public var wordFrames: Int
        /// Phones in the recognised words' pronunciations.
        public var phones: Int
        /// Words recognised (fillers not counted).
        public var words: Int
        /// How much better the best phrase scores than the best *different* phrase of the
        /// grammar's n-best list (path scores); nil when the search offered no other phrase.
        public var runnerUpGap: Double?

        public init(grammarScore: Double, grammarAcoustic: Double, phoneLoopScore: Double, phoneLoopAcoustic: Double,
                    frames: Int, wordFrames: Int, phones: Int, words: Int = 1, runnerUpGap: Double? = nil) {
            self.grammarScore = grammarScore
            self.grammarAcoustic = grammarAcoustic
            self.phoneLoopScore = phoneLoopScore
            self.phoneLoopAcoustic = phoneLoopAcoustic
            self.frames = frames
            self.wordFrames = wordFrames
            self.phones = phones
            self.words = words
            self.runnerUpGap = runnerUpGap
        }

        /// The model's inputs, in the order of its weights.
        var vector: [Double] {
            let n = Double(max(1, frames))
            return [
                (grammarScore - phoneLoopScore) / n,          // how much better the phrase fits
                (grammarAcoustic - phoneLoopAcoustic) / n,    // the same, acoustics only
                grammarScore / n,                             // how well the phrase fits at all
                Double(wordFrames) / Double(max(1, phones)),  // frames per phone: speaking rate
                Double(wordFrames) / n,                       // share of the audio in words
                log(n),                                       // length: commands are short
            ]
        }
    }

    public var mean: [Double]
    public var deviation: [Double]
    public var weights: [Double]
    public var bias: Double

    /// Fitted by research/recognition/conf2.py (run `final`, all corpus voices, topn 16,
    /// CI phone loop).
    public static let model = Confidence(
        mean: [1.19, -19.44, -27.8, 10.15, 0.54, 5.06],
        deviation: [8.51, 11.59, 9.84, 3.07, 0.15, 0.29],
        weights: [0.46, 1.48, 2.08, -0.34, 1.48, -1.62],
        bias: 0.06)

    public func probability(_ features: Features) -> Double {
        var z = bias
        for (i, x) in features.vector.enumerated() {
            z += weights[i] * (x - mean[i]) / deviation[i]
        }
        return 1 / (1 + exp(-z))
    }
}
