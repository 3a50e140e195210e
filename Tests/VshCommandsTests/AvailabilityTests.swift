import Foundation
import Testing
import VshCore
import VshListening
import VshStore
import VshTestSupport
import VshVoice

/// The prompt listens only for what can apply now: a word of talk heard as `save` with
/// nothing recorded, `undo` with nothing deleted in this session, or `done` with no keyword
/// command listening cannot run it, because the grammar does not have it then.
@Suite struct AvailabilityTests {
    static func names(_ registry: CommandRegistry) -> Set<String> { Set(registry.entries.map(\.info.name)) }

    @Test func saveAndDiscardApplyWithARecordingToSave() throws {
        let harness = ShellHarness()
        let session = harness.session
        #expect(!Self.names(session.registry.applying(to: session)).contains("save"))
        #expect(!Self.names(session.registry.applying(to: session)).contains("discard"))
        #expect(Self.names(session.registry.applying(to: session)).isSuperset(of: ["list", "record", "help", "stop"]))
        let store = session.store
        session.currentDraft = try store.beginDraft(quality: .medium, sampleRate: 16_000, source: "test")
        #expect(Self.names(session.registry.applying(to: session)).isSuperset(of: ["save", "discard"]))
        // Typing it is never refused: with nothing recorded, save says why.
        session.currentDraft = nil
        #expect(harness.script(["save"]) == 1)
        #expect(harness.error.text.contains("error: save: "))
    }

    @Test func undoAppliesToADeletionOfThisSession() throws {
        let fixture = StoreFixture()
        try fixture.save("an old note", at: "2026-11-20T10:00:00")
        try fixture.save("another", at: "2026-11-20T11:00:00")
        let harness = fixture.harness()
        let session = harness.session
        #expect(!Self.names(session.registry.applying(to: session)).contains("undo"))
        #expect(harness.script(["list", "delete 1"]) == 0, "\(harness.error.text)")
        #expect(Self.names(session.registry.applying(to: session)).contains("undo"))
        #expect(harness.script(["undo"]) == 0, "\(harness.error.text)")
        #expect(!Self.names(session.registry.applying(to: session)).contains("undo"))

        // A deletion of an earlier session is undone by typing, not by a word of talk.
        #expect(harness.script(["delete 1"]) == 0)
        let later = fixture.harness()
        later.session.store = fixture.makeStore()  // a new session opens the store anew
        #expect(!Self.names(later.session.registry.applying(to: later.session)).contains("undo"))
    }

    /// Said, `delete` takes a number of the last listing: with none (nor an empty one) it
    /// could only fail, so "delete one" is no command then, and is never asked about
    /// (issue 28, item 15). A listing kept by an earlier vsh counts, as it does typed.
    @Test func deleteAppliesWithANumberedListing() throws {
        let fixture = StoreFixture()
        try fixture.save("an old note", at: "2026-11-20T10:00:00")
        let harness = fixture.harness()
        let session = harness.session
        #expect(!Self.names(session.registry.applying(to: session)).contains("delete"))
        let before = try PromptGrammar(registry: session.registry.applying(to: session), wakePhrase: nil)
        #expect(before.meaning(of: ["delete", "one"]) == nil)
        #expect(harness.script(["search nothing-matches-this"]) == 0, "\(harness.error.text)")
        #expect(!Self.names(session.registry.applying(to: session)).contains("delete"), "an empty listing has no numbers")
        #expect(harness.script(["list"]) == 0, "\(harness.error.text)")
        #expect(Self.names(session.registry.applying(to: session)).contains("delete"))
        let after = try PromptGrammar(registry: session.registry.applying(to: session), wakePhrase: nil)
        #expect(after.meaning(of: ["delete", "one"]) == .command(VoiceCandidate(command: "delete", line: "delete 1")))
        let later = fixture.harness()
        later.session.store = fixture.makeStore()
        #expect(Self.names(later.session.registry.applying(to: later.session)).contains("delete"))
    }

    @Test func backResetAndDoneApplyWhileAKeywordCommandListens() throws {
        let harness = customShell(["keywords.commands": """
            command code
            say: code <digit>
            keyword: add

            command done
            say: done
            keyword: done

            command back
            say: back
            keyword: back
            """])
        let session = harness.session
        #expect(Self.names(session.registry.applying(to: session)).isDisjoint(with: ["done", "back"]))
        #expect(Self.names(session.registry.applying(to: session)).contains("code"))
        #expect(harness.script(["code 7"]) == 0, "\(harness.error.text)")
        #expect(Self.names(session.registry.applying(to: session)).isSuperset(of: ["done", "back"]))
    }

    /// What the recogniser is given: said with nothing recorded, "save" is no command.
    @Test func thePromptGrammarHasOnlyWhatApplies() throws {
        let session = ShellHarness().session
        let grammar = try PromptGrammar(registry: session.registry.applying(to: session), wakePhrase: nil)
        #expect(grammar.meaning(of: ["save"]) == nil)
        #expect(grammar.meaning(of: ["undo"]) == nil)
        #expect(grammar.meaning(of: ["list"]) == .command(VoiceCandidate(command: "list", line: "list")))
        #expect(!grammar.vocabulary.contains("undo"))
    }
}
