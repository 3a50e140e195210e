import Foundation
import Testing
import VshCore
import VshTestSupport
@testable import VshStore

/// Every `--json` output is made by one encoder in one style (FORMAT.md, "JSON output"):
/// each object on one line, `": "` after a key and `", "` between members; a listing is an
/// array with one object per line; `show` is one object (issue 28, item 11).
@Suite struct JSONOutputTests {
    /// The store of StoreCommandTests, a draft, a deletion, a history and an output.
    static func fixture() throws -> (StoreFixture, ShellHarness) {
        let (f, harness) = try StoreCommandTests.fixture()
        let draft = try f.store.beginDraft(quality: .medium, sampleRate: 16_000, source: "file test.wav")
        WaveFixture.write(draft.audioPath, seconds: 1)
        _ = try f.store.updateDraft(draft, transcript: "an unsaved note", words: [], duration: 1)
        try f.store.delete(["20261120-f000"])
        _ = harness.session.history.append(HistoryEntry(time: f.now, source: .spoken, confidence: 0.91, line: "list"))
        let outputs = harness.session.paths.store  // where keyword commands record (OutputsFile)
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        try "{\"command\": \"code\", \"value\": \"73\"}\n".write(toFile: outputs + "/outputs.jsonl", atomically: true, encoding: .utf8)
        return (f, harness)
    }

    /// Whether `text` is in the one style: outside strings, every `:` is followed by a
    /// space, every `,` by a space or (between a listing's elements) a line break, and a
    /// line break comes only after a listing's `[`, between its elements and before its `]`.
    static func styleProblems(_ text: String) -> [String] {
        var problems: [String] = []
        let chars = Array(text)
        var inString = false, escaped = false, depth = 0
        for (i, c) in chars.enumerated() {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            let next = i + 1 < chars.count ? chars[i + 1] : "\n"
            switch c {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case ":" where next != " ": problems.append("no space after ':' at \(i)")
            case "," where next != " " && !(next == "\n" && depth == 1): problems.append("',' without a space at \(i)")
            case "\n" where i != chars.count - 1 && depth != 1: problems.append("a line break inside an object at \(i)")
            default: break
            }
        }
        return problems
    }

    @Test(arguments: [
        ("list --json", true), ("search --json milk", true), ("drafts --json", true), ("trash --json", true),
        ("history --json", true), ("outputs --json", true), ("show 20261121-jg54 --json", false),
        ("encrypt --json", false), ("train status --json", false),
    ])
    func everyJSONOutputIsInTheOneStyle(_ command: String, isListing: Bool) throws {
        let (f, harness) = try Self.fixture()
        defer { withExtendedLifetime(f) {} }
        #expect(harness.script([command]) == 0, "\(harness.error.text)")
        let text = harness.output.text
        #expect(text.hasSuffix("\n"))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
        if isListing {
            let array = try #require(parsed as? [[String: Any]], "\(text)")
            #expect(!array.isEmpty, "\(text)")
            #expect(text.split(separator: "\n").count == array.count + 2, "one object per line: \(text)")
        } else {
            #expect(parsed is [String: Any], "\(text)")
            #expect(text.split(separator: "\n").count == 1, "\(text)")
        }
        #expect(Self.styleProblems(text) == [], "\(text)")
    }

    @Test func theNewListingsHaveTheirDocumentedFields() throws {
        let (f, harness) = try Self.fixture()
        defer { withExtendedLifetime(f) {} }
        func json(_ command: String) throws -> Any {
            harness.output.clear()
            #expect(harness.script([command]) == 0, "\(harness.error.text)")
            return try JSONSerialization.jsonObject(with: Data(harness.output.text.utf8))
        }
        let drafts = try #require(try json("drafts --json") as? [[String: Any]])
        #expect(drafts.first?["transcript"] as? String == "an unsaved note")
        #expect(drafts.first?["sample_rate"] as? Int == 16_000)
        let trash = try #require(try json("trash --json") as? [[String: Any]])
        #expect(trash.first?["deleted"] as? String == "2026-11-21 15:00:00")
        #expect((trash.first?["transcripts"] as? [[String: Any]])?.first?["title"] as? String == "plumber")
        #expect(trash.first?["this_session"] as? Bool == true)
        #expect(trash.first?["undo_restores"] as? Bool == true)
        #expect(trash.first?["process"] as? Int == Int(getpid()))
        let history = try #require(try json("history --json") as? [[String: Any]])
        #expect(history.first?["source"] as? String == "spoken")
        #expect(history.first?["confidence"] as? Double == 0.91)
        #expect(history.first?["line"] as? String == "list")
        let encrypt = try #require(try json("encrypt --json") as? [String: Any])
        #expect(encrypt["encryption"] as? Bool == false)
        #expect(encrypt["plain"] as? Int == 3)
        let train = try #require(try json("train status --json") as? [String: Any])
        #expect(train["model"] as? String == "stock")
        #expect(train["takes_kept"] as? Int == 0)
    }

    @Test func jsonGoesOnlyWithTheListing() throws {
        let (f, harness) = try Self.fixture()
        defer { withExtendedLifetime(f) {} }
        #expect(harness.script(["trash empty --json", "encrypt on --json", "train reset --json"]) == 1)
        #expect(harness.error.text.contains("--json goes with 'trash' alone"))
        #expect(harness.error.text.contains("--json goes with 'encrypt' alone"))
        #expect(harness.error.text.contains("--json goes with 'train status'"))
        #expect(f.store.trash().count == 1, "nothing was emptied")
    }
}
