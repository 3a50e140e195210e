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
        #expect(history.problem == "\(dir.file("history")): skipped 2 lines that are not history (time, typed or spoken, "
                + "confidence and command, separated by tabs); correct or delete them")
    }

    /// A history file that is not text is said to be one, not read as an empty history
    /// in silence (issue 28, item 15); what can be read of a damaged file still is.
    @Test func aBinaryHistoryFileIsSaid() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        var bytes = Data((0..<600).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) })
        bytes.append(Data("\n2026-01-01T00:00:00Z\ttyped\t-\thelp\n".utf8))
        try bytes.write(to: URL(fileURLWithPath: dir.file("history")))
        let history = CommandHistory(path: dir.file("history"), limit: 10)
        #expect(history.entries.map(\.line) == ["help"])
        let problem = try #require(history.problem)
        #expect(problem.hasPrefix("\(dir.file("history")) is not a text file, so "), "\(problem)")
        #expect(problem.hasSuffix(" of it could not be read as history; move it aside, and vsh starts a new history there"))
        // A directory in its place is named for what it is.
        dir.write("", to: "dir/history/x")
        #expect(CommandHistory(path: dir.file("dir/history"), limit: 10).problem
                == "\(dir.file("dir/history")) is a directory, not a history file; move it aside, and vsh starts a new history there")
        // A good file has nothing to say.
        #expect(CommandHistory(path: dir.file("none"), limit: 10).problem == nil)
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
