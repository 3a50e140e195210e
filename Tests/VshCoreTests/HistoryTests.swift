import Foundation
import Testing
@testable import VshCore
import VshTestSupport

@Suite struct HistoryTests {
    @Test func persistsAcrossInstancesWithSourceAndConfidence() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let history = CommandHistory(path: dir.file("state/history"), limit: 100)
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        history.append(HistoryEntry(time: when, source: .typed, line: "quality high"))
        history.append(HistoryEntry(time: when, source: .spoken, confidence: 0.875, line: "help\twith tab"))
        let again = CommandHistory(path: dir.file("state/history"), limit: 100)
        #expect(again.entries == [
            HistoryEntry(time: when, source: .typed, line: "quality high"),
            HistoryEntry(time: when, source: .spoken, confidence: 0.88, line: "help with tab"),
        ].map { e in var e = e; if e.confidence != nil { e.confidence = 0.88 }; return e })
        let text = dir.read("state/history") ?? ""
        #expect(text == "2027-01-15T08:00:00Z\ttyped\t-\tquality high\n2027-01-15T08:00:00Z\tspoken\t0.88\thelp with tab\n")
    }

    @Test func keepsOnlyTheNewestEntries() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let history = CommandHistory(path: dir.file("history"), limit: 4)
        for i in 1...20 { history.append(HistoryEntry(time: Date(), source: .typed, line: "cmd \(i)")) }
        #expect(history.entries.map(\.line) == ["cmd 17", "cmd 18", "cmd 19", "cmd 20"])
        let lines = (dir.read("history") ?? "").split(separator: "\n")
        #expect(lines.count <= 5, "the file is trimmed, not left to grow")
        #expect(CommandHistory(path: dir.file("history"), limit: 4).entries.map(\.line)
                == ["cmd 17", "cmd 18", "cmd 19", "cmd 20"])
    }

    @Test func damagedLinesAreSkippedAndCounted() {
        let dir = TempDirectory()
        defer { dir.remove() }
        dir.write("garbage\n2026-01-01T00:00:00Z\ttyped\t-\thelp\nnot\ta\tdate\tx\n", to: "history")
        let history = CommandHistory(path: dir.file("history"), limit: 10)
        #expect(history.entries.map(\.line) == ["help"])
        #expect(history.skippedLines == 2)
    }

    @Test func zeroLimitKeepsNothing() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let history = CommandHistory(path: dir.file("history"), limit: 0)
        history.append(HistoryEntry(time: Date(), source: .typed, line: "help"))
        #expect(history.entries.isEmpty)
        #expect(dir.read("history") == nil)
    }
}
