import Foundation
import Testing
import VshCore
import VshTestSupport
@testable import VshAudio
import VshVoice

/// The speaker check's score (GMM-UBM over the acoustic model's Gaussians) with the real
/// model files and a real recording.
@Suite struct SpeakerScorerTests {
    static let stock = Settings().modelDirectory + "/en-us"

    /// A copy of the stock model in `dir` whose means are moved by `sigmas` standard
    /// deviations: a voice unlike anyone's.
    static func moved(_ sigmas: Float, into dir: TempDirectory) throws -> String {
        let path = dir.file("moved")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for name in ["means", "variances", "feat.params"] {
            try FileManager.default.copyItem(atPath: stock + "/" + name, toPath: path + "/" + name)
        }
        let (shape, means) = try Gaussians.read(stock + "/means")
        let (_, variances) = try Gaussians.read(stock + "/variances")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stock + "/means")))
        let header = try #require(Data(bytes).range(of: Data("endhdr\n".utf8))).upperBound
        let start = header + 4 * (1 + 3 + shape.streams + 1)
        for i in means.indices {
            let value = means[i] + sigmas * variances[i].squareRoot()
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.replaceSubrange((start + 4 * i)..<(start + 4 * i + 4), with: $0) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/means"))
        return path
    }

    @Test func aModelScoresNothingAgainstItselfAndLessWhenMovedAwayFromTheVoice() throws {
        let dir = TempDirectory()
        let speech = try FileAudioSource.readAll(path: EvalData.real + "/cards/001.wav")
        let same = try #require(try SpeakerScorer(stock: Self.stock, adapted: Self.stock).score(utterance: speech))
        #expect(abs(same) < 1e-9)
        let away = try #require(try SpeakerScorer(stock: Self.stock, adapted: Self.moved(1, into: dir)).score(utterance: speech))
        #expect(away < -1, "a model moved a standard deviation away explains the voice worse: \(away)")
        // Louder or softer, the same score: the utterance is brought to one level first.
        let softer = speech.map { Int16(Double($0) * 0.25) }
        let soft = try #require(try SpeakerScorer(stock: Self.stock, adapted: Self.moved(1, into: TempDirectory())).score(utterance: softer))
        #expect(abs(soft - away) < 0.05 * abs(away))
    }

    /// A speaker model the check cannot read (here: means in the other byte order, which
    /// PocketSphinx reads and the check does not) turns the check off and says so; the
    /// recogniser loads and commands are still heard.
    @Test func anUnreadableSpeakerModelTurnsTheCheckOffAndSaysSo() throws {
        let dir = TempDirectory()
        let adapted = dir.file("adapted")
        try FileManager.default.copyItem(atPath: Self.stock, toPath: adapted)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: adapted + "/means")))
        let header = try #require(Data(bytes).range(of: Data("endhdr\n".utf8))).upperBound
        for at in stride(from: header, to: bytes.count - 3, by: 4) { bytes[at..<at + 4].reverse() }
        try Data(bytes).write(to: URL(fileURLWithPath: adapted + "/means"))
        #expect(throws: AudioError.self) { try SpeakerScorer(stock: Self.stock, adapted: adapted) }
        PocketSphinxLog.send(to: dir.file("pocketsphinx.log"))
        let recognizer = try SphinxCommandRecognizer(
            settings: .init(model: SpeechModel(directory: Settings().modelDirectory, adapted: adapted)),
            jsgf: VoiceFactoryTests.jsgf, vocabulary: JSGFWords.words(in: VoiceFactoryTests.jsgf), workDirectory: dir.path)
        #expect(recognizer.warning?.contains("the speaker check is off") == true, "\(recognizer.warning ?? "no warning")")
        #expect(recognizer.calibration.speaker == nil)
        let speech = try FileAudioSource.readAll(path: EvalData.real + "/goforward.raw")
        let heard = recognizer.recognize(speech, start: 0)
        #expect(heard.text == "go forward ten meters")
        #expect(heard.features?.speakerScore == nil)
    }

    /// The same words get the same speaker decision however they reach vsh: after a short
    /// or a long quiet (the endpointer cuts the utterance with its own padding), at a
    /// quarter of the level or twice it, recorded at 44.1 kHz and resampled, or in stereo
    /// (both read as vsh reads a file). A threshold a tenth of a nat under the
    /// recording's score passes every one of them, and one a tenth over stops every one.
    @Test func theSameWordsGetTheSameSpeakerDecisionHoweverTheyArrive() throws {
        let dir = TempDirectory()
        let scorer = try SpeakerScorer(stock: Self.stock, adapted: Self.moved(0.3, into: dir))
        let words = try FileAudioSource.readAll(path: EvalData.real + "/goforward.raw")
        let room = VoiceFactoryTests.roomNoise(seconds: 3)
        /// The utterance the endpointer cuts from `samples` and its score.
        func scored(_ samples: [Int16]) throws -> Double {
            let endpointer = Endpointer()
            var segments: [Endpointer.Segment] = []
            for start in stride(from: 0, to: samples.count, by: 160) {
                for case .utterance(let s) in endpointer.feed(Array(samples[start..<min(start + 160, samples.count)])) { segments.append(s) }
            }
            for case .utterance(let s) in endpointer.finish() { segments.append(s) }
            let longest = try #require(segments.max { $0.samples.count < $1.samples.count })
            return try #require(scorer.score(utterance: longest.samples))
        }
        /// `samples` as vsh reads them from a WAV file of `rate` Hz and `channels`.
        func throughFile(_ samples: [Int16], rate: Int, channels: Int) throws -> [Int16] {
            let up = try Resampler(from: 16_000, to: rate).process(samples)
            let wav = dir.file("x-\(rate)-\(channels).wav")
            let frames = up.flatMap { Array(repeating: $0, count: channels) }
            var data = Data("RIFF".utf8)
            func le<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
            le(UInt32(36 + 2 * frames.count))
            data.append(contentsOf: Array("WAVEfmt ".utf8))
            le(UInt32(16)); le(UInt16(1)); le(UInt16(channels)); le(UInt32(rate)); le(UInt32(rate * channels * 2))
            le(UInt16(channels * 2)); le(UInt16(16))
            data.append(contentsOf: Array("data".utf8))
            le(UInt32(2 * frames.count))
            for sample in frames { le(sample) }
            try data.write(to: URL(fileURLWithPath: wav))
            return try FileAudioSource.readAll(path: wav)
        }
        let base = try scored(Array(room.prefix(9_600)) + words + room)
        let variants: [(String, [Int16])] = [
            ("after 3 s of quiet", room + words + room),
            ("a quarter of the level", (Array(room.prefix(9_600)) + words + room).map { $0 / 4 }),
            ("twice the level", (Array(room.prefix(9_600)) + words + room).map { Int16(clamping: Int($0) * 2) }),
            ("44.1 kHz, resampled", try throughFile(Array(room.prefix(9_600)) + words + room, rate: 44_100, channels: 1)),
            ("stereo", try throughFile(Array(room.prefix(9_600)) + words + room, rate: 16_000, channels: 2)),
        ]
        for (what, samples) in variants {
            let score = try scored(samples)
            #expect(score >= base - 0.1 && score < base + 0.1, "\(what): \(score), as recorded \(base)")
        }
    }

    @Test func aBrokenModelFileIsNamed() throws {
        let dir = TempDirectory()
        let path = try Self.moved(0, into: dir)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path + "/means"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path + "/means"))
        #expect(throws: AudioError.self) { try SpeakerScorer(stock: Self.stock, adapted: path) }
        do {
            _ = try SpeakerScorer(stock: Self.stock, adapted: path)
        } catch {
            #expect("\(error)".contains(path + "/means"))
        }
    }
}
