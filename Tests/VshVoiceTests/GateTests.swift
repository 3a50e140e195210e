import Testing
import VshCore
import VshVoice

/// The one gate every path that acts on speech calls: each verdict, and the check it names.
@Suite struct GateTests {
    static func recognition(_ text: String, _ confidence: Double, features: Confidence.Features? = nil) -> Recognition {
        Recognition(words: text.split(separator: " ").map { RecognizedWord(word: String($0), start: 0, end: 0.5, confidence: 1) },
                    confidence: confidence, features: features)
    }

    static let gate = Gate(threshold: 0.5, rejectBelow: 0.3)

    @Test func theConfidenceDecidesBetweenSureUnsureAndStopped() {
        #expect(Self.gate.judge(Self.recognition("list", 0.9), isPhrase: true) == .sure(0.9))
        #expect(Self.gate.judge(Self.recognition("list", 0.5), isPhrase: true) == .sure(0.5), "the threshold itself is sure")
        #expect(Self.gate.judge(Self.recognition("list", 0.4), isPhrase: true) == .unsure(0.4))
        #expect(Self.gate.judge(Self.recognition("list", 0.2), isPhrase: true) == .stopped(.confidence, 0.2))
        // Where nothing is asked, unsure is stopped by the confidence.
        #expect(Self.gate.take(Self.recognition("list", 0.4), isPhrase: true) == .stopped(.confidence, 0.4))
    }

    @Test func eachCheckIsNamed() {
        let sure = Self.recognition("list", 0.9)
        #expect(Self.gate.judge(sure, isPhrase: false).stoppedBy == .noCommand)
        #expect(Self.gate.judge(Self.recognition("", 0.9), isPhrase: true).stoppedBy == .noCommand, "nothing heard")
        #expect(Self.gate.judge(sure, isPhrase: true, continuesEarly: true).stoppedBy == .continuesEarly)
        #expect(Self.gate.judge(sure, isPhrase: true, standsAlone: false).stoppedBy == .notStandAlone)
        // A word of several squeezed into the least time a phone takes: "play" before a lone "five".
        let squeezed = Self.recognition("play five", 0.9, features: Confidence.Features(
            frames: 60, wordFrames: 40, phones: 6, words: 2, shortestWord: 3))
        #expect(Self.gate.judge(squeezed, isPhrase: true).stoppedBy == .unclearWord)
        var said = squeezed
        said.features?.shortestWord = Gate.clearWord
        #expect(Self.gate.judge(said, isPhrase: true) == .sure(0.9))
        // A word that begins with a hiss heard where none was: "up" as `stop`.
        Self.expectFloor(\.weakestHiss, Gate.hissAtLeast, on: "stop", under: 0.01)
        // One syllable heard as two: "right" as `record`.
        Self.expectFloor(\.syllableDip, Gate.dipAtLeast, on: "record", under: 0.5)
        // A hiss where the words claim voice throughout: "six" as `reload`.
        Self.expectCeiling(\.hissInVoice, Gate.hissInVoiceUnder, on: "reload")
        // A hiss before a word that begins with voice: "six" as `record`.
        Self.expectCeiling(\.hissBefore, Gate.hissInVoiceUnder, on: "record")
        // A word the grammar put in: a lone "play" as `play eight`, "play" alone as good.
        Self.expectFloor(\.leftOutGap, Gate.leftOutAtLeast, on: "play eight", under: 1, leftOut: ["play"])
    }

    /// The words heard without those the grammar put in, only where that stopped them.
    @Test func theReadingWithAWordLeftOutIsWhatWasSaid() {
        var heard = Self.recognition("play eight", 0.9, features: Confidence.Features(
            frames: 60, wordFrames: 40, phones: 5, words: 2, leftOutReading: ["play"], leftOutGap: -41))
        #expect(Gate.leftOutReading(of: heard) == ["play"])
        heard.features?.leftOutGap = Gate.leftOutAtLeast
        #expect(Gate.leftOutReading(of: heard) == nil, "the phrase beat it by the margin: it was said")
    }

    /// A measure the gate needs at least `floor` of: `under` less stops `words` as an
    /// unclear word, the floor itself runs, and no measure (no such word, audio without the
    /// band, no shorter reading) is no check. `leftOut`: the reading the measure is against.
    static func expectFloor(_ measure: WritableKeyPath<Confidence.Features, Double?>, _ floor: Double,
                            on words: String, under: Double, leftOut: [String]? = nil) {
        var heard = Self.recognition(words, 0.9, features: Confidence.Features(
            frames: 60, wordFrames: 40, phones: 5, leftOutReading: leftOut))
        heard.features?[keyPath: measure] = floor - under
        #expect(Self.gate.judge(heard, isPhrase: true).stoppedBy == .unclearWord, "\(measure)")
        heard.features?[keyPath: measure] = floor
        #expect(Self.gate.judge(heard, isPhrase: true) == .sure(0.9), "\(measure)")
        heard.features?[keyPath: measure] = nil
        #expect(Self.gate.judge(heard, isPhrase: true) == .sure(0.9), "\(measure): no measure, no check")
    }

    /// `measure` at `ceiling` stops `words` as unclear, one under it does not, and no
    /// measure (words the check does not apply to) is no check.
    static func expectCeiling(_ measure: WritableKeyPath<Confidence.Features, Int?>, _ ceiling: Int, on words: String) {
        var heard = Self.recognition(words, 0.9, features: Confidence.Features(frames: 60, wordFrames: 40, phones: 5))
        heard.features?[keyPath: measure] = ceiling
        #expect(Self.gate.judge(heard, isPhrase: true).stoppedBy == .unclearWord, "\(measure)")
        heard.features?[keyPath: measure] = ceiling - 1
        #expect(Self.gate.judge(heard, isPhrase: true) == .sure(0.9), "\(measure)")
        heard.features?[keyPath: measure] = nil
        #expect(Self.gate.judge(heard, isPhrase: true) == .sure(0.9), "\(measure): no measure, no check")
    }

    @Test func theSpeakerCheckAppliesOnlyWithACalibratedModelAndTheCheckOn() {
        let other = Self.recognition("list", 0.9, features: Confidence.Features(
            frames: 60, wordFrames: 40, phones: 3, speakerScore: -1))
        let calibrated = Gate.Calibration(speaker: 0)
        #expect(Gate(threshold: 0.5, calibration: calibrated).judge(other, isPhrase: true).stoppedBy == .otherSpeaker)
        #expect(Gate(threshold: 0.5, speakerCheck: false, calibration: calibrated).judge(other, isPhrase: true) == .sure(0.9))
        #expect(Self.gate.judge(other, isPhrase: true) == .sure(0.9), "the stock model has no check")
        // An utterance with no score (no speech frames, or everyday words) is not stopped by it.
        var unscored = other
        unscored.features?.speakerScore = nil
        #expect(Gate(threshold: 0.5, calibration: calibrated).judge(unscored, isPhrase: true) == .sure(0.9))
    }

    @Test func theCalibrationRaisesTheThresholdAndLowersTheShortestPhone() {
        let raised = Gate(threshold: 0.5, rejectBelow: 0.3, calibration: Gate.Calibration(threshold: 0.8))
        #expect(raised.threshold == 0.8)
        #expect(raised.judge(Self.recognition("list", 0.7), isPhrase: true) == .unsure(0.7))
        #expect(Gate(threshold: 0.9, calibration: Gate.Calibration(threshold: 0.8)).threshold == 0.9, "never lowered")
        // 5.5 frames a phone: no command for the stock confidence, a command for a fast
        // speaker whose takes allow 5.
        let fast = Confidence.Features(frames: 60, wordFrames: 33, phones: 6, runnerUpGap: 500)
        #expect(Confidence.probability(fast) == 0)
        let heard = Self.recognition("show one", 0, features: fast)
        #expect(Self.gate.judge(heard, isPhrase: true).stoppedBy == .confidence)
        let forThem = Gate(threshold: 0.5, calibration: Gate.Calibration(framesPerPhoneFloor: 5))
        #expect(forThem.judge(heard, isPhrase: true).isSure)
    }

    /// The gate of the settings: voice.threshold, voice.reject_below (never above the
    /// threshold) and voice.speaker_check.
    @Test func theSettingsMakeTheGate() {
        var settings = Settings()
        settings.voiceThreshold = 0.6
        settings.voiceRejectBelow = 0.7
        settings.speakerCheck = false
        let gate = Gate(settings: settings, calibration: Gate.Calibration(speaker: 1))
        #expect(gate.threshold == 0.6)
        #expect(gate.rejectBelow == 0.6)
        #expect(gate.speaker == nil)
    }

    /// The checks that say how speech was heard (shown at the prompt when a command is not
    /// taken) are not the prompt's state.
    @Test func hearingChecksAreTheOnesAPersonIsTold() {
        #expect(Gate.Check.allCases.filter(\.isHearing) == [.otherSpeaker, .unclearWord, .confidence, .notStandAlone])
    }
}
