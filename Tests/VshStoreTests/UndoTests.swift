import Foundation
import Testing
import VshCore
import VshTestSupport
@testable import VshStore

/// `undo` takes back what this session deleted; another vsh's deletion it restores only
/// after saying what it is (title, when, by which vsh) and asking, and a script only with
/// `--yes` (issue 28, item 7).
@Suite struct UndoTests {
    /// "groceries" (20261121-jg54) deleted by one session at 14:30, "plumber"
    /// (20261120-f000) by another at 14:45; the second session's harness is returned.
    static func twoSessions() throws -> (StoreFixture, first: ShellHarness, second: ShellHarness) {
        let f = StoreFixture()
        try f.save("call the plumber", at: "2026-11-20T11:22:40", title: "plumber")
        try f.save("milk eggs bread", at: "2026-11-21T14:02:11", title: "groceries")
        let first = f.harness()
        f.now = StoreFixture.date("2026-11-21T14:30:00")
        #expect(first.script(["delete 20261121-jg54"]) == 0)
        let second = ShellHarness()
        second.session.store = f.makeStore()
        return (f, first, second)
    }

    static let asked = "the last deletion was made by another vsh: undo would restore 'groceries' (20261121-jg54), "
        + "deleted 2026-11-21 14:30:00 by vsh process \(getpid())"

    @Test func undoTakesBackThisSessionsDeletionBeforeANewerOneOfAnotherSession() throws {
        let (f, first, second) = try Self.twoSessions()
        f.now = StoreFixture.date("2026-11-21T14:45:00")
        #expect(second.script(["delete 20261120-f000"]) == 0)
        // The first session's undo restores the groceries it deleted, not the newer plumber.
        #expect(first.script(["undo"]) == 0, "\(first.error.text)")
        #expect(first.output.text == "restored 1 transcript (20261121-jg54)\n")
        #expect(f.store.trash().map { $0.items.map(\.id) } == [["20261120-f000"]])
        #expect(second.script(["undo"]) == 0, "\(second.error.text)")
        #expect(second.output.text == "restored 1 transcript (20261120-f000)\n")
    }

    @Test func aScriptIsRefusedAnotherSessionsDeletionUnlessItSaysYes() throws {
        let (f, _, second) = try Self.twoSessions()
        #expect(second.script(["undo"]) == 1)
        #expect(second.output.text == "")
        #expect(second.error.text.hasPrefix("line 1: error: undo: " + Self.asked), "\(second.error.text)")
        #expect(second.error.text.hasSuffix("; to restore it, run 'undo --yes'\n"), "\(second.error.text)")
        #expect(f.store.trash().count == 1, "nothing was restored")
        #expect(second.script(["undo --yes"]) == 0, "\(second.error.text)")
        #expect(second.output.text == "restored 1 transcript (20261121-jg54)\n")
        #expect(f.store.trash().isEmpty)
    }

    @Test(arguments: [
        ([LineInput.line("yes")], true, ""),
        ([.line("y")], true, ""),
        ([.line("no")], false, "nothing restored\n"),
        ([.endOfInput, .line("quality")], false, "\nnothing restored\nmedium\n"),
        // Any other line answers no, and runs.
        ([.line("quality")], false, "nothing restored\nmedium\n"),
    ]) func atThePromptAnotherSessionsDeletionIsDescribedAndAsked(answer: [LineInput], restores: Bool, said: String) throws {
        let (f, _, second) = try Self.twoSessions()
        let reader = ScriptedLineReader([.line("undo")] + answer)
        #expect(second.shell.runInteractive(reader: reader) == 0)
        #expect(second.error.text == "")
        let question = Self.asked + (terminal.map { " on \($0)" } ?? " without a terminal") + ". Restore it? (yes or no)\n"
        #expect(second.output.text == question + (restores ? "restored 1 transcript (20261121-jg54)\n" : said) + "\n")
        #expect(reader.prompts.prefix(2) == ["vsh> ", "vsh [yes/no]> "])
        #expect(reader.prompts.dropFirst(2).allSatisfy { $0 == "vsh> " }, "one line answers it")
        #expect(f.store.trash().isEmpty == restores)
        #expect(!second.session.history.entries.contains { $0.line == "yes" || $0.line == "y" }, "an answer is no command")
    }

    /// The terminal the test runs on, as the store records it.
    static var terminal: String? {
        [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].lazy.compactMap { ttyname($0) }.first.map { String(cString: $0) }
    }
    var terminal: String? { Self.terminal }

    @Test func eachBatchRecordsWhichVshMadeIt() throws {
        let (f, _, _) = try Self.twoSessions()
        let batch = try #require(f.makeStore().lastDeletion())
        #expect(batch.origin == TranscriptStore.Origin(process: getpid(), terminal: Self.terminal))
        #expect(!batch.isOwn)
        #expect(f.store.lastDeletion()?.isOwn == true)
        let record = try String(contentsOfFile: f.path + "/trash/\(batch.name)/.origin", encoding: .utf8)
        #expect(record.hasPrefix("Process: \(getpid())\n"))
        // A batch from before batches said (or from another tool) is described as such.
        try FileManager.default.removeItem(atPath: f.path + "/trash/\(batch.name)/.origin")
        let other = ShellHarness()
        other.session.store = f.makeStore()
        #expect(other.script(["undo"]) == 1)
        #expect(other.error.text.contains("by a vsh that did not record which (an older vsh, or another tool)"))
    }

    /// An undo cut short after its last move leaves a batch holding only its record:
    /// recovery removes it, so the next undo does not "restore nothing".
    @Test func aBatchLeftHoldingOnlyItsRecordIsRemoved() throws {
        let f = StoreFixture()
        let a = try f.save("first", at: "2026-11-21T10:00:00")
        try f.store.delete([a.id])
        _ = try f.store.undo()
        try FileManager.default.createDirectory(atPath: f.path + "/trash/20261121-100000-009", withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: f.path + "/trash/20261121-100000-009/.origin", contents: Data("Process: 1\n".utf8)))
        #expect(FileManager.default.createFile(atPath: f.path + "/.lock", contents: Data([0x2A])))  // a change was cut short
        #expect(f.makeStore().trash().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: f.path + "/trash/20261121-100000-009"))
    }
}
