import Foundation
import Testing
import VshCore
import VshTestSupport
@testable import VshAudio

/// The speaker check's score (GMM-UBM over the acoustic model's Gaussians) with the real
/// model files and a real recording.
@Suite struct SpeakerCheckTests {
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
        let same = try #require(try SpeakerCheck(stock: Self.stock, adapted: Self.stock).score(utterance: speech))
        #expect(abs(same) < 1e-9)
        let away = try #require(try SpeakerCheck(stock: Self.stock, adapted: Self.moved(1, into: dir)).score(utterance: speech))
        #expect(away < -1, "a model moved a standard deviation away explains the voice worse: \(away)")
        // Louder or softer, the same score: the utterance is brought to one level first.
        let softer = speech.map { Int16(Double($0) * 0.25) }
        let soft = try #require(try SpeakerCheck(stock: Self.stock, adapted: Self.moved(1, into: TempDirectory())).score(utterance: softer))
        #expect(abs(soft - away) < 0.05 * abs(away))
    }

    @Test func aBrokenModelFileIsNamed() throws {
        let dir = TempDirectory()
        let path = try Self.moved(0, into: dir)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path + "/means"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path + "/means"))
        #expect(throws: AudioError.self) { try SpeakerCheck(stock: Self.stock, adapted: path) }
        do {
            _ = try SpeakerCheck(stock: Self.stock, adapted: path)
        } catch {
            #expect("\(error)".contains(path + "/means"))
        }
    }
}
