import Foundation
import Testing
@testable import VshCore
@testable import VshStore
@testable import VshCommands
@testable import VshAudioFiles
import VshTestSupport

@Suite struct StoreTests {
    @Test func saveWritesPlainFilesAListingReads() throws {
        let f = StoreFixture()
        let item = try f.save("Buy milk and call the plumber about the tap", at: "2026-11-21T14:02:11", seconds: 2)
        // 14:02:11 is second 50531 of the day; × 12 slots = 606372 = "jg54" in base 32.
        #expect(item.id == "20261121-jg54")
        #expect(item.title == "Buy milk and call the plumber")
        let text = try #require(f.directory.read("store/\(item.id).txt"))
        #expect(text == """
            Id: \(item.id)
            Title: Buy milk and call the plumber
            Created: 2026-11-21T14:02:11+01:00
            Duration: 2.00
            Quality: medium
            Sample-Rate: 16000
            Audio: \(item.id).wav
            Source: microphone default

            Buy milk and call the plumber about the tap

            """)
        #expect(f.directory.read("store/\(item.id).json") == "{\"words\":[]}\n")
        #expect(WaveFile(path: f.path + "/\(item.id).wav")?.seconds == 2)
        #expect(try f.store.items().items == [item])
        #expect(try f.makeStore().item(item.id) == item)
        // The draft has gone.
        #expect(try f.store.drafts().drafts.isEmpty)
        #expect(StoreFiles.names(in: f.path + "/drafts") == [])
    }

    @Test(arguments: [
        ("", nil, "Untitled recording"),
        ("one two", nil, "one two"),
        ("a b c d e f g h", nil, "a b c d e f"),
        ("words here", "  My title ", "My title"),
        ("words here", "two\nlines", "two lines"),
    ] as [(String, String?, String)])
    func titles(_ transcript: String, _ given: String?, _ expected: String) throws {
        let f = StoreFixture()
        let item = try f.save(transcript, at: "2026-11-21T10:00:00", title: given)
        #expect(item.title == expected)
        #expect(try f.makeStore().item(item.id)?.title == expected)
    }

    @Test func idsSortByCreationAndAreUniqueWithinASecond() throws {
        let f = StoreFixture()
        f.now = StoreFixture.date("2026-11-21T09:00:00")
        let ids = try (0..<12).map { _ in try f.store.beginDraft(quality: .low, sampleRate: 8000, source: "test").id }
        #expect(Set(ids).count == 12)
        #expect(ids == ids.sorted())
        #expect(ids.allSatisfy { $0.hasPrefix("20261121-") && $0.count == 13 })
        #expect(throws: CommandError.self) { try f.store.beginDraft(quality: .low, sampleRate: 8000, source: "test") }
        f.now = StoreFixture.date("2026-11-21T09:00:01")
        let later = try f.store.beginDraft(quality: .low, sampleRate: 8000, source: "test").id
        #expect(later > ids.last!)
        #expect(StoreID.localSeconds(of: later) == StoreDate(iso: "2026-11-21T09:00:01Z")!.seconds)
    }

    @Test func listIsNewestFirstAndGroupedByDay() throws {
        let f = StoreFixture("2026-11-21T15:00:00")
        try f.save("old note", at: "2026-11-19T08:30:00", seconds: 65)
        try f.save("yesterday late", at: "2026-11-20T23:59:59")
        try f.save("early today", at: "2026-11-21T00:00:00", seconds: 3)
        try f.save("later today", at: "2026-11-21T14:02:00")
        let harness = f.harness()
        #expect(harness.script(["list"]) == 0)
        #expect(harness.output.text == """
            Today
              1  14:02   0:01  later today
              2  00:00   0:03  early today
            Yesterday
              3  23:59   0:01  yesterday late
            Thu 19 Nov 2026
              4  08:30   1:05  old note

            """)
        #expect(harness.error.text == "")
        #expect(harness.session.listing?.count == 4)
    }

    @Test(arguments: [
        ("--on today", ["later today", "early today"]),
        ("--on yesterday", ["yesterday late"]),
        ("--on 2026-11-19", ["old note"]),
        ("--since yesterday", ["later today", "early today", "yesterday late"]),
        ("--until 2026-11-20", ["yesterday late", "old note"]),
        ("--since 2026-11-19 --until 2026-11-20", ["yesterday late", "old note"]),
        ("--on 2026-11-18", []),
    ])
    func listFiltersByDay(_ options: String, _ titles: [String]) throws {
        let f = StoreFixture("2026-11-21T15:00:00")
        try f.save("old note", at: "2026-11-19T08:30:00")
        try f.save("yesterday late", at: "2026-11-20T23:59:59")
        try f.save("early today", at: "2026-11-21T00:00:00")
        try f.save("later today", at: "2026-11-21T14:02:00")
        let harness = f.harness()
        #expect(harness.script(["list \(options) --json"]) == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(harness.output.text.utf8)) as? [[String: Any]])
        #expect(array.map { $0["title"] as? String } == titles)
    }

    @Test(arguments: [
        (["plumber"], ["call the plumber", "Plumber invoice paid"]),
        (["PLUMB", "tap"], ["call the plumber"]),
        (["invoice"], ["Plumber invoice paid"]),        // in the title only
        (["café"], ["Un CAFÉ au lait"]),                 // beyond ASCII
        (["nothing"], []),
        (["call", "nothing"], []),
    ])
    func searchNeedsEveryWordInAnyCase(_ words: [String], _ titles: [String]) throws {
        let f = StoreFixture()
        try f.save("call the plumber about the tap", at: "2026-11-21T10:00:00", title: "call the plumber")
        try f.save("paid today", at: "2026-11-21T09:00:00", title: "Plumber invoice paid")
        try f.save("Un CAFÉ au lait", at: "2026-11-21T08:00:00")
        let search = try #require(TextSearch(words))
        #expect(try f.store.items().items.filter(search.matches).map(\.title) == titles)
    }

    @Test func searchOutputNumbersAndHighlightsOnATerminalOnly() throws {
        let f = StoreFixture()
        try f.save("we should call the plumber about the tap", at: "2026-11-21T10:00:00", title: "Chores")
        let harness = f.harness()
        #expect(harness.script(["search plumber"]) == 0)
        #expect(harness.output.text == "Today\n  1  10:00   0:01  Chores\n     we should call the plumber about the tap\n")
        let context = CommandContext(output: harness.output, error: harness.error, style: Style(colors: true),
                                     session: harness.session, interactive: true)
        let command = try SearchCommand.parse(["Plumber"])
        try command.run(in: context)
        #expect(harness.output.text.contains("call the \u{1B}[33mplumber\u{1B}[0m about"))
    }

    @Test func deleteMovesToTrashAndUndoRestores() throws {
        let f = StoreFixture()
        let a = try f.save("first", at: "2026-11-21T10:00:00")
        let b = try f.save("second", at: "2026-11-21T11:00:00")
        let c = try f.save("third", at: "2026-11-21T12:00:00")
        f.now = StoreFixture.date("2026-11-21T13:00:00")
        try f.store.delete([a.id, c.id])
        #expect(try f.store.items().items.map(\.id) == [b.id])
        #expect(!FileManager.default.fileExists(atPath: f.path + "/\(a.id).wav"))
        let trash = f.store.trash()
        #expect(trash.count == 1)
        #expect(trash[0].name == "20261121-130000-000")
        #expect(trash[0].items.map(\.title) == ["first", "third"])
        #expect(try f.store.undo() == TranscriptStore.Restored(items: [a.id, c.id], drafts: []))
        #expect(try f.makeStore().items().items.map(\.id) == [c.id, b.id, a.id])
        #expect(try f.store.item(a.id) == a)
        #expect(f.store.trash().isEmpty)
        #expect(throws: CommandError("nothing to undo: the trash is empty")) { try f.store.undo() }
    }

    @Test func undoIsAllOrNothingAndTakesTheNewestBatchFirst() throws {
        let f = StoreFixture()
        let a = try f.save("first", at: "2026-11-21T10:00:00")
        let b = try f.save("second", at: "2026-11-21T11:00:00")
        try f.store.delete([a.id])
        try f.store.delete([b.id])   // the same second: a second batch that sorts after
        #expect(f.store.trash().map(\.name) == ["20261121-110000-001", "20261121-110000-000"])
        // Someone put b's transcript back by hand: undo refuses and moves nothing.
        try FileManager.default.copyItem(atPath: f.path + "/trash/20261121-110000-001/\(b.id).txt", toPath: f.path + "/\(b.id).txt")
        #expect(throws: CommandError.self) { try f.store.undo() }
        #expect(FileManager.default.fileExists(atPath: f.path + "/trash/20261121-110000-001/\(b.id).wav"))
        try FileManager.default.removeItem(atPath: f.path + "/\(b.id).txt")
        #expect(try f.store.undo().items == [b.id])
        #expect(try f.store.undo().items == [a.id])
    }

    @Test func emptyTrashRemovesForGood() throws {
        let f = StoreFixture()
        let a = try f.save("first", at: "2026-11-21T10:00:00")
        try f.store.delete([a.id])
        #expect(try f.store.emptyTrash() == 1)
        #expect(StoreFiles.names(in: f.path + "/trash") == [])
        #expect(throws: CommandError.self) { try f.store.undo() }
        #expect(try f.store.item(a.id) == nil)
    }

    @Test func deletingAnUnknownIdDeletesNothing() throws {
        let f = StoreFixture()
        let a = try f.save("first", at: "2026-11-21T10:00:00")
        #expect(throws: CommandError("no transcript with id 'nope'")) { try f.store.delete([a.id, "nope"]) }
        #expect(try f.store.items().items.map(\.id) == [a.id])
        #expect(f.store.trash().isEmpty)
    }

    @Test func permissionsArePrivate() throws {
        let f = StoreFixture()
        let a = try f.save("secret", at: "2026-11-21T10:00:00")
        _ = try f.store.beginDraft(quality: .high, sampleRate: 48000, source: "test")
        try f.store.delete([a.id])
        _ = try f.store.items()
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        for dir in ["", "/drafts", "/trash", "/.cache"] { #expect(try mode(f.path + dir) == 0o700, "\(dir)") }
        _ = try f.store.undo()
        for ext in ["txt", "wav", "json"] { #expect(try mode(f.path + "/\(a.id).\(ext)") == 0o600, "\(ext)") }
        #expect(try mode(f.path + "/.lock") == 0o600)
    }
}
