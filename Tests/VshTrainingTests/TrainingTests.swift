import Foundation
import Testing
import VshCore
import VshStore
import VshVoice
import VshTestSupport
@testable import VshTraining

/// `train`'s parts that need no model: the script, the take check, the recording of
/// takes (with a fake microphone), and which model is loaded.
@Suite struct TrainingTests {
    /// The voice pipeline with a recogniser that hears the takes as `heard` says, in turn.
    static func factory(heard: [([String], Double)] = []) -> VoiceFactory {
        var settings = Settings()
        settings.denoise = .off
        return VoiceFactory(settings: settings, frontEnd: { _, _ in PassThroughPreprocessor() },
                         recognizer: { _ in FakeRecognizer(heard) })
    }

    /// Records `script` from `audio`, answering each poll for a stop from `keys` in turn.
    static func record(
        _ audio: [Int16], script: [String], asking: [Int]? = nil, keys: [String?] = [], takes: TrainingTakes,
        heard: [([String], Double)] = []
    ) throws -> (TakeRecorder.Ending, Int, [TakeRecorder.Event]) {
        var keys = keys[...]
        var events: [TakeRecorder.Event] = []
        let (ending, next) = try TakeRecorder(factory: factory(heard: heard), takes: takes).run(
            source: FakeAudioSource(audio), script: script, asking: asking ?? Array(script.indices),
            shouldStop: { keys.popFirst() ?? nil }, event: { if case .level = $0 {} else { events.append($0) } })
        return (ending, next, events)
    }

    @Test func theScriptHasTheCommandWordsDigitsAndSentencesInAFixedOrder() {
        let script = TrainingScript.phrases(vocabulary: ["record", "list", "play", "save", "delete", "one", "seven", "oh"])
        #expect(script.first == "delete list play record")
        #expect(script[1] == "save")
        #expect(!script.contains { $0.split(separator: " ").contains("seven") && !TrainingScript.digits.contains($0) })
        #expect(script.filter(TrainingScript.digits.contains).count == TrainingScript.digits.count)
        #expect(script.filter(TrainingScript.sentences.contains).count == TrainingScript.sentences.count)
        #expect(script == TrainingScript.phrases(vocabulary: ["save", "play", "list", "record", "delete", "one", "seven", "oh"]))
    }

    @Test func aTakeTooQuietClippedNoisyOrShortIsAskedAgain() {
        let speech = TestSignal.bursts([0.2, 0.8, 0.2])
        #expect(TakeCheck.problem(speech, words: 3, speech: 0.8, padded: true) == nil)
        #expect(TakeCheck.problem(speech.map { $0 / 100 }, words: 3)?.hasPrefix("too quiet") == true)
        #expect(TakeCheck.problem(speech.map { Int16(clamping: Int($0) * 20) }, words: 3)?.hasPrefix("too loud") == true)
        let noisy = zip(speech, TestSignal.bursts([1.2], seed: 3).map { $0 * 20 }).map { Int16(clamping: Int($0) + Int($1)) }
        #expect(TakeCheck.problem(noisy, words: 3, speech: 0.8, padded: true)?.hasPrefix("drowned in noise") == true)
        #expect(TakeCheck.problem(noisy, words: 3) == nil)
        #expect(TakeCheck.problem(speech, words: 12, speech: 0.8, padded: true)?.hasPrefix("too short") == true)
    }

    @Test func eachPhraseSpokenIsKeptWithItsWords() throws {
        let dir = TempDirectory("takes")
        let takes = TrainingTakes(store: dir.path)
        let audio = TestSignal.bursts([0.5, 0.8, 0.8, 0.8, 0.8, 0.8, 1.0])
        let (ending, next, events) = try Self.record(audio, script: ["record list", "play save", "help back"], takes: takes)
        #expect(ending == .finished)
        #expect(next == 3)
        #expect(takes.all().map(\.name) == ["001", "002", "003"])
        #expect(takes.all().map(\.words) == ["record list", "play save", "help back"])
        #expect(events.filter { if case .kept = $0 { true } else { false } }.count == 3)
        // A take is a WAV of the utterance with its padding.
        let size = (try FileManager.default.attributesOfItem(atPath: takes.all()[0].audioPath)[.size] as? Int) ?? 0
        #expect(size > 44 + 2 * 16_000)
    }

    @Test func aTakeHeardSurelyAsAnotherPhraseIsAskedAgain() throws {
        let dir = TempDirectory("takes")
        defer { dir.remove() }
        let takes = TrainingTakes(store: dir.path)
        let audio = TestSignal.bursts([0.5, 0.8, 0.8, 0.8, 0.8, 0.8, 1.0])
        // The first take sounds surely like the second phrase; the next like its own; the
        // third like the first phrase, but not surely (a hard word is no wrong word).
        let (ending, _, events) = try Self.record(
            audio, script: ["record list", "play save"], takes: takes,
            heard: [(["play", "save"], 0.92), (["record", "list"], 0.95), (["record", "list"], 0.4)])
        #expect(ending == .finished)
        #expect(events.contains(.unfit("it sounded like \"play save\": say \"record list\"")), "\(events)")
        #expect(events.contains(.phrase(index: 0, total: 2, words: "record list", again: true)))
        #expect(takes.all().map(\.words) == ["record list", "play save"])
    }

    @Test func aTakeSetAsideIsAskedForAgainAndKept() throws {
        let dir = TempDirectory("takes")
        defer { dir.remove() }
        let takes = TrainingTakes(store: dir.path)
        let take = try takes.save([1, 2, 3], words: "record list", name: TrainingTakes.scriptName(0))
        try takes.save([4, 5, 6], words: "play save", name: TrainingTakes.scriptName(1))
        try takes.setAside(take)
        #expect(takes.all().map(\.words) == ["play save"], "its phrase counts as not recorded")
        #expect(FileManager.default.fileExists(atPath: takes.directory + "/.left-out/001.wav"), "nothing is lost")
        #expect(FileManager.default.fileExists(atPath: takes.directory + "/.left-out/001.txt"))
    }

    @Test func skipRedoAndStopAsTheKeysSay() throws {
        let dir = TempDirectory("takes")
        let takes = TrainingTakes(store: dir.path)
        let audio = TestSignal.bursts([0.5, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 1.0])
        // "s" at the first read skips phrase 1; the first burst is phrase 2's.
        var (ending, next, events) = try Self.record(audio, script: ["a b", "c d", "e f", "g h"], keys: ["s"], takes: takes)
        #expect(events.first == .phrase(index: 0, total: 4, words: "a b", again: false))
        #expect(events.contains(.skipped(index: 0)))
        #expect(ending == .finished)
        #expect(takes.all().map(\.name) == ["002", "003", "004"])

        // Enter stops: what was said is kept, and the next run goes on from there.
        let fresh = TrainingTakes(store: TempDirectory("takes2").path)
        let keys: [String?] = Array(repeating: nil, count: 60) + ["Enter"]
        (ending, next, events) = try Self.record(audio, script: ["a b", "c d", "e f", "g h"], keys: keys, takes: fresh)
        #expect(ending == .stopped("Enter"))
        #expect(next == 1)
        #expect(fresh.all().map(\.name) == ["001"])

        // Only the phrases asked for; "r" goes back to the one asked before.
        (ending, next, events) = try Self.record(audio, script: ["a b", "c d", "e f", "g h"], asking: [1, 3],
                                                 keys: Array(repeating: nil, count: 60) + ["r"], takes: fresh)
        #expect(events.contains(.phrase(index: 3, total: 4, words: "g h", again: false)))
        #expect(events.contains(.phrase(index: 1, total: 4, words: "c d", again: true)))
        #expect(!events.contains { if case .phrase(2, _, _, _) = $0 { true } else { false } })
        #expect(ending == .finished)
    }

    @Test func aPhraseClippedThreeTimesIsSkipped() throws {
        let dir = TempDirectory("takes")
        let takes = TrainingTakes(store: dir.path)
        // Bursts that clip: speech to the endpointer, unfit to keep.
        var audio = TestSignal.bursts([0.5, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8], tone: 60_000)
        audio += TestSignal.bursts([0.8, 1.0])
        let (ending, _, events) = try Self.record(audio, script: ["a b", "c d"], takes: takes)
        #expect(events.filter { if case .unfit = $0 { true } else { false } }.count == 3)
        #expect(events.contains(.skipped(index: 0)))
        #expect(ending == .finished)
        #expect(takes.all().map(\.name) == ["002"])
    }

    @Test func theThresholdRisesUntilFewOfThePersonsNonCommandsPass() {
        // 20 takes that are no command: at most one (5%) may pass.
        let confidences = (0..<20).map { Double($0) / 20 }  // 0.00 … 0.95
        let raised = ThresholdCalibration.threshold(nonCommands: confidences, configured: 0.5)
        #expect(confidences.filter { $0 >= raised }.count <= 1)
        #expect(confidences.filter { $0 >= raised - 0.06 }.count > 1, "raised no further than needed")
        // Never lowered, not from too few takes, and not where no threshold under the ceiling
        // keeps them out (it would turn every command away and not them).
        #expect(ThresholdCalibration.threshold(nonCommands: Array(repeating: 0.1, count: 20), configured: 0.5) == 0.5)
        #expect(ThresholdCalibration.threshold(nonCommands: Array(repeating: 0.99, count: 20), configured: 0.5) == 0.5)
        #expect(ThresholdCalibration.threshold(nonCommands: Array(repeating: 0.94, count: 20), configured: 0.5) == 0.95)
        #expect(ThresholdCalibration.threshold(nonCommands: [0.9, 0.9, 0.9], configured: 0.5) == 0.5)
        // In use only with the adapted model that carries it.
        var model = AdaptedModel(base: "/m", takes: 20, seconds: 40, recipe: "mllr+map")
        model.gates.threshold = 0.8
        #expect(Gate(threshold: 0.5, calibration: model.calibration).threshold == 0.8)
        #expect(Gate(threshold: 0.9, calibration: model.calibration).threshold == 0.9, "never lowered")
        #expect(Gate(threshold: 0.5).threshold == 0.5, "the stock model's gate")
    }

    /// The speaker check is kept only where a threshold set on the takes changed all but
    /// one way still keeps 95% of them changed that way: a score that follows the
    /// recording stops the person when their set-up changes, and is left off, with why.
    @Test func theSpeakerCheckIsKeptOnlyWhereItKeepsThePersonHoweverRecorded() {
        let variants = SpeakerCalibration.Variant.allCases.count
        // A voice whose scores move little with the recording: the check is set.
        let steady = (0..<30).map { take in (0..<variants).map { v -> Double? in 1 + Double(take % 10) / 10 - Double(v) / 50 } }
        let kept = SpeakerCalibration.calibrate(steady)
        #expect(kept.threshold != nil && kept.why == nil)
        #expect(kept.kept >= SpeakerCalibration.keep)
        // The same voice through a narrow-band microphone scores a nat lower: off, and why.
        let narrow = SpeakerCalibration.Variant.allCases.firstIndex(of: .narrowBand)!
        let moved = steady.map { scores in scores.enumerated().map { $0.offset == narrow ? $0.element.map { $0 - 1 } : $0.element } }
        let off = SpeakerCalibration.calibrate(moved)
        #expect(off.threshold == nil)
        #expect(off.why?.contains("through a narrow-band microphone") == true, "\(off.why ?? "")")
        #expect(off.kept < SpeakerCalibration.keep)
        // Too few takes (or a variant with no speech in most of them) to say.
        #expect(SpeakerCalibration.calibrate(Array(steady.prefix(5))).why == "too few takes to calibrate it on")
    }

    /// The ways a take is changed are what they say.
    @Test func eachVariantChangesATakeAsASetUpWould() {
        let tone = { (hz: Double, n: Int) in (0..<n).map { Int16(8_000 * sin(2 * .pi * hz * Double($0) / 16_000)) } }
        let room = [Int16](repeating: 3, count: 4_000)
        let take = room + tone(1_000, 8_000) + room
        func rms(_ x: [Int16]) -> Double { (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, x.count))).squareRoot() }
        #expect(SpeakerCalibration.Variant.asSaid.apply(take) == take)
        #expect(abs(rms(SpeakerCalibration.Variant.softer.apply(take)) - rms(take) / 4) < 2)
        let quiet = SpeakerCalibration.Variant.afterQuiet.apply(take)
        #expect(quiet.count == take.count + 16_000 && quiet.suffix(take.count) == take[...] && rms(Array(quiet.prefix(16_000))) < 4)
        #expect(SpeakerCalibration.Variant.cutTight.apply(take).count == 8_000, "the room around it is gone")
        // Nothing over 3.6 kHz: a 6 kHz tone is gone, a 1 kHz one stays.
        #expect(rms(SpeakerCalibration.Variant.narrowBand.apply(tone(6_000, 8_000))) < 0.02 * rms(tone(6_000, 8_000)))
        #expect(abs(rms(SpeakerCalibration.Variant.narrowBand.apply(tone(1_000, 8_000))) / rms(tone(1_000, 8_000)) - 1) < 0.05)
    }

    @Test func aFastSpeakersShortestPhoneIsAllowedDownToAFloor() {
        let slow = (0..<50).map { 6.5 + Double($0) / 10 }
        #expect(FramesCalibration.floor(framesPerPhone: slow, stock: 6) == nil, "the stock gate already fits")
        let fast = [5.27] + (0..<49).map { 5.8 + Double($0) / 10 }
        #expect(FramesCalibration.floor(framesPerPhone: fast, stock: 6) == 5.2, "the person's 1st percentile")
        let clicks = [3.1] + (0..<49).map { 5.8 + Double($0) / 10 }
        #expect(FramesCalibration.floor(framesPerPhone: clicks, stock: 6) == FramesCalibration.lowest, "never under the floor")
        #expect(FramesCalibration.floor(framesPerPhone: Array(fast.prefix(9)), stock: 6) == nil, "too few takes to say")
    }

    @Test func theSpeakerThresholdLiesAMarginUnderThePersonsOwnTakes() throws {
        // 21 takes scoring 0.0 … 2.0: the 5th percentile is 0.1, their standard deviation
        // 0.606, the threshold 0.1 − 0.75 × 0.606.
        let scores = (0...20).map { Double($0) / 10 }.shuffled()
        #expect(SpeakerCalibration.threshold(scores) == -0.354)
        #expect(SpeakerCalibration.threshold([1, 1, 1]) == nil, "too few takes to say")
        // In use only with the adapted model that carries it, and while the check is on.
        var model = AdaptedModel(base: "/m", takes: 21, seconds: 40, recipe: "mllr+map")
        #expect(Gate(threshold: 0.5, calibration: model.calibration).speaker == nil, "a model adapted before the check has none")
        model.gates.speakerThreshold = -0.4
        #expect(Gate(threshold: 0.5, calibration: model.calibration).speaker == -0.4)
        #expect(Gate(threshold: 0.5, speakerCheck: false, calibration: model.calibration).speaker == nil)
        #expect(Gate(threshold: 0.5).speaker == nil)
        // The manifest keeps it.
        let data = try JSONEncoder().encode(model)
        #expect(try JSONDecoder().decode(AdaptedModel.self, from: data).gates.speakerThreshold == -0.4)
    }

    /// `adaptation.json` keeps what `train`'s check set (`Gates`) beside the model's own
    /// fields, as it did before they were one value: a manifest written then reads the
    /// same, and is written back byte for byte.
    @Test func theManifestKeepsTheGatesBesideTheModelsOwnFields() throws {
        let written = #"{"base":"stock","baseFingerprint":"mdef:1:2","calibrationTakes":12,"created":"2026-11-01T10:00:00Z","#
            + #""framesPerPhoneFloor":5.2,"learnedFromUse":["use-1"],"leftOut":["007"],"recipe":"mllr+map","seconds":40,"#
            + #""speakerCheckOff":"too few takes","speakerTakes":20,"speakerThreshold":-0.4,"takes":20,"threshold":0.7}"#
        let model = try JSONDecoder().decode(AdaptedModel.self, from: Data(written.utf8))
        var gates = Gates()
        gates.threshold = 0.7
        gates.calibrationTakes = 12
        gates.speakerThreshold = -0.4
        gates.speakerTakes = 20
        gates.speakerCheckOff = "too few takes"
        gates.leftOut = ["007"]
        gates.framesPerPhoneFloor = 5.2
        #expect(model.gates == gates)
        #expect(model.learnedFromUse == ["use-1"] && model.takes == 20 && model.base == "stock")
        #expect(model.calibration == Gate.Calibration(threshold: 0.7, speaker: -0.4, framesPerPhoneFloor: 5.2))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let again = String(decoding: try encoder.encode(model), as: UTF8.self)
        #expect(again == written, "\(again)")
    }

    @Test func theAdaptedModelIsLoadedOnlyWhileItMatchesItsBase() throws {
        let dir = TempDirectory("model")
        let base = dir.file("stock")
        let store = dir.file("store")
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        for name in AdaptedModel.modelFiles + ["sendump"] { dir.write(name, to: "stock/" + name) }
        /// Sets the modification time of the stock model's `means`.
        func touchMeans(nanoseconds: Int) {
            let time = timespec(tv_sec: 1_700_000_000, tv_nsec: nanoseconds)
            #expect(utimensat(AT_FDCWD, base + "/means", [time, time], 0) == 0)
        }
        touchMeans(nanoseconds: 100)
        #expect(AdaptedModel.use(store: store, base: base) == .stock)
        #expect(AdaptedModel.acousticModel(store: store, base: base) == base)

        let adapted = AdaptedModel.directory(store: store)
        try FileManager.default.createDirectory(atPath: adapted, withIntermediateDirectories: true)
        for name in AdaptedModel.modelFiles + ["sendump"] { dir.write(name, to: "store/model/" + name) }
        let model = AdaptedModel(base: base, takes: 50, seconds: 100, recipe: "mllr+map")
        try model.write(into: adapted)
        #expect(AdaptedModel.use(store: store, base: base) == .adapted(model, directory: adapted))
        #expect(AdaptedModel.acousticModel(store: store, base: base) == adapted)
        // A manifest written when the fingerprint kept whole seconds is in use too.
        var older = model
        older.baseFingerprint = AdaptedModel.fingerprint(of: base, wholeSeconds: true)
        try older.write(into: adapted)
        #expect(AdaptedModel.use(store: store, base: base) == .adapted(older, directory: adapted))
        try model.write(into: adapted)

        // The stock model was updated within the same second, to the same size: the
        // adaptation is set aside, saying why (the time is kept to the nanosecond, so no
        // test has to wait for the next second).
        dir.write("means", to: "stock/means")
        touchMeans(nanoseconds: 200)
        guard case .setAside(let why) = AdaptedModel.use(store: store, base: base) else {
            Issue.record("an adaptation of an older model was loaded")
            return
        }
        #expect(why.contains("train --again"))
        #expect(AdaptedModel.acousticModel(store: store, base: base) == base)
    }
}
