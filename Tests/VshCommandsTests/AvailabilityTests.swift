import Foundation
import Testing
import VshCore
import VshListening
import VshStore
import VshTestSupport
import VshVoice

/// What can apply now: `save` with nothing recorded, `undo` with nothing deleted in this
/// session, or `done` with no keyword command listening can do nothing, and says why
/// (`CommandInfo.unavailable`). The prompt still hears each as itself (issue 35).
@Suite struct AvailabilityTests {
    /// The commands of `session`'s registry that apply now.
    static func names(_ session: Session) -> Set<String> {
        Set(session.registry.entries.map(\.info).filter { $0.unavailable?(session) == nil }.map(\.name))
    }

    @Test func saveAndDiscardApplyWithARecordingToSave() throws {
        let harness = ShellHarness()
        let session = harness.session
        #expect(!Self.names(session).contains("save"))
        #expect(!Self.names(session).contains("discard"))
        #expect(Self.names(session).isSuperset(of: ["list", "record", "help", "stop"]))
        let store = session.store
        session.currentDraft = try store.beginDraft(quality: .medium, sampleRate: 16_000, source: "test")
        #expect(Self.names(session).isSuperset(of: ["save", "discard"]))
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
        #expect(!Self.names(session).contains("undo"))
        #expect(harness.script(["list", "delete 1"]) == 0, "\(harness.error.text)")
        #expect(Self.names(session).contains("undo"))
        #expect(harness.script(["undo"]) == 0, "\(harness.error.text)")
        #expect(!Self.names(session).contains("undo"))

        // A deletion of an earlier session is undone by typing, not by a word of talk.
        #expect(harness.script(["delete 1"]) == 0)
        let later = fixture.harness()
        later.session.store = fixture.makeStore()  // a new session opens the store anew
        #expect(!Self.names(later.session).contains("undo"))
    }

    /// Said, `delete` takes a number of the last listing: with none (nor an empty one) it
    /// could only fail, so "delete one" is no command then, and is never asked about
    /// (issue 28, item 15). A listing kept by an earlier vsh counts, as it does typed.
    @Test func deleteAppliesWithANumberedListing() throws {
        let fixture = StoreFixture()
        try fixture.save("an old note", at: "2026-11-20T10:00:00")
        let harness = fixture.harness()
        let session = harness.session
        #expect(!Self.names(session).contains("delete"))
        #expect(VoicePrompt.unavailable(in: session)(VoiceCandidate(command: "delete", line: "delete 1"))
                == "there is no listing to delete from; 'list' first")
        #expect(harness.script(["search nothing-matches-this"]) == 0, "\(harness.error.text)")
        #expect(!Self.names(session).contains("delete"), "an empty listing has no numbers")
        #expect(harness.script(["list"]) == 0, "\(harness.error.text)")
        #expect(Self.names(session).contains("delete"))
        #expect(VoicePrompt.unavailable(in: session)(VoiceCandidate(command: "delete", line: "delete 1")) == nil)
        let later = fixture.harness()
        later.session.store = fixture.makeStore()
        #expect(Self.names(later.session).contains("delete"))
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
        #expect(Self.names(session).isDisjoint(with: ["done", "back"]))
        #expect(Self.names(session).contains("code"))
        #expect(harness.script(["code 7"]) == 0, "\(harness.error.text)")
        #expect(Self.names(session).isSuperset(of: ["done", "back"]))
    }

    /// The recogniser is given every command: "undo" said with nothing to undo is heard as
    /// `undo`, not as the nearest command that applies (it was `play 2`).
    @Test func thePromptGrammarHearsEveryCommandAsItself() throws {
        let session = ShellHarness().session
        let grammar = try PromptGrammar(registry: session.registry, wakePhrase: nil)
        #expect(grammar.meaning(of: ["save"]) == .command(VoiceCandidate(command: "save", line: "save")))
        #expect(grammar.meaning(of: ["undo"]) == .command(VoiceCandidate(command: "undo", line: "undo")))
        #expect(grammar.vocabulary.contains("undo"))
        #expect(!Self.names(session).contains("undo"))
    }
}
