import Foundation
import Testing
import VshCore
import VshTestSupport
@testable import VshAudio
import VshVoice

/// The whole voice pipeline with its real parts: ALSA capture, SpeexDSP, the endpointer and
/// PocketSphinx, over human recordings.
@Suite struct VoiceFactoryTests {
    static let model = Settings().modelDirectory

    /// Cards and "go forward" in one grammar, so one stream can hold both.
    static let jsgf = """
        #JSGF V1.0;
        grammar test;
        public <say> = go forward ten meters | <card> | <card> <card> <card>;
        <card> = <rank> [of] <suit>;
        <suit> = clubs | hearts | diamonds | spades;
        <rank> = ace | two | three | four | five | six | seven | eight | nine | ten | jack | queen | king;
        """

    static func recognizer(_ dir: TempDirectory, jsgf: String = jsgf) throws -> SphinxCommandRecognizer {
        PocketSphinxLog.send(to: dir.file("pocketsphinx.log"))
        return try SphinxCommandRecognizer(
            settings: .init(model: SpeechModel(directory: model)), jsgf: jsgf, vocabulary: JSGFWords.words(in: jsgf),
            workDirectory: dir.path)
    }

    /// Quiet room noise, deterministic, about as loud as the recordings' own background
    /// (a step up in noise level is itself a sound the endpointer hears).
    static func roomNoise(seconds: Double) -> [Int16] {
        var seed: UInt32 = 7
        return (0..<Int(seconds * 16_000)).map { _ in
            seed = seed &* 1_103_515_245 &+ 12_345
            return Int16(Int(seed >> 16) % 17 - 8)
        }
    }

    static func utterances(_ pipeline: VoicePipeline) throws -> [Utterance] {
        var found: [Utterance] = []
        try pipeline.run { event in
            if case .utterance(let u) = event { found.append(u) }
            return true
        }
        return found
    }

    /// The likeliest everyday words weigh more for a grammar that asks for it (the
    /// prompt's), not for a grammar of one's own; `VSH_COMMON_WEIGHT` sets another weight
    /// for every grammar, or none (`off`).
    @Test func theLikeliestWordsWeighMoreWhereTheGrammarAsks() throws {
        struct Prompt: CommandGrammar {
            var jsgf: String { VoiceFactoryTests.jsgf }
            var vocabulary: Set<String> { JSGFWords.words(in: jsgf) }
            var weighsCommonWords: Bool { true }
            func interpret(_ words: [String]) -> VoiceCandidate? { nil }
            func ending(of words: [String]) -> PhraseEnding? { nil }
        }
        let own = try JSGFGrammar(text: Self.jsgf, file: "cards.gram")
        #expect(VoiceFactory.commonWordWeight(for: Prompt(), environment: [:]) == OpenGrammar.commonWeight)
        #expect(VoiceFactory.commonWordWeight(for: own, environment: [:]) == nil)
        #expect(VoiceFactory.commonWordWeight(for: Prompt(), environment: ["VSH_COMMON_WEIGHT": "off"]) == nil)
        #expect(VoiceFactory.commonWordWeight(for: own, environment: ["VSH_COMMON_WEIGHT": "1e-12"]) == "1e-12")
        #expect(VoiceFactory.commonWordWeight(for: Prompt(), environment: ["VSH_COMMON_WEIGHT": ""]) == OpenGrammar.commonWeight)
    }

    /// The level normalisation lays the same floor under any recording: its quiet stretch
    /// comes out within a decibel of the floor whatever it held (digital silence, a hiss of
    /// a few steps, the same hiss 12 dB softer), and the words at the speaking level. The
    /// recogniser then hears the same room in each. Without the floor the three quiet
    /// stretches came out at 0, about 4 and about 15 steps, the decoder's noise estimate
    /// followed them, and quiet digits were heard as other digits at another level.
    @Test func everyRecordingGetsTheSameFloor() {
        func rms(_ x: ArraySlice<Int16>) -> Double {
            (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot()
        }
        let hiss = TestSignal.bursts([0.5]).map { $0 / 12 }  // half a second, −8…8 steps
        let word = (0..<8_000).map { Int16(2_000 * sin(Double($0) * 2 * .pi * 220 / 16_000)) }
        let floor = 3_000 * pow(10, SphinxCommandRecognizer.noiseFloor / 20)
        for quiet in [[Int16](repeating: 0, count: 8_000), hiss, hiss.map { $0 / 4 }] {
            let out = SphinxCommandRecognizer.normalised(quiet + word)
            #expect(abs(20 * log10(rms(out[0..<8_000]) / floor)) < 1, "quiet stretch \(rms(out[0..<8_000])), floor \(floor)")
            #expect(abs(rms(out[8_000...]) / (3_000 * 2.squareRoot()) - 1) < 0.05, "words \(rms(out[8_000...]))")
        }
        #expect(SphinxCommandRecognizer.normalised(hiss + word) == SphinxCommandRecognizer.normalised(hiss + word))
    }

    /// An utterance cut tight at its words gets its own quietest tenth of a second before
    /// it (the first of equals); one that begins with its quiet gets nothing; one shorter
    /// than the lead gets digital silence (the floor alone).
    @Test func aLeadOnlyBeforeWordsCutTight() {
        let loud = [Int16](repeating: 900, count: 2_400), soft = [Int16](repeating: -30, count: 1_600)
        let tight = loud + soft + loud + soft.map { -$0 }
        let lead = SphinxCommandRecognizer.lead(1_600, for: tight)
        #expect(lead.startIndex == 2_400 && lead.elementsEqual(soft))
        #expect(SphinxCommandRecognizer.lead(1_600, for: soft.map { $0 / 2 } + tight).isEmpty)
        #expect(SphinxCommandRecognizer.lead(1_600, for: Array(loud.prefix(1_000))).elementsEqual(repeatElement(0, count: 1_600)))
    }

    /// PocketSphinx numbers the words' frames over the frames it kept, and drops most of
    /// the quiet before them: the words are looked for where they lie in the audio, and
    /// the sound outside them is counted there. Looked for at PocketSphinx's numbers, the
    /// words lay over the quiet, and the words themselves counted as speech outside them.
    @Test func theWordsAreLookedForWhereTheyLie() {
        let levels = [Double](repeating: 20, count: 100) + [Double](repeating: 70, count: 50)
            + [Double](repeating: 20, count: 30)
        let heard = [(20, 44), (45, 69)]  // 80 quiet frames dropped before them
        let located = SphinxCommandRecognizer.located(heard, dropped: 80, in: levels)
        #expect(located.map { [$0.0, $0.1] } == [[100, 124], [125, 149]])
        #expect(SphinxCommandRecognizer.speechOutside(located, in: levels) == 0)
        #expect(SphinxCommandRecognizer.speechOutside(heard, in: levels) == 130)
        #expect(SphinxCommandRecognizer.located(heard, dropped: 0, in: levels).map { [$0.0, $0.1] } == [[20, 44], [45, 69]])
        // A click in the quiet is not where the words are.
        var clicked = levels
        clicked[30] = 96
        #expect(SphinxCommandRecognizer.located(heard, dropped: 80, in: clicked).map { [$0.0, $0.1] } == [[100, 124], [125, 149]])
    }

    /// Around one word heard, only sound over the room's own noise is speech the word leaves
    /// unexplained: the quiet 1 dB over the room is not, though it is within 20 dB of a word
    /// whose soft sounds bring its median down; talk after the word is, with or without the
    /// room's level.
    @Test func theRoomAroundOneWordIsNoSpeech() throws {
        let word = [Double](repeating: 55, count: 30) + [Double](repeating: 75, count: 20)  // median 55
        let quiet = [Double](repeating: 36, count: 100) + word + [Double](repeating: 37, count: 60)
        let spans = [(100, 149)]
        #expect(SphinxCommandRecognizer.speechOutside(spans, in: quiet) == 160)
        #expect(SphinxCommandRecognizer.speechOutside(spans, in: quiet, room: 36 + SphinxCommandRecognizer.aboveRoom) == 0)
        let talk = quiet + [Double](repeating: 60, count: 40)
        #expect(SphinxCommandRecognizer.speechOutside(spans, in: talk, room: 36 + SphinxCommandRecognizer.aboveRoom) == 40)
        let samples = (0..<16_000).map { Int16($0 < 8_000 ? 100 : 3_000) }
        let levels = FrameLevels.of(samples)
        #expect(abs(SphinxCommandRecognizer.roomLevel(in: levels) - 10 * log10(100.0 * 100 + 1)) < 0.01)
        // The same as the quietest tenth of a second its samples give, in a real room too.
        let recorded = SphinxCommandRecognizer.decodingAudio(
            try FileAudioSource.readAll(path: EvalData.real + "/speech-commands/stop_5170b77f_nohash_1_paused.flac"))
        for audio in [samples, recorded] {
            #expect(abs(SphinxCommandRecognizer.roomLevel(in: FrameLevels.of(audio))
                        - (FrameLevels.of(audio, span: 10).dropLast(9).min() ?? 0)) < 1e-6)
        }
    }

    /// A real person's "alexa" after more than a second of a quiet room is the phrase,
    /// surely: the room before it is not speech the word leaves unexplained. With the
    /// words looked for at PocketSphinx's frame numbers, 267 frames counted as speech
    /// outside the word, and its confidence was 0.
    @Test func aWordAfterALongQuietIsNotASentence() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let recognizer = try Self.recognizer(dir, jsgf: "#JSGF V1.0;\ngrammar wake;\npublic <say> = alexa | stop | help;\n")
        let heard = recognizer.recognize(try FileAudioSource.readAll(path: EvalData.real + "/alexa/214.flac"), start: 0)
        #expect(heard.text == "alexa")
        #expect(try #require(heard.features).speechOutsideWords < 50)
        #expect(heard.confidence > 0.9)
    }

    /// Three commands separated by pauses in one stream: one result each, in order, at
    /// the right times.
    @Test func aSessionOfThreeCommandsGivesThreeResults() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let parts = [
            try FileAudioSource.readAll(path: EvalData.real + "/cards/001.wav"),
            try FileAudioSource.readAll(path: EvalData.real + "/goforward.raw"),
            try FileAudioSource.readAll(path: EvalData.real + "/cards/003.wav"),
        ]
        var stream = Self.roomNoise(seconds: 1)
        var starts: [Double] = []
        for part in parts {
            starts.append(Double(stream.count) / 16_000)
            stream += part + Self.roomNoise(seconds: 1.2)
        }
        let pipeline = VoicePipeline(
            source: FakeAudioSource(stream), frontEnd: nil, endpointer: Endpointer(), recognizer: try Self.recognizer(dir),)
        let found = try Self.utterances(pipeline)
        #expect(found.map { $0.recognition.confidence >= 0.5 ? $0.recognition.text : nil } == ["ten of clubs", "go forward ten meters", "seven of clubs"])
        for (u, start) in zip(found, starts) {
            #expect(u.segment.start >= start - 0.45 && u.segment.start < start + 1, "utterance at \(u.segment.start), audio at \(start)")
        }
    }

    /// ALSA's `file` PCM plays a recording in as if it were a microphone at 48 kHz; the
    /// capture path resamples it and the command comes out.
    @Test func aCommandThroughALSACapture() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let speech = try FileAudioSource.readAll(path: EvalData.real + "/goforward.raw")
        let padded = Self.roomNoise(seconds: 0.5) + speech + Self.roomNoise(seconds: 1)
        // Upsample to 48 kHz so that capture has to resample back down.
        let resampler = try Resampler(from: 16_000, to: 48_000)
        let at48k = resampler.process(padded)
        let input = dir.file("mic.raw")
        try at48k.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: input))
        let config = AlsaTests.config(input: URL(fileURLWithPath: input))
        let capture = try AlsaCapture(device: "vshtest", rate: 48_000, configText: config)
        let source = try MicrophoneSource(capture: capture, maxSeconds: Double(padded.count) / 16_000)
        let pipeline = VoicePipeline(
            source: source, frontEnd: SpeexFrontEnd(settings: .init(denoise: true, gainControl: false)),
            frontEndUse: .belowSNR(24), endpointer: Endpointer(), recognizer: try Self.recognizer(dir),)
        let found = try Self.utterances(pipeline)
        #expect(found.map { $0.recognition.confidence >= 0.5 ? $0.recognition.text : nil } == ["go forward ten meters"])
    }

    /// Noise suppression takes most of the energy out of steady noise and leaves a tone's.
    @Test func speexNoiseSuppressionOnAndOff() {
        var seed: UInt32 = 99
        let noise = (0..<32_000).map { _ -> Int16 in
            seed = seed &* 1_103_515_245 &+ 12_345
            return Int16(Int(seed >> 16) % 4_001 - 2_000)
        }
        func energy(_ x: ArraySlice<Int16>) -> Double { x.reduce(0) { $0 + Double($1) * Double($1) } / Double(x.count) }
        func run(_ denoise: Bool, _ input: [Int16]) -> [Int16] {
            let frontEnd = SpeexFrontEnd(settings: .init(denoise: denoise, gainControl: false))
            var audio = input
            frontEnd.process(&audio)
            return audio
        }
        #expect(run(false, noise) == noise)
        let cleaned = run(true, noise)
        #expect(cleaned.count == noise.count)
        // After the first half second (the noise estimate settling): at least 10 dB less.
        let reduction = 10 * log10(energy(noise[8_000...]) / max(1, energy(cleaned[8_000...])))
        #expect(reduction > 10, "noise reduced by \(reduction) dB")
    }

    /// The same utterance gets the same recognition, features and all, whatever was heard
    /// before it: PocketSphinx would carry its noise estimate over from the utterances
    /// before (the early end's tentative recognitions among them, most thrown away).
    @Test func aRecognitionDependsOnItsAudioAlone() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let card = try FileAudioSource.readAll(path: EvalData.real + "/cards/001.wav")
        let other = try FileAudioSource.readAll(path: EvalData.real + "/goforward.raw")
        let alone = try Self.recognizer(dir).recognize(card, start: 0)
        let after = try Self.recognizer(dir)
        _ = after.recognize(other, start: 0)
        _ = after.recognize(Array(card.prefix(card.count / 2)), start: 0)
        #expect(after.recognize(card, start: 0) == alone)
        #expect(alone.text == "ten of clubs")
    }
}
