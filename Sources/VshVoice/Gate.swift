import VshCore

/// Whether speech heard as a phrase of the grammar may be taken: the one decision every
/// path that acts on speech shares. The prompt (`VoicePrompt.decide`), `vsh listen` (with
/// and without `--grammar`), the spoken stop of a recording (`SpokenStop`), `train`'s
/// held-out figures (`HeldOutFigures`) and a round of learning from use (`LearningRound`)
/// all call `judge`, so what `train` reports is what the prompt then does.
///
/// The gate is a value: the configured thresholds (`voice.threshold`,
/// `voice.reject_below`, `voice.speaker_check`) with what `train` calibrated for the model
/// in use (`Calibration`), made once when the recogniser loads that model and replaced
/// with it. `judge` is pure: the recognition's features in, a decision out that names the
/// check that stopped it.
package struct Gate: Sendable, Equatable {
    /// A check that stops an utterance from running anything: what `vsh listen --json`
    /// reports as `stopped_by`. The first five are the gate's; the rest are the prompt's
    /// state (`VoicePrompt.decide`).
    package enum Check: String, Sendable, CaseIterable {
        /// It began while an utterance that ended early could still have gone on.
        case continuesEarly = "continues-early"
        /// With a model adapted to the person (`train`), it sounded less like them than
        /// their own commands do (`voice.speaker_check`).
        case otherSpeaker = "other-speaker"
        /// A word not said as itself: one word of several was given less time than a person
        /// takes to say it (`Gate.clearWord`), as "play" before a lone "five", a word that
        /// begins with a hiss began with none (`Gate.hissAtLeast`), as "up" heard as `stop`,
        /// two syllables the words claim did not dip between them (`Gate.dipAtLeast`), as
        /// "right" heard as `record`, a stretch hissed where the words claim voice
        /// throughout (`Gate.hissInVoiceUnder`), as "six" heard as `reload`, or before a
        /// first word that begins with voice (the same floor), as "six" heard as `record`, or the phrase
        /// fit the audio little better than a reading with one of its words left out
        /// (`Gate.leftOutAtLeast`), as a lone "play" heard as `play eight`.
        case unclearWord = "unclear-word"
        /// No phrase the path listens for: other words, noise.
        case noCommand = "no-command"
        /// Its confidence was below `voice.reject_below` (or, where nothing is asked, below
        /// `voice.threshold`).
        case confidence
        /// A command said too soon after other speech (`voice.quiet_before_ms`): it runs
        /// on from talk.
        case notStandAlone = "not-stand-alone"
        /// Listening was off, and it was not the wake phrase.
        case listeningOff = "listening-off"
        /// An answer, and there was no question to answer.
        case noQuestion = "no-question"
        /// A command that can do nothing now (`undo` with nothing to undo): heard as
        /// itself, answered with why (`CommandInfo.unavailable`), not run.
        case doesNotApply = "does-not-apply"
        /// Attention `wake` or `key`, and neither the wake phrase (sure and said on its
        /// own) nor the talk key had woken vsh.
        case asleep

        /// Whether the check is about how the words were heard, not the prompt's state:
        /// the person meant a command and vsh did not take it.
        package var isHearing: Bool {
            switch self {
            case .otherSpeaker, .unclearWord, .confidence, .notStandAlone: true
            default: false
            }
        }
    }

    /// What `train` set for the model it adapted (kept in its `adaptation.json`); the stock
    /// model has none.
    package struct Calibration: Sendable, Equatable, Codable {
        /// The confidence a command needs for this person, when more than configured
        /// (`ThresholdCalibration`).
        package var threshold: Double?
        /// The speaker score a command needs (`SpeakerCalibration`); nil: no check.
        package var speaker: Double?
        /// The shortest a phone may last on average for this person, 10 ms frames, when
        /// under the stock confidence's (`FramesCalibration`).
        package var framesPerPhoneFloor: Double?

        package static let stock = Calibration()

        package init(threshold: Double? = nil, speaker: Double? = nil, framesPerPhoneFloor: Double? = nil) {
            self.threshold = threshold
            self.speaker = speaker
            self.framesPerPhoneFloor = framesPerPhoneFloor
        }
    }

    /// What the gate made of an utterance.
    package enum Decision: Equatable, Sendable {
        /// Sure enough to run (confidence at or above `threshold`).
        case sure(Double)
        /// Heard as the phrase, but only enough to ask ("did you mean").
        case unsure(Double)
        /// Not taken, and which check stopped it.
        case stopped(Check, Double)

        package var confidence: Double {
            switch self {
            case .sure(let c), .unsure(let c), .stopped(_, let c): c
            }
        }
        package var isSure: Bool { if case .sure = self { true } else { false } }
        package var stoppedBy: Check? { if case .stopped(let check, _) = self { check } else { nil } }
    }

    /// The fewest 10 ms frames per phone each word of three phones or more in a phrase of
    /// several words needs (`Confidence.Features.shortestWord`): a phone takes at least
    /// three in the search, and a word the search fitted in where little was said gets
    /// about that. On fold 0 of bench/attention.py, digits said alone heard as `code 0`,
    /// `code 1` and `show 10` had 3 to 4; the right phrases of several words had at least
    /// 5.5 in real speech (cards) and 5.75 from the synthetic voices
    /// (research/attention/ATTENTION.md).
    package static let clearWord = 4.5

    /// The share of a frame's energy in its hiss's band that four frames in a row of the
    /// onset of a word beginning with S or SH must reach (`Confidence.Features.weakestHiss`,
    /// `Hiss.holdFrames`): real "stop"s reach 0.8 and more, the words heard as `stop` and
    /// `show` in their place ("up", "off", "go") mostly under 0.1. Chosen on fold 0 of
    /// bench/attention.py: with the hiss held four frames, every floor from 0.3 to 0.5 stops
    /// 10 of 77 runs and asks there for 1 of 420 commands said to vsh; the least of them
    /// (research/recognition/HISS.md, "Clicks").
    package static let hissAtLeast = 0.3

    /// How deep, in dB, the voice's band must dip somewhere over the words where they claim
    /// two vowels parted by a stop or a fricative (`Confidence.Features.syllableDip`): one
    /// syllable heard as two ("go" as `code oh`, "up" as `happy`, "nine" as `code nine`)
    /// dipped mostly 0 to 5 dB on fold 0 of bench/attention.py, lone digits heard as
    /// `marvin`, `code zero` or `show ten` 5 to 7 ("five", "zero"), two syllables said
    /// 16 dB and more ("alexa", "marvin"), a flap in read speech 15 to 23. In a room's noise
    /// 20 dB under the voice the least dip of those said fell to 7.2. Chosen on fold 0: the
    /// floor that stops the most false runs while no command said to vsh, clean or in
    /// noise 20 dB under it, is stopped (research/recognition/SYLLABLES.md, session 36).
    package static let dipAtLeast = 7.0

    /// How few 10 ms frames in a row must hiss where the words claim voice throughout
    /// (`Confidence.Features.hissInVoice`, `Voicing.longestHiss`): an S or an F said, heard
    /// as a word without one. fsdd's george's lone "six" heard as `reload` hissed 4 to 14
    /// frames in a row over the words on fold 0 of bench/attention.py (its S at 8 kHz);
    /// Speech Commands' "down", "go", "no" and "on" heard right hissed 0 to 4 frames but
    /// for 5 of 477 (5 to 8 frames, both folds). Chosen on fold 0: 7 stops 14 of its 95
    /// false runs and asks and 1 of its 254 voiced words said; held out, 1 of 223 words
    /// and no false run (research/recognition/HISS_IN_VOICE.md). The same floor, set before
    /// measuring, for a hiss before a first word that begins with voice
    /// (`Confidence.Features.hissBefore`): a lone "six" heard as `record`, "seven" as
    /// `marvin` (research/recognition/HISS_BEFORE.md).
    package static let hissInVoiceUnder = 7

    /// How much better a phrase of two words or more must score than the best reading of
    /// the same search that leaves some of its words out (`Confidence.Features.leftOutGap`,
    /// `LeftOut`), in path-score units: the margin by which a command must beat another to
    /// be more sure than not (`Confidence.model.midpoint`). A carrier or a number the
    /// grammar put in ("play eight" for a lone "play", "code one" for a lone "one") scored
    /// about as well as the reading without it or worse; no real command of two words or
    /// more measured had such a reading among the twenty best at all
    /// (research/recognition/LEFT_OUT.md).
    package static let leftOutAtLeast = Confidence.model.midpoint

    /// The words of `recognition` as heard with the words the grammar put in left out,
    /// when the reading without them came within `leftOutAtLeast` of the phrase (the check
    /// that stops it): a lone "play" heard as `play eight` was "play". Nil otherwise.
    package static func leftOutReading(of recognition: Recognition) -> [String]? {
        guard let f = recognition.features, let words = f.leftOutReading, let gap = f.leftOutGap,
              gap < leftOutAtLeast else { return nil }
        return words
    }

    /// At or above: sure. From `rejectBelow` up to it: ask.
    package var threshold: Double
    package var rejectBelow: Double
    /// The speaker score a phrase needs; nil: no speaker check.
    package var speaker: Double?
    /// The confidence model, with the person's floor on a phone's length.
    package var confidence: Confidence

    /// The gate of `settings` for a model with `calibration`: the threshold raised to the
    /// calibrated one, the speaker check where `voice.speaker_check` is on and `train` set
    /// one.
    package init(settings: Settings, calibration: Calibration = .stock) {
        self.init(threshold: settings.voiceThreshold, rejectBelow: settings.voiceRejectBelow,
                  speakerCheck: settings.speakerCheck, calibration: calibration)
    }

    package init(threshold: Double, rejectBelow: Double? = nil, speakerCheck: Bool = true,
                 calibration: Calibration = .stock) {
        self.threshold = max(threshold, calibration.threshold ?? threshold)
        self.rejectBelow = min(rejectBelow ?? threshold, self.threshold)
        speaker = speakerCheck ? calibration.speaker : nil
        var confidence = Confidence.model
        if let floor = calibration.framesPerPhoneFloor {
            confidence.framesPerPhone = floor...confidence.framesPerPhone.upperBound
        }
        self.confidence = confidence
    }

    /// The confidence of `recognition` under this gate: as the recogniser gave it (the
    /// stock `Confidence.model`), or, where the person's calibration changed the model,
    /// worked out again from its features.
    package func confidence(of recognition: Recognition) -> Double {
        guard confidence != Confidence.model, let features = recognition.features else { return recognition.confidence }
        return confidence.probability(features)
    }

    /// Judges `recognition`, heard as a phrase of the grammar when `isPhrase`.
    /// `continuesEarly`: it began while an utterance that ended early could have gone on.
    /// `standsAlone`: it came after enough quiet, or the path needs none.
    package func judge(
        _ recognition: Recognition, isPhrase: Bool, continuesEarly: Bool = false, standsAlone: Bool = true
    ) -> Decision {
        let confidence = confidence(of: recognition)
        if continuesEarly { return .stopped(.continuesEarly, confidence) }
        let features = recognition.features
        if let floor = speaker, let score = features?.speakerScore, score < floor {
            return .stopped(.otherSpeaker, confidence)
        }
        if let f = features, f.words >= 2, let shortest = f.shortestWord, shortest < Self.clearWord {
            return .stopped(.unclearWord, confidence)
        }
        if let hiss = features?.weakestHiss, hiss < Self.hissAtLeast {
            return .stopped(.unclearWord, confidence)
        }
        if let dip = features?.syllableDip, dip < Self.dipAtLeast {
            return .stopped(.unclearWord, confidence)
        }
        if let run = features?.hissInVoice, run >= Self.hissInVoiceUnder {
            return .stopped(.unclearWord, confidence)
        }
        if let run = features?.hissBefore, run >= Self.hissInVoiceUnder {
            return .stopped(.unclearWord, confidence)
        }
        if Self.leftOutReading(of: recognition) != nil { return .stopped(.unclearWord, confidence) }
        guard isPhrase, !recognition.words.isEmpty else { return .stopped(.noCommand, confidence) }
        guard confidence >= rejectBelow else { return .stopped(.confidence, confidence) }
        guard standsAlone else { return .stopped(.notStandAlone, confidence) }
        return confidence >= threshold ? .sure(confidence) : .unsure(confidence)
    }

    /// Judges `recognition` where nothing is asked: sure, or stopped (an unsure phrase is
    /// stopped by the confidence).
    package func take(
        _ recognition: Recognition, isPhrase: Bool, continuesEarly: Bool = false, standsAlone: Bool = true
    ) -> Decision {
        let decision = judge(recognition, isPhrase: isPhrase, continuesEarly: continuesEarly, standsAlone: standsAlone)
        if case .unsure(let c) = decision { return .stopped(.confidence, c) }
        return decision
    }
}
