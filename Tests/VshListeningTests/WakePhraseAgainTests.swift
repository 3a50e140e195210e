import Testing
@testable import VshCore
@testable import VshVoice
@testable import VshCommands
@testable import VshListening

/// Asleep in attention `wake`, words that began with the wake phrase are heard again with
/// the phrase alone, unless they were the phrase alone and sure; nothing else is, so talk
/// and a sure wake cost one hearing as before.
@Suite struct WakePhraseAgainTests {
    /// A recogniser that hears every utterance as `text`, and counts how often it was asked.
    final class Fixed: CommandRecognizer {
        let text: String
        let confidence: Double
        var asked = 0
        init(_ text: String, _ confidence: Double = 0.4) {
            self.text = text
            self.confidence = confidence
        }
        func recognize(_ samples: [Int16], start: Double) -> Recognition {
            asked += 1
            return ListeningTests.utterance(text, confidence).recognition
        }
    }

    func grammar() throws -> PromptGrammar {
        try PromptGrammar(registry: Builtins.registry(), wakePhrase: "hey computer", commandsAfterWake: true)
    }

    @Test func onlyWordsThatBeganWithThePhraseAreHeardAgainAndOnlyAsleep() throws {
        let phrase = Fixed("hey computer")
        var asleep = true
        func hearing(_ text: String, _ confidence: Double = 0.4) throws -> Recognition {
            WakePhraseAgain(grammar: try grammar(), commands: Fixed(text, confidence), phrase: phrase,
                            gate: Gate(threshold: 0.5, rejectBelow: 0.3), isAsleep: { _ in asleep })
                .recognize([0, 0], start: 3)
        }
        #expect(try hearing("hey computer list").phraseAlone.map(\.text) == ["hey computer"])
        #expect(try hearing("hey computer").phraseAlone.map(\.text) == ["hey computer"])
        #expect(phrase.asked == 2)
        #expect(try hearing("hey computer", 0.9).phraseAlone.isEmpty, "the phrase alone, sure: it wakes as it is")
        #expect(try hearing("hey computer list", 0.9).phraseAlone.count == 1, "a command after it: was it there?")
        #expect(phrase.asked == 3)
        #expect(try hearing("list").phraseAlone.isEmpty, "a command alone")
        #expect(try hearing("what").phraseAlone.isEmpty, "other words")
        asleep = false
        #expect(try hearing("hey computer list").phraseAlone.isEmpty, "awake")
        #expect(phrase.asked == 3)
    }

    @Test func withoutCommandsAfterThePhraseThereIsNothingToHearAgain() throws {
        let always = try PromptGrammar(registry: Builtins.registry(), wakePhrase: "hey computer")
        #expect(always.phraseAlone == nil)
        #expect(try grammar().phraseAlone?.interpret(["hey", "computer"])?.line == "listen on")
    }
}
