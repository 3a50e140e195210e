import Testing
import VshTestSupport
@testable import VshCore
@testable import VshVoice
@testable import VshCommands
@testable import VshListening

/// Asleep in attention `wake`, words that began with the wake phrase are heard again with
/// the phrase alone, unless they were the phrase alone and sure; nothing else is, so talk
/// and a sure wake cost one hearing as before.
@Suite struct WakePhraseAgainTests {
    func grammar() throws -> PromptGrammar {
        try PromptGrammar(registry: Builtins.registry(), wakePhrase: "hey computer", commandsAfterWake: true)
    }

    @Test func onlyWordsThatBeganWithThePhraseAreHeardAgainAndOnlyAsleep() throws {
        let phrase = FakeRecognizer(Array(repeating: (["hey", "computer"], 0.99), count: 5))
        var asleep = true
        func hearing(_ text: String, _ confidence: Double = 0.4, threshold: Double = 0.5) throws -> Recognition {
            let commands = FakeRecognizer([(text.split(separator: " ").map(String.init), confidence)])
            return WakePhraseAgain(grammar: try grammar(), commands: commands, phrase: phrase,
                                   gate: Gate(threshold: threshold, rejectBelow: 0.3), isAsleep: { _ in asleep })
                .recognize([0, 0], start: 3)
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
        #expect(try hearing("list").phraseAlone.isEmpty, "a command alone")
        #expect(try hearing("what").phraseAlone.isEmpty, "other words")
        asleep = false
        #expect(try hearing("hey computer list").phraseAlone.isEmpty, "awake")
        #expect(phrase.calls == 4)
    }

    @Test func withoutCommandsAfterThePhraseThereIsNothingToHearAgain() throws {
        let always = try PromptGrammar(registry: Builtins.registry(), wakePhrase: "hey computer")
        #expect(always.phraseAlone == nil)
        #expect(try grammar().phraseAlone?.interpret(["hey", "computer"])?.line == "listen on")
    }
}
