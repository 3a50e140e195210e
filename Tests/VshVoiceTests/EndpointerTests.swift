import Foundation
import Testing
@testable import VshCore
@testable import VshVoice
@testable import VshCommands
import VshTestSupport

@Suite struct EndpointerTests {
    /// Quiet noise with tone bursts: each burst is one utterance, padded, in stream time.
    static func signal(_ parts: [(seconds: Double, tone: Bool)]) -> [Int16] {
        var seed: UInt64 = 20261121  // a fixed LCG: the same noise every run
        var out: [Int16] = []
        for part in parts {
            let n = Int(part.seconds * 16_000)
            for i in 0..<n {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let noise = Double(Int(seed >> 33) % 121 - 60)
                let tone = part.tone ? 6_000 * sin(2 * Double.pi * 440 * Double(i) / 16_000) : 0
                out.append(Int16(noise + tone))
            }
        }
        return out
    }

    static func run(_ samples: [Int16], _ settings: Endpointer.Settings = .init(), chunk: Int = 512) -> [Endpointer.Event] {
        let ep = Endpointer(settings: settings)
        var events: [Endpointer.Event] = []
        var i = 0
        while i < samples.count {
            events += ep.feed(Array(samples[i..<min(i + chunk, samples.count)]))
            i += chunk
        }
        return events + ep.finish()
    }

    static func utterances(_ events: [Endpointer.Event]) -> [(start: Double, end: Double, count: Int)] {
        events.compactMap {
            if case .utterance(let s) = $0 { return (s.start, s.end, s.samples.count) }
            return nil
        }
    }

    /// The quiet before each utterance's speech, since the last one's: what tells a
    /// command said after a silence from a word that runs on from talk.
    @Test func eachUtteranceKnowsTheQuietBeforeIt() {
        let audio = Self.signal([(1.0, false), (0.5, true), (0.45, false), (0.5, true), (1.5, false), (0.5, true), (0.8, false)])
        let quiet = Self.run(audio).compactMap { event -> Double? in
            if case .utterance(let s) = event { return s.quietBefore }
            return nil
        }
        #expect(quiet.count == 3)
        guard quiet.count == 3 else { return }
        #expect(quiet[0] == .infinity, "nothing was said before the first")
        #expect(abs(quiet[1] - 0.45) < 0.05, "\(quiet[1])")
        #expect(abs(quiet[2] - 1.5) < 0.05, "\(quiet[2])")
    }

    @Test func twoBurstsMakeTwoPaddedUtterances() {
        let audio = Self.signal([(1.0, false), (0.6, true), (0.8, false), (0.5, true), (0.8, false)])
        var settings = Endpointer.Settings()
        settings.paddingBefore = 250
        settings.paddingAfter = 200
        let events = Self.run(audio, settings)
        let found = Self.utterances(events)
        #expect(found.count == 2)
        guard found.count == 2 else { return }
        // Speech at 1.0–1.6 s and 2.4–2.9 s; 250 ms padding before, 200 ms after.
        #expect(abs(found[0].start - 0.75) < 0.06)
        #expect(abs(found[0].end - 1.8) < 0.06)
        #expect(abs(found[1].start - 2.15) < 0.06)
        #expect(abs(found[1].end - 3.1) < 0.06)
        #expect(found[0].count == Int(((found[0].end - found[0].start) * 16_000).rounded()))
        let starts = events.compactMap { if case .speechStarted(let t) = $0 { return t } else { return nil } }
        #expect(starts.count == 2)
        #expect(abs(starts[0] - 1.0) < 0.03)
    }

    @Test func theSamplesAreTheAudioAtThoseTimes() {
        let audio = Self.signal([(1.0, false), (0.6, true), (1.0, false)])
        let events = Self.run(audio, chunk: 333)
        guard case .utterance(let segment) = events.last else {
            Issue.record("no utterance")
            return
        }
        let offset = Int((segment.start * 16_000).rounded())
        #expect(Array(audio[offset..<offset + segment.samples.count]) == segment.samples)
        #expect(segment.processed == nil)
    }

    /// Padding after speech cannot reach past the moment the endpointer decides (the
    /// audio after that has not arrived yet), so the hangover bounds it.
    @Test func paddingAfterIsBoundedByTheHangover() {
        let audio = Self.signal([(1.0, false), (0.6, true), (1.0, false)])
        let found = Self.utterances(Self.run(audio))  // defaults: 400 ms padding, 300 ms hangover
        #expect(found.count == 1)
        #expect(abs((found.first?.start ?? 0) - 0.6) < 0.06)
        #expect(abs((found.first?.end ?? 0) - 1.9) < 0.06)
    }

    /// Two words with a pause just longer than the hangover: two utterances, and the
    /// second's padding does not reach back over the first word (it would be heard twice).
    @Test func utterancesNeverOverlap() {
        let audio = Self.signal([(1.0, false), (0.4, true), (0.35, false), (0.4, true), (1.0, false)])
        let found = Self.utterances(Self.run(audio))
        #expect(found.count == 2)
        if found.count == 2 { #expect(found[1].start >= found[0].end) }
    }

    @Test func aSegmentKnowsItsSpeechEndDecisionTimeAndLoudness() {
        let audio = Self.signal([(1.0, false), (0.6, true), (1.0, false)])
        guard case .utterance(let segment)? = Self.run(audio).last else {
            Issue.record("no utterance")
            return
        }
        #expect(abs(segment.speechEnd - 1.6) < 0.03)
        #expect(abs(segment.closedAt - segment.speechEnd - 0.3) < 0.02)
        // Pre-emphasised, the 440 Hz tone (amplitude 6000) is about 57 dB and the ±60
        // white noise about 34 dB.
        #expect(abs(segment.snr - 23) < 2)
    }

    /// The front end's output travels beside the raw audio, sample for sample, so the
    /// recogniser can be given either.
    @Test func processedAudioStaysAlignedWithTheRawAudio() {
        let audio = Self.signal([(1.0, false), (0.6, true), (1.0, false)])
        let processed = audio.map { $0 / 2 }
        let ep = Endpointer()
        var events: [Endpointer.Event] = []
        var i = 0
        while i < audio.count {
            let end = min(i + 333, audio.count)
            events += ep.feed(Array(audio[i..<end]), processed: Array(processed[i..<end]))
            i = end
        }
        events += ep.finish()
        guard case .utterance(let segment)? = events.last else {
            Issue.record("no utterance")
            return
        }
        #expect(segment.processed == segment.samples.map { $0 / 2 })
    }

    @Test func clicksAndSilenceAreNotUtterances() {
        #expect(Self.utterances(Self.run(Self.signal([(3.0, false)]))).isEmpty)
        // 60 ms of tone: above the threshold long enough to start, too short to keep.
        #expect(Self.utterances(Self.run(Self.signal([(1.0, false), (0.06, true), (1.0, false)]))).isEmpty)
    }

    @Test func aPauseShorterThanTheHangoverDoesNotSplit() {
        let audio = Self.signal([(1.0, false), (0.4, true), (0.2, false), (0.4, true), (1.0, false)])
        #expect(Self.utterances(Self.run(audio)).count == 1)
        var quick = Endpointer.Settings()
        quick.hangover = 100
        #expect(Self.utterances(Self.run(audio, quick)).count == 2)
    }

    @Test func speechRunningToTheEndIsFinished() {
        let audio = Self.signal([(1.0, false), (0.7, true)])
        #expect(Self.utterances(Self.run(audio)).count == 1)
    }
}

@Suite struct LevelMeterTests {
    @Test(arguments: [
        (-Double.infinity, "····"), (-90.0, "····"), (-60.0, "····"), (-30.0, "██··"), (0.0, "████"), (6.0, "████"),
        (Double.nan, "····"),
    ])
    func bar(_ level: Double, _ expected: String) {
        #expect(LevelMeter.bar(level, width: 4) == expected)
    }

    @Test func levelIsTheRMSOfTheLast100ms() {
        var meter = LevelMeter()
        #expect(meter.level == -.infinity)
        meter.add([Int16](repeating: 16_384, count: 1_600))  // half of full scale: −6 dBFS
        #expect(abs(meter.level - -6.02) < 0.01)
        meter.add([Int16](repeating: 0, count: 1_599))
        #expect(abs(meter.level - -6.02) < 0.01, "not updated before 100 ms have passed")
    }
}

extension EndpointerTests {
    /// Noise after quiet: `quiet` seconds of ±60 noise, then ±`level` noise to the end, with
    /// tone bursts (0.6 s) at `tones` seconds.
    static func noiseStep(quiet: Double, total: Double, level: Int, tones: [Double]) -> [Int16] {
        var seed: UInt64 = 7
        var out = [Int16](repeating: 0, count: Int(total * 16_000))
        for i in out.indices {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let t = Double(i) / 16_000
            let range = t < quiet ? 60 : level
            var value = Double(Int(seed >> 33) % (2 * range + 1) - range)
            for start in tones where t >= start && t < start + 0.6 {
                value += 12_000 * sin(2 * Double.pi * 440 * t)
            }
            out[i] = Int16(max(-32_768, min(32_767, value)))
        }
        return out
    }

    /// A fan switched on (the background 20 dB up at once) is heard as speech only until
    /// the endpointer sees it is steady (1 s), not for 15 s at a time, and that second is
    /// no utterance to decode; a command said over it a few seconds later is its own.
    @Test func aStepUpInTheBackgroundIsNotHeardAsSpeechForLong() {
        let audio = Self.noiseStep(quiet: 2, total: 12, level: 600, tones: [6, 9])
        let found = Self.utterances(Self.run(audio))
        #expect(found.count == 2, "\(found)")
        guard found.count == 2 else { return }
        #expect(abs(found[0].start - (6 - 0.4)) < 0.1 && abs(found[0].end - (6.6 + 0.4)) < 0.1)
        #expect(abs(found[1].start - (9 - 0.4)) < 0.1 && abs(found[1].end - (9.6 + 0.4)) < 0.1)
    }

    /// A word, then a louder room at once (the fan came on, or the next clip of a stream
    /// was recorded elsewhere), then another word 2.5 s later. The room's 10 ms levels
    /// swing by about 2 dB, as coloured noise's do and white noise's do not: at a 1 dB steady
    /// rule it was speech, and the two words were one utterance of 4 s. Each word is its
    /// own, the first ending where its speech did.
    @Test func aWordBeforeALouderColouredRoomEndsWithTheWord() {
        var random = SplitMix64(seed: 20261202)
        func room(_ seconds: Double, _ amplitude: Double, swing: Double) -> [Double] {
            // White noise whose level wanders from one 10 ms to the next by `swing` dB
            // (standard deviation), as a room's hum and rumble do.
            var gain = 1.0
            return (0..<Int(seconds * 16_000)).map { i in
                if i % 160 == 0 { gain = pow(10, swing * random.roughGaussian() / 20) }
                return amplitude * gain * random.roughGaussian()
            }
        }
        func tone(_ seconds: Double) -> [Double] {
            (0..<Int(seconds * 16_000)).map { 6_000 * sin(2 * Double.pi * 440 * Double($0) / 16_000) }
        }
        let quiet = room(1, 6, swing: 0), loud = room(2.5, 60, swing: 1.8)
        let audio = (quiet + tone(0.5) + loud + tone(0.5) + room(1.5, 60, swing: 1.8)).map { Int16(max(-32_768, min(32_767, $0))) }
        let swing = Self.levelDeviation(loud.map { Int16($0) })
        #expect(swing > 1.5 && swing < 2.5, "the room's 10 ms levels swing by \(swing) dB")
        let found = Self.utterances(Self.run(audio))
        #expect(found.count == 2, "\(found)")
        guard found.count == 2 else { return }
        #expect(abs(found[0].start - (1 - 0.4)) < 0.1 && abs(found[0].end - (1.5 + 0.4)) < 0.1, "\(found)")
        #expect(abs(found[1].start - (4 - 0.4)) < 0.1 && found[1].end > 4.5, "\(found[1])")
    }

    /// After an utterance that ended early, a word said seconds later in a room that
    /// ticks (a clock: a frame 6 dB over the room every 0.2 s, past the hold threshold, never
    /// `hangover` of quiet in a row) is no continuation of it: with the full hangover the
    /// room's steady second would have closed that utterance, as it closes one in speech.
    /// A word 0.2 s after it still continues it.
    @Test func aWordSecondsAfterAnEarlyEndInATickingRoomIsItsOwn() {
        var random = SplitMix64(seed: 20261204)
        func room(_ seconds: Double, ticks: Bool = false) -> [Double] {
            (0..<Int(seconds * 16_000)).map { i in
                let tick = ticks && i >= 2_400 && (i - 2_400) % 3_200 < 160
                return (tick ? 60 : 30) * random.roughGaussian()
            }
        }
        func tone(_ seconds: Double) -> [Double] {
            (0..<Int(seconds * 16_000)).map { 6_000 * sin(2 * Double.pi * 440 * Double($0) / 16_000) }
        }
        var settings = Endpointer.Settings()
        settings.earlyPause = 120
        for (gap, continues) in [(0.2, true), (2.3, false)] {
            let parts = room(1) + tone(0.5) + room(gap, ticks: true) + tone(0.5) + room(1.5)
            let endpointer = Endpointer(settings: settings)
            endpointer.endsEarly = { _ in .end }
            let events = endpointer.feed(parts.map { Int16(max(-32_768, min(32_767, $0))) }) + endpointer.finish()
            let segments = events.compactMap { if case .utterance(let s) = $0 { s } else { nil } }
            #expect(segments.count == 2 && segments.first?.early == true, "gap \(gap) s: \(segments.map { ($0.start, $0.end, $0.early) })")
            #expect(segments.map(\.continuesEarly) == [false, continues], "gap \(gap) s")
        }
    }

    /// A loud coloured room comes on 0.7 s before a word said barely over it (its
    /// syllables 6 dB over the room's level, as a word in pink noise 10 dB under it is to
    /// the endpointer): its first second swings little more than the room's, but it holds
    /// the word's loudest frames, so it is speech, not the room after it. With the room's
    /// 2.5 dB applied to every second the word was cut off with the room's step and lost.
    @Test func aWordOverARoomThatCameOnJustBeforeItIsHeard() {
        var random = SplitMix64(seed: 20261203)
        var gain = 1.0
        let rate = 16_000.0
        let audio = (0..<Int(4 * rate)).map { i -> Int16 in
            let t = Double(i) / rate
            if i % 160 == 0 { gain = pow(10, 1.8 * random.roughGaussian() / 20) }
            var v = (t < 1 ? 6 : 300 * gain) * random.roughGaussian()
            if t >= 1.7 && t < 2.5 {  // the word: two syllables a quarter of a second each
                let syllable = 0.5 - 0.5 * cos(2 * Double.pi * 4 * (t - 1.7))
                v += 600 * syllable * sin(2 * Double.pi * 2_000 * t)
            }
            return Int16(max(-32_768, min(32_767, v)))
        }
        let found = Self.utterances(Self.run(audio))
        #expect(found.contains { $0.start <= 1.7 && $0.end >= 2.5 }, "the word from 1.7 to 2.5 s is in an utterance: \(found)")
        var everywhere = Endpointer.Settings()
        everywhere.steadyDeviation = 2.5
        let cut = Self.utterances(Self.run(audio, everywhere))
        #expect(!cut.contains { $0.start <= 1.7 && $0.end >= 2.5 },
                "the word is as steady as the room: at 2.5 dB everywhere it is lost (\(cut))")
    }

    /// The standard deviation of the 10 ms levels the endpointer measures (pre-emphasised
    /// energy in dB) over `audio`.
    static func levelDeviation(_ audio: [Int16]) -> Double {
        var previous = 0.0
        let levels = stride(from: 0, to: audio.count - 159, by: 160).map {
            Endpointer.level(of: audio[$0..<$0 + 160], after: &previous)
        }
        let mean = levels.reduce(0, +) / Double(levels.count)
        return (levels.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(levels.count)).squareRoot()
    }

    /// A recording that goes from digital silence to silence dithered to 16 bits (±1 LSB
    /// TPDF dither, as sox and most recorders add) holds no speech: the dither is 3 dB
    /// over digital silence (`silenceEnergy`), not the 4 dB that starts an utterance.
    @Test func ditherAfterDigitalSilenceIsNoSpeech() {
        var random = SplitMix64(seed: 20261125)
        let dither = (0..<(3 * 16_000)).map { _ in
            Int16((Double.random(in: 0..<1, using: &random) - Double.random(in: 0..<1, using: &random)).rounded())
        }
        let audio = [Int16](repeating: 0, count: 16_000) + dither
        #expect(dither.contains(1) && dither.contains(-1))
        #expect(Self.utterances(Self.run(audio)).isEmpty)
    }

    /// Speech after digital silence, in a room about as quiet as dither: a few frames of
    /// digital silence pulled the floor down, a soft onset held it there, and the room
    /// after the speech lay 2 dB over it, past the hold threshold in about half its frames:
    /// never `hangover` of quiet in a row, so the utterance ran on over the pause and the
    /// next word, to `maximumLength` (real people's "alexa" in a quiet recording, 15 s
    /// utterances). The steady room lifts the floor: each word is its own utterance.
    @Test func aQuietRoomAfterDigitalSilenceEndsTheUtterance() {
        var random = SplitMix64(seed: 20261202)
        func room(_ seconds: Double) -> [Int16] {
            (0..<Int(seconds * 16_000)).map { _ in
                let u = Double.random(in: 0..<1, using: &random)
                return u < 0.16 ? -1 : u < 0.32 ? 1 : 0
            }
        }
        func tone(_ seconds: Double, _ amplitude: Double) -> [Int16] {
            (0..<Int(seconds * 16_000)).map { Int16(amplitude * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }
        }
        let onset = room(1) + [Int16](repeating: 0, count: 4 * 160) + tone(0.2, 14)
        let audio = onset + tone(0.6, 6_000) + room(5) + tone(0.6, 6_000) + room(2)
        let found = Self.utterances(Self.run(audio))
        #expect(found.count == 2, "\(found)")
        guard found.count == 2 else { return }
        #expect(found[0].end < 1.84 + 1.8, "the first ends within the steady second, the hangover and the padding: \(found[0])")
        #expect(abs(found[1].start - (6.84 - 0.4)) < 0.1, "\(found[1])")
    }
}

extension SplitMix64 {
    /// About a standard normal: the sum of twelve uniforms less 6.
    mutating func roughGaussian() -> Double {
        (0..<12).map { _ in Double.random(in: 0..<1, using: &self) }.reduce(0, +) - 6
    }
}
