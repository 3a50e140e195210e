import VshCore

/// When a command may end before the full hangover: the endpointer waits `hangover` ms of
/// quiet (300) because noise dips split words and people pause inside commands. Most of
/// that wait is needless when what was heard is a whole command that cannot grow. After
/// a short pause (`pause` ms), the utterance so far is recognised exactly as a finished
/// one would be; it ends there when
///   - the best phrase is a whole command and no longer phrase begins with it ("help",
///     "quality high"; not "stop", which may become "stop recording", nor "delete" or
///     "count one", whose numbers may go on): `ending`, from the grammar;
///   - the recogniser is sure of it: confidence at least `minimumConfidence`
///     (`defaultConfidence`, or the run threshold when that is higher), and the best
///     phrase beats the best different one by `minimumGap` (path score, log base 1.0001)
///     when the search offered one;
///   - the decoder hears the pause too: its last word ends `minimumSilence` seconds or
///     more before the audio does. Where the endpointer's pause was a dip inside a word,
///     the decoder stretches the word over it;
///   - every word is clearly voiced (`clearlyVoiced`, stricter than the confidence's own
///     voicing check): a breath or a click before a word, cut off by the pause and heard
///     alone, is voiced weakly if at all, and the full hangover would have joined it to
///     the word.
/// A command that passes all but the first because it can grow ("stop", "list", "save",
/// "delete twenty") waits out the hangover for the rest; when no more speech comes, it
/// ends there with the recognition already made, judged as a command that cannot grow is
/// (`Endpointer.EarlyAnswer.endUnlessMore`). Anything else waits for the full hangover,
/// as before, and is decided on the longer audio.
package struct EarlyEnd {
    /// Milliseconds of quiet after the last speech before asking.
    package var pause: Int
    package var minimumConfidence: Double
    package var minimumGap: Double
    /// Seconds of the decoded audio after the last word.
    package var minimumSilence: Double
    /// Each word's most voiced frame must be below this (`Voicing`).
    package var clearlyVoiced: Double
    /// Whether recognised words are a whole phrase, and whether it can grow.
    package var ending: ([String]) -> PhraseEnding?

    package init(pause: Int, minimumConfidence: Double, minimumGap: Double = defaultGap,
                minimumSilence: Double = defaultSilence, clearlyVoiced: Double = defaultVoicing,
                ending: @escaping ([String]) -> PhraseEnding?) {
        self.pause = pause
        self.minimumConfidence = minimumConfidence
        self.minimumGap = minimumGap
        self.minimumSilence = minimumSilence
        self.clearlyVoiced = clearlyVoiced
        self.ending = ending
    }

    // The defaults were chosen on real speech (bench/real_speech.py, bench/latency.py):
    // see research/recognition/EARLY_END.md. The pause is `voice.early_end_ms` (`Settings`).

    /// Sure, not only likely: a command that barely passes the run threshold gains little
    /// by ending sooner and loses the rest of the hangover's audio. 0.8 of {0.5, 0.7, 0.8,
    /// 0.9}: the fewest wrong commands on the fitting speakers, then the most early ends.
    package static let defaultConfidence = 0.8
    package static let defaultGap = 100.0
    package static let defaultSilence = 0.15
    package static let defaultVoicing = 0.05

    /// What becomes of the utterance heard as `recognition`, of audio that ends at
    /// `audioEnd` (stream seconds), after `pause` ms of quiet.
    package func answer(_ recognition: Recognition, audioEnd: Double) -> Endpointer.EarlyAnswer {
        guard let last = recognition.words.last, recognition.confidence >= minimumConfidence,
              audioEnd - last.end >= minimumSilence,
              let ending = ending(recognition.words.map(\.word)) else { return .wait }
        if let gap = recognition.features?.runnerUpGap, gap < minimumGap { return .wait }
        if let voicing = recognition.features?.weakestVoicing, voicing >= clearlyVoiced { return .wait }
        return ending == .final ? .end : .endUnlessMore
    }
}
