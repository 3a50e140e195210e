import Foundation
import Testing
@testable import VshCore
@testable import VshStore
@testable import VshTestSupport

@Suite struct StoreSafetyTests {
    static let damaged: [(name: String, bytes: [UInt8], reason: String)] = [
        ("20261101-0000", [], "the file is empty"),
        ("20261101-0001", [0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02], "binary data, not text"),
        ("20261101-0002", Array("Title: caf".utf8) + [0xe9] + Array("\nCreated: 2026-11-01T10:00:00Z\n\nx\n".utf8),
         "not UTF-8 text"),
        ("20261101-0003", Array("Title: cut short\nCreated: 2026-11-01T10:00:00Z\nDurat".utf8),
         "the header does not end in a blank line (truncated?)"),
        ("20261101-0004", Array("Title: no date\n\ntext\n".utf8), "no Created date in the header"),
        ("20261101-0005", Array("Created: yesterday\n\ntext\n".utf8),
         "Created 'yesterday' is not a date like 2026-11-21T14:02:11+01:00"),
        ("20261101-0006", Array("Just some notes\nwith no header at all\n\n".utf8), "header line 1 is not 'Key: value'"),
    ]

    @Test func damagedFilesAreSkippedWithAWarningAndLeftAsTheyAre() throws {
        let f = StoreFixture()
        let good = try f.save("fine", at: "2026-11-21T10:00:00")
        for file in Self.damaged {
            try Data(file.bytes).write(to: URL(fileURLWithPath: f.path + "/\(file.name).txt"))
        }
        let expected = Self.damaged.map { "skipped \(f.path)/\($0.name).txt: \($0.reason)" }
        for store in [f.store, f.makeStore()] {   // a fresh scan, then from the cache
            let listing = try store.items()
            #expect(listing.items.map(\.id) == [good.id])
            #expect(listing.warnings == expected)
        }
        for file in Self.damaged {
            #expect(StoreFiles.read(f.path + "/\(file.name).txt") == file.bytes, "\(file.name) was changed")
            #expect(throws: CommandError.self) { try f.store.item(file.name) }
        }
        let harness = f.harness()
        #expect(harness.script(["list"]) == 0)
        #expect(harness.error.text.hasPrefix("warning: skipped \(f.path)/20261101-0000.txt: the file is empty\n"))
        #expect(harness.output.text.contains("fine"))
    }

    @Test func theCacheFollowsChangesMadeByOtherTools() throws {
        let f = StoreFixture()
        let a = try f.save("alpha", at: "2026-11-21T10:00:00")
        #expect(try f.store.items().items.count == 1)
        // Another tool adds a transcript the way FORMAT.md asks: write, then rename.
        f.directory.write("Title: from a script\nCreated: 2026-11-21T12:00:00+01:00\n\nhello\n", to: "new.tmp")
        #expect(rename(f.directory.file("new.tmp"), f.path + "/20261121-other.txt") == 0)
        #expect(try f.store.items().items.map(\.title) == ["from a script", "alpha"])
        // ... and removes one.
        try FileManager.default.removeItem(atPath: f.path + "/\(a.id).txt")
        #expect(try f.store.items().items.map(\.title) == ["from a script"])
        // A damaged or missing cache is rebuilt.
        f.directory.write("vsh-index 1\n+ a 99999 x\n", to: "store/.cache/index")
        #expect(try f.store.items().items.map(\.title) == ["from a script"])
        try FileManager.default.removeItem(atPath: f.path + "/.cache")
        #expect(try f.store.items().items.map(\.title) == ["from a script"])
    }

    @Test func vshChangesAppendToTheCacheInsteadOfRebuildingIt() throws {
        let f = StoreFixture()
        let a = try f.save("alpha", at: "2026-11-21T10:00:00")
        _ = try f.store.items()
        let snapshot = try #require(f.directory.read("store/.cache/index"))
        let b = try f.save("beta", at: "2026-11-21T11:00:00")
        try f.store.delete([a.id])
        let cache = try #require(f.directory.read("store/.cache/index"))
        #expect(cache.hasPrefix(snapshot), "appended, not rewritten")
        #expect(cache.contains("\n- \(a.id)\n"))
        #expect(try f.store.items().items == [b])
        #expect(f.directory.read("store/.cache/index") == cache, "read as it was, not rebuilt")
        _ = try f.store.undo()
        #expect(try f.store.items().items.map(\.id) == [b.id, a.id])
    }

    @Test func twoStoresOnTwoThreadsLoseNothing() async throws {
        let f = StoreFixture()
        _ = try f.store.items()
        let path = f.path
        let perWorker = 40
        // A clock that moves a second per call, so ids differ across both stores.
        final class Ticker: @unchecked Sendable {
            private let lock = NSLock()
            private var t = StoreFixture.date("2026-11-21T08:00:00")
            func next() -> Date { lock.withLock { t += 1; return t } }
        }
        let ticker = Ticker()
        let zone = f.zone
        try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<2 {
                group.addTask {
                    let store = TranscriptStore(directory: path, clock: ticker.next, timeZone: zone)
                    var ids: [String] = []
                    for i in 0..<perWorker {
                        let draft = try store.beginDraft(quality: .low, sampleRate: 8000, source: "worker \(worker)")
                        WaveFixture.write(draft.audioPath, seconds: 0.01, rate: 8000)
                        ids.append(try store.save(draft, title: "w\(worker) \(i)").id)
                        if i % 10 == 9 { _ = try store.items() }
                    }
                    try store.delete(Array(ids.prefix(5)))
                    return ids
                }
            }
            var all: [String] = []
            for try await ids in group { all += ids }
            #expect(Set(all).count == 2 * perWorker)
        }
        let listed = try f.makeStore().items().items
        #expect(listed.count == 2 * (perWorker - 5))
        // The cache agrees with a fresh scan of the files.
        try FileManager.default.removeItem(atPath: path + "/.cache")
        #expect(try f.makeStore().items().items == listed)
        #expect(f.store.trash().count == 2)
    }
}
