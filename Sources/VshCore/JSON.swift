import Foundation

/// The one JSON encoder of every `--json` output (FORMAT.md, "JSON output"): each object
/// on one line, its keys in the order written (JSONEncoder promises none), `": "` after
/// a key and `", "` between members; a listing is an array with one element per line;
/// strings escaped as `JSON.string` escapes, numbers with at most three decimals. It
/// writes bytes, so a listing of 100,000 transcripts streams (`flush(to:)`).
///
/// ```
/// var json = JSONWriter()
/// json.object { $0.field("id", "20261121-jg54"); $0.field("duration", 1.5) }
/// // {"id": "20261121-jg54", "duration": 1.5}
/// ```
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// One entry per open object or array: whether a member was written, and what goes
    /// between members.
    private var open: [(written: Bool, separator: [UInt8])] = []
    private var afterKey = false

    package init() {}

    /// The text of one value written by `body`: `JSONWriter.text { $0.object { … } }`.
    package static func text(_ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        body(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// An object, its members written by `body`.
    package mutating func object(_ body: (inout JSONWriter) -> Void) {
        nested("{", "}", separator: ", ", body)
    }

    /// An array, its elements written by `body`, on one line.
    package mutating func array(_ body: (inout JSONWriter) -> Void) {
        nested("[", "]", separator: ", ", body)
    }

    /// An array with each element on a line of its own (`[`, the elements, `]`), as
    /// every listing prints; `[]` when empty.
    package mutating func listing(_ body: (inout JSONWriter) -> Void) {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        open.append((false, Array(",\n".utf8)))
        body(&self)
        if open.removeLast().written { bytes.append(10) }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A member's key; its value follows.
    package mutating func key(_ name: String) {
        beginValue()
        var name = name
        name.withUTF8 { appendString($0) }
        bytes += Array(": ".utf8)
        afterKey = true
    }

    package mutating func string(_ value: String?) {
        guard var value else { return null() }
        beginValue()
        value.withUTF8 { appendString($0) }
    }

    /// A string from UTF-8 bytes, copying the runs that need no escape.
    package mutating func string(utf8 value: UnsafeBufferPointer<UInt8>) {
        beginValue()
        appendString(value)
    }

    /// A number with at most three decimals (`JSON.number`); null when nil or not finite.
    package mutating func number(_ value: Double?) {
        beginValue()
        bytes += Array((value.map(JSON.number) ?? "null").utf8)
    }

    package mutating func integer(_ value: Int?) {
        beginValue()
        bytes += Array((value.map(String.init) ?? "null").utf8)
    }

    package mutating func bool(_ value: Bool) {
        beginValue()
        bytes += Array((value ? "true" : "false").utf8)
    }

    package mutating func null() {
        beginValue()
        bytes += Array("null".utf8)
    }

    package mutating func field(_ key: String, _ value: String?) {
        self.key(key)
        string(value)
    }

    package mutating func field(_ key: String, _ value: Double?) {
        self.key(key)
        number(value)
    }

    package mutating func field(_ key: String, integer value: Int?) {
        self.key(key)
        integer(value)
    }

    package mutating func field(_ key: String, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    package mutating func field(_ key: String, strings values: [String]) {
        self.key(key)
        array { for value in values { $0.string(value) } }
    }

    /// Writes what is written so far to `sink` and forgets it.
    package mutating func flush(to sink: TextSink) {
        sink.write(String(decoding: bytes, as: UTF8.self))
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func nested(_ start: Character, _ end: Character, separator: String, _ body: (inout JSONWriter) -> Void) {
        beginValue()
        bytes.append(start.asciiValue!)
        open.append((false, Array(separator.utf8)))
        body(&self)
        open.removeLast()
        bytes.append(end.asciiValue!)
    }

    /// The separator before a value or key, unless it is a key's value.
    private mutating func beginValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard let top = open.last else { return }
        bytes += top.written ? top.separator : (top.separator.last == 10 ? [10] : [])
        open[open.count - 1].written = true
    }

    /// `value` (UTF-8) as a JSON string, escaped as `JSON.string` escapes.
    private mutating func appendString(_ value: UnsafeBufferPointer<UInt8>) {
        bytes.append(34)
        var run = 0
        for (i, b) in value.enumerated() where b < 0x20 || b == 34 || b == 92 {
            bytes += value[run..<i]
            switch b {
            case 34, 92: bytes += [92, b]
            case 10: bytes += [92, UInt8(ascii: "n")]
            case 13: bytes += [92, UInt8(ascii: "r")]
            case 9: bytes += [92, UInt8(ascii: "t")]
            default: bytes += Array(String(format: "\\u%04x", b).utf8)
            }
            run = i + 1
        }
        bytes += value[run...]
        bytes.append(34)
    }
}

/// The encoder's scalars on their own, for a JSON file written in one piece.
package enum JSON {
    /// `s` as a JSON string: `"`, `\` and control characters escaped, the rest as is.
    package static func string(_ s: String) -> String {
        JSONWriter.text { $0.string(s) }
    }

    /// A number with at most three decimals.
    package static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        var s = String(format: "%.3f", x)
        while s.contains("."), s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        if s == "-0" { s = "0" }
        return s
    }
}
