import Foundation
import Testing
import VshCore
import VshSpoken
import VshTestSupport
@testable import VshAudio
import VshVoice

/// Each word heard against a free phone loop over the same frames
/// (research/recognition/VERIFY.md).
@Suite struct WordVerificationTests {
    /// The phone loop's score over a word's frames: whole phones inside count whole, the
    /// phones across its edges by the share of their frames inside.
    @Test func phonesAcrossAWordsEdgesCountByTheirShareInside() {
        let phones = [
            WordVerification.Span(start: 0, end: 9, score: -100),   // 10 frames, 5 inside
            WordVerification.Span(start: 10, end: 19, score: -300), // all inside
            WordVerification.Span(start: 20, end: 23, score: -40),  // 4 frames, 1 inside
            WordVerification.Span(start: 24, end: 30, score: -999), // outside
        ]
        #expect(WordVerification.loopScore(from: 5, to: 20, in: phones) == -50 - 300 - 10)
        let word = WordVerification.Span(start: 5, end: 20, score: -520)
        #expect(WordVerification.ratios(of: [word], against: phones) == [-10])
        #expect(WordVerification.ratios(of: [.init(start: 3, end: 2, score: 0)], against: phones) == [nil])
    }

    static func recognizer(_ jsgf: String, _ dir: TempDirectory) throws -> SphinxCommandRecognizer {
        PocketSphinxLog.send(to: dir.file("pocketsphinx.log"))
        return try SphinxCommandRecognizer(
            settings: .init(model: SpeechModel(directory: Settings().modelDirectory), checksWords: true), jsgf: jsgf,
            vocabulary: JSGFWords.words(in: jsgf), workDirectory: dir.path)
    }

    /// "go forward ten meters", said clearly by a person: every word is there, so the
    /// weakest of them scores about what the phone loop scores over its frames.
    @Test func aClearlySaidWordScoresNearTheLoop() throws {
        let dir = TempDirectory()
        let jsgf = try String(contentsOfFile: EvalData.real + "/goforward.gram", encoding: .utf8)
        let heard = try Self.recognizer(jsgf, dir).recognize(
            try FileAudioSource.readAll(path: EvalData.real + "/goforward.raw"), start: 0)
        #expect(heard.words.map(\.word) == ["go", "forward", "ten", "meters"])
        let ratio = try #require(heard.features?.weakestWordRatio)
        #expect(ratio > -WordVerificationTests.inferred, "\(heard.features?.weakestWord ?? "?") \(ratio)")
        // The best of the four words, for the weakest measured against its own utterance:
        // above the weakest, and every word said, so not far above it.
        let strongest = try #require(heard.features?.strongestWordRatio)
        #expect(strongest > ratio && strongest - ratio < 30, "strongest \(strongest), weakest \(ratio)")
    }

    /// A lone digit decoded against a grammar where a digit comes only after "play" (and
    /// nothing else, so the search must say `play N`): "play" is squeezed into the quiet
    /// before the digit, and its ratio is far below the loop's, while the digit's is not.
    @Test func aWordInferredFromNothingScoresLow() throws {
        let dir = TempDirectory()
        PocketSphinxLog.send(to: dir.file("pocketsphinx.log"))
        let jsgf = """
            #JSGF V1.0;
            grammar test;
            public <play> = play <digit>;
            <digit> = zero | one | two | three | four | five | six | seven | eight | nine;
            """
        let model = SpeechModel(directory: Settings().modelDirectory)
        let words = JSGFWords.words(in: jsgf)
        try PronunciationDictionary(path: model.dictionary, only: words).subset(words).text
            .write(toFile: dir.file("play.dict"), atomically: true, encoding: .utf8)
        let decoder = try PocketSphinxDecoder(arguments: [
            "-hmm", model.acousticModel, "-dict", dir.file("play.dict"), "-allphone_ci", "yes",
        ])
        try decoder.addGrammar("play", jsgf: jsgf)
        try decoder.addPhoneLoop("phones", languageModel: model.phoneLanguageModel)
        decoder.use("play")
        for name in ["5_jackson_23", "4_jackson_11", "4_lucas_10"] {
            let digit = SphinxCommandRecognizer.decodingAudio(
                try FileAudioSource.readAll(path: EvalData.real + "/fsdd/\(name).wav"))
            let hyp = decoder.decode(digit, newStream: true)
            let heard = SphinxWords.words(of: hyp)
            #expect(heard.count == 2 && heard.first?.word == "play", "\(name): \(heard.map(\.word))")
            let ratios = try #require(decoder.ratios(of: heard.map(\.segment), in: digit, frames: hyp.frames,
                                                     loop: "phones", then: "play"))
            let play = try #require(ratios.first ?? nil), said = try #require(ratios.last ?? nil)
            #expect(play < -Self.inferred, "\(name): play \(play)")
            #expect(said > -Self.inferred, "\(name): \(heard.last?.word ?? "") \(said)")
        }
    }

    /// Between the two: a word scoring this far under the loop per frame (the decoder's
    /// score units) was not said. On these recordings the inferred "play" scored −46 to
    /// −64, the digits after it −16 to −25, the words of "go forward ten meters" −28 at
    /// the weakest.
    static let inferred = 44.0
}
