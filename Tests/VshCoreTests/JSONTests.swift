import Foundation
import Testing
import VshCore

/// The one JSON encoder (`JSONWriter`): its style, and strings that read back as written.
@Suite struct JSONTests {
    @Test(arguments: ["", "plain", "quote \" and \\ back", "line\nbreak\ttab\r", "\u{01}\u{1F}", "café ☕️ 日本"])
    func stringsReadBackAsWritten(_ text: String) throws {
        let parsed = try JSONSerialization.jsonObject(with: Data(JSON.string(text).utf8), options: .fragmentsAllowed)
        #expect(parsed as? String == text)
        var bytes = text
        let fromBytes = bytes.withUTF8 { utf8 in JSONWriter.text { $0.string(utf8: utf8) } }
        #expect(fromBytes == JSON.string(text))
    }

    @Test func objectsAreOneLineWithSpaceAfterEveryColonAndComma() {
        let text = JSONWriter.text { json in
            json.object { json in
                json.field("id", "a")
                json.field("n", integer: 2)
                json.field("x", 0.125)
                json.field("y", 1.0 / 3)
                json.field("none", nil as String?)
                json.field("ok", true)
                json.field("words", strings: ["one", "two"])
                json.key("inner")
                json.object { $0.field("empty", strings: []) }
            }
        }
        #expect(text == #"{"id": "a", "n": 2, "x": 0.125, "y": 0.333, "none": null, "ok": true, "words": ["one", "two"], "inner": {"empty": []}}"#)
    }

    @Test func aListingHasOneElementPerLine() {
        let two = JSONWriter.text { json in
            json.listing { json in
                json.object { $0.field("n", integer: 1) }
                json.object { $0.field("n", integer: 2) }
            }
        }
        #expect(two == "[\n{\"n\": 1},\n{\"n\": 2}\n]")
        #expect(JSONWriter.text { $0.listing { _ in } } == "[]")
    }
}
