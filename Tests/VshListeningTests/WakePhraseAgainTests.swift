import Testing
import VshTestSupport
@testable import VshCore
@testable import VshVoice
@testable import VshCommands
@testable import VshListening

/// Asleep in attention `wake`, words that began with the wake phrase are heard again with
/// the phrase alone, unless they were the phrase alone and sure, and so is a short
/// utterance heard as a command; nothing else is, so other talk and a sure wake cost one
/// hearing as before.
@Suite struct WakePhraseAgainTests {
    func grammar() throws -> PromptGrammar {
        try PromptGrammar(registry: Builtins.registry(), wakePhrase: "hey computer", commandsAfterWake: true)
    }

    @Test func onlyWordsThatBeganWithThePhraseOrAShortCommandAreHeardAgainAndOnlyAsleep() throws {
        let phrase = FakeRecognizer(Array(repeating: (["hey", "computer"], 0.99), count: 5) + [(["what"], 0.9)])
        var asleep = true
        func hearing(_ text: String, _ confidence: Double = 0.4, threshold: Double = 0.5,
                     seconds: Double = 1) throws -> Recognition {
            let commands = FakeRecognizer([(text.split(separator: " ").map(String.init), confidence)])
            return WakePhraseAgain(grammar: try grammar(), commands: commands, phrase: phrase,
                                   gate: Gate(threshold: threshold, rejectBelow: 0.3), isAsleep: { _ in asleep })
                .recognize([Int16](repeating: 0, count: Int(seconds * 16_000)), start: 3)
        }
        #expect(try hearing("hey computer list").phraseAlone.map(\.text) == ["hey computer"])
        #expect(try hearing("hey computer").phraseAlone.map(\.text) == ["hey computer"])
        #expect(phrase.calls == 2)
        #expect(try hearing("hey computer", 0.9).phraseAlone.isEmpty, "the phrase alone, sure: it wakes as it is")
        #expect(try hearing("hey computer list", 0.9).phraseAlone.count == 1, "a command after it: was it there?")
        #expect(phrase.calls == 3)
        #expect(try hearing("hey computer", 0.9, threshold: 0.95).phraseAlone.count == 1,
                "the person's threshold is above the wake confidence: the prompt would not wake on it")
        #expect(phrase.calls == 4)
        #expect(try hearing("list").phraseAlone.map(\.text) == ["hey computer"], "a short command: the phrase taken for one?")
        #expect(phrase.calls == 5)
        #expect(try hearing("list", seconds: 4.5).phraseAlone.isEmpty, "a long one")
        #expect(try hearing("what").phraseAlone.isEmpty, "other words")
        #expect(phrase.calls == 5)
        #expect(try hearing("list").phraseAlone.isEmpty, "heard alone, no phrase in it: the first hearing stands")
        #expect(phrase.calls == 6)
        asleep = false
        #expect(try hearing("hey computer list").phraseAlone.isEmpty, "awake")
        #expect(try hearing("list").phraseAlone.isEmpty, "awake")
        #expect(phrase.calls == 6)
    }

    /// The phrase as PocketSphinx gives it for `TestSignal.bursts([0.5, 0.6, 0.6, 0.4, 0.5])`
    /// heard from 3 s: "hey computer" over the first burst, its end 0.3 s early because the
    /// frames are counted without the 0.9 s of quiet it dropped.
    static func phraseAlone() -> Recognition {
        var alone = Recognition(words: [RecognizedWord(word: "hey", start: 3.2, end: 3.5, confidence: 1),
                                        RecognizedWord(word: "computer", start: 3.5, end: 3.8, confidence: 1)],
                                confidence: 0.99)
        alone.features = Confidence.Features(frames: 260 - 90, wordFrames: 60, phones: 9, words: 2)
        return alone
    }

    /// What follows the phrase is heard on its own from 0.4 s before its first sound, as the
    /// endpointer would cut it, wherever PocketSphinx dropped quiet.
    @Test func theAudioAfterThePhraseStartsBeforeItsFirstSound() throws {
        let samples = TestSignal.bursts([0.5, 0.6, 0.6, 0.4, 0.5])
        let rest = try #require(WakePhraseAgain.rest(after: Self.phraseAlone(), words: 2, of: samples, start: 3))
        #expect(abs(rest.start - (3 + 1.7 - 0.4)) < 0.03, "the command begins at 1.7 s: \(rest.start)")
        #expect(rest.samples == Array(samples[Int((rest.start - 3) * 16_000)...]))
        #expect(WakePhraseAgain.rest(after: Self.phraseAlone(), words: 2, of: TestSignal.bursts([0.5, 0.6, 1.5]), start: 3) == nil,
                "only quiet after the phrase")
        let soft = TestSignal.bursts([0.5, 0.6, 0.6]) + TestSignal.bursts([0, 0.4, 0.5], tone: 400)
        #expect(WakePhraseAgain.rest(after: Self.phraseAlone(), words: 2, of: soft, start: 3) == nil,
                "20 dB softer than the phrase: a click, a voice across the room")
    }

    /// The phrase alone, a command after it: the audio after the phrase is heard again with
    /// the commands (`Recognition.afterPhrase`), so that the prompt runs what was said
    /// there, and only that.
    @Test func aCommandAfterThePhraseIsHeardOnItsOwn() throws {
        let samples = TestSignal.bursts([0.5, 0.6, 0.6, 0.4, 0.5])
        func hearing(_ alone: Recognition) throws -> (Recognition, calls: Int) {
            let commands = FakeRecognizer([(["hey", "computer", "list"], 0.95), (["list"], 0.9)])
            let heard = WakePhraseAgain(grammar: try grammar(), commands: commands, phrase: FakeRecognizer(recognitions: [alone]),
                                        gate: Gate(threshold: 0.5, rejectBelow: 0.3), isAsleep: { _ in true })
                .recognize(samples, start: 3)
            return (heard, commands.calls)
        }
        let (heard, calls) = try hearing(Self.phraseAlone())
        #expect(heard.afterPhrase.map(\.text) == ["list"])
        #expect(calls == 2)
        var otherWords = Self.phraseAlone()
        otherWords.words[1].word = "computers"
        let (unheard, once) = try hearing(otherWords)
        #expect(unheard.afterPhrase.isEmpty, "heard alone, the phrase was other words: the first hearing stands")
        #expect(once == 1)
    }

    /// Heard surely as the phrase and a command, and the audio after the phrase heard on
    /// its own as the same command, surely: taken as it is, with no hearing of the phrase
    /// alone (two decodes, not three). Heard as something else there, the phrase is heard
    /// alone, and that hearing of the rest is the one the prompt gets.
    @Test func aSureCommandAfterThePhraseNeedsNoThirdHearing() throws {
        let samples = TestSignal.bursts([0.5, 0.6, 0.6, 0.4, 0.5])
        var first = Self.phraseAlone()
        first.words.append(RecognizedWord(word: "list", start: 4.3, end: 4.6, confidence: 1))
        first.confidence = 0.95
        func hearing(after: ([String], Double)) throws -> (Recognition, phraseCalls: Int, calls: Int) {
            let rest = Recognition(words: after.0.map { RecognizedWord(word: $0, start: 4.5, end: 4.9, confidence: 1) },
                                   confidence: after.1)
            let commands = FakeRecognizer(recognitions: [first, rest])
            let phrase = FakeRecognizer(recognitions: [Self.phraseAlone()])
            let heard = WakePhraseAgain(grammar: try grammar(), commands: commands, phrase: phrase,
                                        gate: Gate(threshold: 0.5, rejectBelow: 0.3), isAsleep: { _ in true })
                .recognize(samples, start: 3)
            return (heard, phrase.calls, commands.calls)
        }
        let (same, phraseCalls, calls) = try hearing(after: (["list"], 0.9))
        #expect(same.text == "hey computer list" && same.phraseAlone.isEmpty && same.afterPhrase.isEmpty)
        #expect(phraseCalls == 0 && calls == 2)
        let (other, otherPhraseCalls, otherCalls) = try hearing(after: (["help"], 0.9))
        #expect(other.phraseAlone.map(\.text) == ["hey computer"])
        #expect(other.afterPhrase.map(\.text) == ["help"], "the rest, heard once")
        #expect(otherPhraseCalls == 1 && otherCalls == 2)
    }

    @Test func withoutCommandsAfterThePhraseThereIsNothingToHearAgain() throws {
        let always = try PromptGrammar(registry: Builtins.registry(), wakePhrase: "hey computer")
        #expect(always.phraseAlone == nil)
        #expect(try grammar().phraseAlone?.interpret(["hey", "computer"])?.line == "listen on")
    }
}
