import Foundation
import Testing
import VshCore
import VshTestSupport
@testable import VshVoice

/// Dictation stopped by hand keeps what was being said, and leaves the recogniser ready
/// for the next recording.
@Suite struct DictationPipelineTests {
    /// Says "words N" for the Nth whole utterance; live, reports how much audio it has.
    final class CountingDictation: StreamingRecognizer {
        var begun = 0, ended = 0, whole = 0
        var live = 0
        /// What the Nth whole utterance says.
        var say: (Int) -> String = { "words\($0)" }
        func recognize(_ samples: [Int16], start: Double) -> Recognition {
            whole += 1
            return Recognition(
                words: say(whole).split(separator: " ").map { RecognizedWord(word: String($0), start: start, end: start, confidence: 1) },
                confidence: 1)
        }
        func begin(at start: Double) {
            begun += 1
            live = 0
        }
        func feed(_ samples: [Int16]) -> String {
            live += samples.count
            return "so far \(live)"
        }
        func end() -> Recognition {
            ended += 1
            return Recognition(words: [], confidence: 0)
        }
    }

    static func pipeline(_ audio: [Int16], _ recognizer: CountingDictation) -> DictationPipeline {
        DictationPipeline(
            source: FakeAudioSource(audio), frontEnd: nil, useProcessed: false, endpointer: Endpointer(),
            recognizer: recognizer, interim: true)
    }

    @Test func stoppingMidSentenceDecodesWhatWasSaid() throws {
        // One second of quiet, then speech that is still going when the stop comes.
        let audio = TestSignal.bursts([1, 3])
        let recognizer = CountingDictation()
        var read = 0
        var utterances: [String] = []
        var partials = 0
        try Self.pipeline(audio, recognizer).run(onAudio: { chunk in
            read += chunk.count
            return read < 2 * AudioFormat.sampleRate  // Enter, a second into the speech
        }) { event in
            switch event {
            case .utterance(let r, _, let end):
                utterances.append(r.text)
                #expect(end > 1.5 && end <= 2.05, "the utterance ends at the stop, not at \(end)")
            case .partial: partials += 1
            case .speechStarted, .stopPhrase, .transcribing: break
            }
            return true
        }
        #expect(partials > 0, "the words were shown live")
        #expect(utterances == ["words1"], "the speech under way at the stop was decoded")
        // The live decode was ended: the next recording does not begin with these words.
        #expect(recognizer.begun == recognizer.ended)
    }

    /// Dictation of `audio`, its short utterances heard first by `stop` (answering in
    /// turn): what each utterance became, "STOP" for the stop phrase.
    static func dictate(_ audio: [Int16], stop: FakeRecognizer, threshold: Double = 0.5) throws -> [String] {
        let pipeline = Self.pipeline(audio, CountingDictation())
        pipeline.stop = SpokenStop(recognizer: stop, phrase: ["stop", "recording"], gate: Gate(threshold: threshold))
        var events: [String] = []
        try pipeline.run { event in
            switch event {
            case .utterance(let r, _, _): events.append(r.text)
            case .stopPhrase(let r, let start, _): events.append(String(format: "STOP %@ at %.1f", r.text, start))
            case .speechStarted, .partial, .transcribing: break
            }
            return true
        }
        return events
    }

    /// A short utterance heard as the stop phrase, as the prompt hears a command (the
    /// phrase against other words, with a confidence), ends dictation and is not written
    /// down; a long one (a sentence) is never decoded for it.
    @Test func theStopPhraseSaidOnItsOwnEndsDictation() throws {
        // A sentence of four syllables (gaps shorter than the endpointer's hangover), a
        // short phrase, then more speech.
        let audio = TestSignal.bursts([1, 0.8, 0.15, 0.8, 0.15, 0.8, 0.15, 0.8, 1.2, 1, 1.5, 0.8, 1])
        let stop = FakeRecognizer([(["stop", "recording"], 0.98)])
        let events = try Self.dictate(audio, stop: stop)
        #expect(events.count == 3, "\(events)")
        #expect(events.first == "words1", "the 3.65 s sentence is dictated, not taken for the stop")
        #expect(events[1].hasPrefix("STOP stop recording at "), "\(events)")
        #expect(stop.calls == 2, "only the two short utterances are heard for the stop")
    }

    /// What the stop's recogniser hears as other words, as "stop" alone (a form of the
    /// stop command, but said alone it is too often another word), or with too little
    /// confidence, is dictated: the recording goes on.
    @Test func anythingButASureStopPhraseIsDictated() throws {
        let audio = TestSignal.bursts([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        let stop = FakeRecognizer([
            (["stop", "reporting"], 0), (["top", "floor"], 0), (["stop"], 0.9), (["stop", "recording"], 0.3),
            (["stop", "recording(2)"], 0.6),
        ])
        let events = try Self.dictate(audio, stop: stop)
        #expect(events.map { $0.hasPrefix("STOP") } == [false, false, false, false, true], "\(events)")
    }

    /// An utterance dictated whole whose words end in the phrase stops too, after the
    /// words before it, which are dictated; the stop is reported once, as `.stopPhrase`.
    /// Without the stop's recogniser (it could not load) that is all that is looked for.
    @Test func dictatedWordsThatEndInThePhraseStopAfterTheRest() throws {
        // A 4 s utterance, too long to be heard for the stop, then a short one.
        let audio = TestSignal.bursts([1, 4, 1, 1, 1], syllables: 4)
        let phrase = ["stop", "recording"]
        for stop in [SpokenStop(recognizer: FakeRecognizer([]), phrase: phrase, gate: Gate(threshold: 0.5)),
                     SpokenStop(phrase: phrase)] {
            let recognizer = CountingDictation()
            recognizer.say = { $0 == 1 ? "buy milk stop recording" : "stop recording" }
            let pipeline = Self.pipeline(audio, recognizer)
            pipeline.stop = stop
            var events: [String] = []
            try pipeline.run { event in
                switch event {
                case .utterance(let r, _, _): events.append(r.text)
                case .stopPhrase(let r, _, _): events.append("STOP " + r.text)
                case .speechStarted, .partial, .transcribing: break
                }
                return true
            }
            #expect(events == ["buy milk", "STOP stop recording", "STOP stop recording"], "\(events)")
        }
        // Without a stop, the words are dictation's, whatever they say.
        let recognizer = CountingDictation()
        recognizer.say = { _ in "stop recording" }
        var texts: [String] = []
        try Self.pipeline(audio, recognizer).run { event in
            if case .utterance(let r, _, _) = event { texts.append(r.text) }
            return true
        }
        #expect(texts == ["stop recording", "stop recording"])
    }

    @Test func aStopInSilenceDecodesNothingMore() throws {
        let audio = TestSignal.bursts([1, 0.6, 2])
        let recognizer = CountingDictation()
        var read = 0
        var utterances = 0
        try Self.pipeline(audio, recognizer).run(onAudio: { chunk in
            read += chunk.count
            return read < Int(2.8 * Double(AudioFormat.sampleRate))
        }) { event in
            if case .utterance = event { utterances += 1 }
            return true
        }
        #expect(utterances == 1)
        #expect(recognizer.whole == 1)
        #expect(recognizer.begun == recognizer.ended)
    }
}

/// A DC offset is no sound: the voice pipeline hears the same utterances with or without it.
@Suite struct DCOffsetTests {
    @Test func theBlockerRemovesAnOffsetAndKeepsSpeech() {
        var offset = [Int16](repeating: 2_000, count: 16_000)
        var blocker = DCBlocker()
        blocker.process(&offset)
        #expect(offset.allSatisfy { abs($0) <= 1 }, "the offset is gone from the first sample: no step, no click")
        var tone = (0..<16_000).map { Int16(8_000 * sin(2 * Double.pi * 300 * Double($0) / 16_000)) }
        var fresh = DCBlocker()
        fresh.process(&tone)
        let peak = tone.suffix(8_000).map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 7_900 && peak < 8_100, "a 300 Hz tone keeps its level: \(peak)")
    }

    /// Room noise with an offset comes out as the same noise without one, sample for sample.
    @Test func anOffsetFromTheFirstSampleLeavesTheSameAudio() {
        let room = TestSignal.bursts([0.5])
        var (plain, shifted) = (room, room.map { $0 + 1_000 })
        var (a, b) = (DCBlocker(), DCBlocker())
        a.process(&plain)
        b.process(&shifted)
        let worst = zip(plain, shifted).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "the offset left a difference of \(worst)")
    }

    @Test func anOffsetDoesNotMoveTheUtterances() throws {
        let clean = TestSignal.bursts([1, 0.6, 1.2, 0.8, 1])
        let shifted = clean.map { Int16(clamping: Int($0) + 3_000) }
        func utterances(_ audio: [Int16]) throws -> [String] {
            let pipeline = VoicePipeline(
                source: FakeAudioSource(audio), frontEnd: nil, endpointer: Endpointer(),
                recognizer: FakeRecognizer([(["list"], 0.9), (["help"], 0.9)]))
            var found: [String] = []
            try pipeline.run { event in
                if case .utterance(let u) = event { found.append(String(format: "%@ %.2f-%.2f", u.recognition.text, u.segment.start, u.segment.end)) }
                return true
            }
            return found
        }
        let expected = try utterances(clean)
        #expect(expected.count == 2)
        #expect(try utterances(shifted) == expected)
    }
}
