import Foundation
import Testing
import VshCore
import VshSpoken
import VshTestSupport
@testable import VshAudio
import VshVoice

/// A word of a command said on its own is heard as itself and runs nothing (issue 35): a
/// lone digit was `play 5` or `show 1`, because the search had no reading but a whole
/// command or everyday words and put in the carrier that was not said. Said with its
/// carrier, the digit still runs the command (research/recognition/LONE_WORDS.md).
@Suite struct LoneWordTests {
    /// vsh's commands as the benchmarks hand them to both recognisers.
    static let jsgf = (try? String(contentsOfFile: EvalData.repository + "/bench/commands.gram", encoding: .utf8)) ?? ""

    /// A recogniser of vsh's commands with the likeliest everyday words at
    /// `commonWordWeight`: by default the prompt's (`CommandGrammar.weighsCommonWords`).
    static func recognizer(_ dir: TempDirectory, commonWordWeight: String? = OpenGrammar.commonWeight,
                           jsgf: String = jsgf) throws -> SphinxCommandRecognizer {
        PocketSphinxLog.send(to: dir.file("pocketsphinx.log"))
        return try SphinxCommandRecognizer(
            settings: .init(model: SpeechModel(directory: Settings().modelDirectory), commonWordWeight: commonWordWeight),
            jsgf: jsgf, vocabulary: JSGFWords.words(in: jsgf), workDirectory: dir.path)
    }

    /// What the prompt would do with `heard` among the commands of `jsgf`: the line it runs, or nil.
    static func runs(_ heard: Recognition, jsgf: String = jsgf) throws -> String? {
        let pattern = try #require(JSGFPattern.parse(jsgf))
        let words = heard.words.map(\.word)
        let decision = Gate(settings: Settings()).take(heard, isPhrase: pattern.match(words) != nil)
        return decision.isSure ? words.joined(separator: " ") : nil
    }

    /// `text` in flite's rms voice with `before` and `after` seconds of silence (as the endpointer pads an utterance), at 16 kHz.
    static func spoken(_ text: String, before: Double = 0.4, after: Double = 0.4, in dir: TempDirectory) throws -> [Int16] {
        let raw = dir.file("raw.wav"), out = dir.file(text.replacingOccurrences(of: " ", with: "_") + ".wav")
        try VshBinary.shell("flite -voice rms -t '\(text)' -o \(raw) && sox -V1 \(raw) -r 16000 -c 1 -b 16 \(out) pad \(before) \(after)")
        return try FileAudioSource.readAll(path: out)
    }

    /// A digit said alone after a pause is heard as the digit, no command. Without the
    /// lone words these ran `play 5` and `show 1` at confidence 1.
    @Test func aLoneDigitRunsNothing() throws {
        let dir = TempDirectory()
        let recognizer = try Self.recognizer(dir)
        for digit in ["five", "seven"] {
            let heard = recognizer.recognize(try Self.spoken(digit, in: dir), start: 0)
            #expect(try Self.runs(heard) == nil, "'\(digit)' ran \(heard.words.map(\.word))")
            #expect(heard.words.map(\.word) == [digit])
            #expect(heard.features?.otherWord == digit)
        }
    }

    /// Real people's digits, each alone (the Free Spoken Digit Dataset): no command.
    @Test(arguments: ["5_jackson_23", "4_jackson_11", "4_lucas_10"])
    func aRealLoneDigitRunsNothing(_ name: String) throws {
        let dir = TempDirectory()
        let heard = try Self.recognizer(dir).recognize(
            try FileAudioSource.readAll(path: EvalData.real + "/fsdd/\(name).wav"), start: 0)
        #expect(try Self.runs(heard) == nil, "\(name) ran \(heard.words.map(\.word))")
    }

    /// With the likeliest words weighed more (`OtherWords.common`), as the prompt weighs
    /// them, a word people say most, said on its own, is heard as itself: these real "up"s
    /// are heard as `stop` and `help` while it weighs what a rare word does (as in a grammar
    /// of one's own), and a real "stop" still runs `stop`.
    @Test(arguments: [("up_4fd1443e_nohash_0", "stop"), ("up_50033893_nohash_2", "help"), ("stop_0cb74144_nohash_0", "stop")])
    func aCommonWordSaidAloneIsHeardAsItself(_ name: String, heardFlat: String) throws {
        let dir = TempDirectory()
        let clip = try FileAudioSource.readAll(path: EvalData.real + "/speech-commands/\(name).flac")
        let flat = try Self.recognizer(dir, commonWordWeight: nil).recognize(clip, start: 0)
        #expect(flat.words.map(\.word) == [heardFlat], "with every everyday word weighed alike")
        let heard = try Self.recognizer(dir).recognize(clip, start: 0)
        let word = String(name.prefix { $0 != "_" })
        #expect(try Self.runs(heard) == (word == "stop" ? "stop" : nil), "\(name) ran \(heard.words.map(\.word))")
        #expect(heard.words.map(\.word) == [word])
    }

    /// A word that begins with a hiss must begin with one (`Hiss`): this real "up", heard
    /// as `stop` when every everyday word weighs alike, has no S and runs nothing, while a
    /// real "stop" has one and runs. A "stop" brought down to 8 kHz and back (flite's slt)
    /// has no high band to tell by: no measure, and it runs as it did before the check.
    @Test func aWordThatBeginsWithAHissNeedsOne() throws {
        let dir = TempDirectory()
        let recognizer = try Self.recognizer(dir, commonWordWeight: nil)
        for (name, hisses) in [("up_4fd1443e_nohash_0", false), ("stop_0cb74144_nohash_0", true)] {
            let path = EvalData.real + "/speech-commands/\(name).flac"
            let heard = recognizer.recognize(try FileAudioSource.readAll(path: path), start: 0)
            #expect(heard.words.map(\.word) == ["stop"], "\(name)")
            let hiss = try #require(heard.features?.weakestHiss, "\(name)")
            #expect(hisses ? hiss >= Gate.hissAtLeast : hiss < 0.1, "\(name): \(hiss)")
            #expect(try Self.runs(heard) == (hisses ? "stop" : nil), "\(name)")
        }
        let wide = dir.file("stop-slt.wav"), narrow = dir.file("stop-slt-8k.wav")
        try VshBinary.shell("flite -voice slt -t stop -o \(dir.file("raw.wav")) && sox -V1 \(dir.file("raw.wav")) -r 16000 -b 16 \(wide) pad 0.4 0.4"
                            + " && sox -V1 \(wide) \(narrow) rate 8000 rate 16000")
        let full = recognizer.recognize(try FileAudioSource.readAll(path: wide), start: 0)
        #expect(full.features?.weakestHiss ?? 0 >= Gate.hissAtLeast, "\(String(describing: full.features?.weakestHiss))")
        let telephone = recognizer.recognize(try FileAudioSource.readAll(path: narrow), start: 0)
        #expect(telephone.words.map(\.word) == ["stop"])
        #expect(telephone.features != nil && telephone.features?.weakestHiss == nil,
                "\(String(describing: telephone.features?.weakestHiss))")
        #expect(try Self.runs(telephone) == "stop")
    }

    /// A real "marvin", a user's command of two syllables, dips 15 dB and more at its V
    /// (`Syllables`), has no stretch of hiss (`Voicing.longestHiss`) and runs; one syllable
    /// heard as two does not (`HearingTests`).
    @Test func twoSyllablesSaidDipBetweenThem() throws {
        let dir = TempDirectory()
        let mine = Self.jsgf.replacingOccurrences(of: "| back | reset | done;", with: "| back | reset | done | marvin;")
        let heard = try Self.recognizer(dir, jsgf: mine).recognize(
            try FileAudioSource.readAll(path: EvalData.real + "/speech-commands/marvin_587f3271_nohash_0.flac"), start: 0)
        #expect(heard.words.map(\.word) == ["marvin"])
        let dip = try #require(heard.features?.syllableDip)
        #expect(dip >= 2 * Gate.dipAtLeast, "\(dip) dB")
        // Its words claim voice throughout: the V is said voiced, nothing hisses for long.
        let hiss = try #require(heard.features?.hissInVoice)
        #expect(hiss < Gate.hissInVoiceUnder, "\(hiss) frames")
        #expect(try Self.runs(heard, jsgf: mine) == "marvin")
    }

    /// A carrier said alone runs nothing. A lone "play" is heard as `play eight` (the vowel
    /// of "play" is the vowel of "eight"), at any weight of the lone word, but the reading
    /// "play" alone is in the n-best list as good or better (`LeftOut`): the "eight" was put
    /// in, and the gate stops it (research/recognition/LEFT_OUT.md).
    @Test func aLoneCarrierRunsNothing() throws {
        let dir = TempDirectory()
        let recognizer = try Self.recognizer(dir)
        var heard: [String: Recognition] = [:]
        for carrier in ["show", "delete", "play"] {
            heard[carrier] = recognizer.recognize(try Self.spoken(carrier, in: dir), start: 0)
            #expect(try Self.runs(heard[carrier]!) == nil, "'\(carrier)' ran \(heard[carrier]!.words.map(\.word))")
        }
        let play = try #require(heard["play"])
        #expect(play.words.map(\.word) == ["play", "eight"])
        #expect(Gate.leftOutReading(of: play) == ["play"], "\(String(describing: play.features))")
    }

    /// The digit with its carrier is the command, as before.
    @Test func theCarrierWithItsDigitStillRuns() throws {
        let dir = TempDirectory()
        let recognizer = try Self.recognizer(dir)
        for phrase in ["play five", "show seven", "play twenty", "delete two", "play eight"] {
            let heard = recognizer.recognize(try Self.spoken(phrase, before: 1, after: 1, in: dir), start: 0)
            #expect(try Self.runs(heard) == phrase, "'\(phrase)': \(heard.words.map(\.word)) \(heard.confidence)")
            #expect(Gate.leftOutReading(of: heard) == nil, "'\(phrase)': \(String(describing: heard.features?.leftOutGap))")
        }
    }
}
