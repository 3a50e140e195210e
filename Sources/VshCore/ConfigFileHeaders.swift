extension ConfigFile {
    /// The line and reason of the first table header that does not start with a key, as in `[|voice]`
    /// or a lone `[`, or of an array element that starts with `}` or a Unicode line
    /// separator (`a = [}]`); nil when there is none.
    ///
    /// Why: toml++ (inside TOMLKit) only asserts that a header's first character can begin
    /// a key, and that a value does not start with a terminator. Any build aborts on such a file
    /// (SwiftPM does not define NDEBUG for it), so vsh reports these itself before TOMLKit
    /// sees the file. Found by `FuzzTests`.
    ///
    /// A small scanner, enough to tell headers from values: it skips comments and strings
    /// (basic, literal and their multi-line forms) and counts brackets inside values, so
    /// `[` opens a header only at the start of a line outside any value, as for toml++.
    static func unparsable(_ text: String) -> (line: Int, reason: String)? {
        let b = Array(text.utf8)
        var i = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var depth = 0
        var lineStart = true
        /// The open brackets of the value being read, and whether an array element may start here.
        var open: [UInt8] = []
        var elementNext = false
        func isKeyStart(_ c: UInt8) -> Bool {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                 UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]"):
                return true
            default:
                return false
            }
        }
        func skipBlanks() -> Bool {
            let from = i
            while i < b.count && (b[i] == 32 || b[i] == 9) { i += 1 }
            return i > from
        }
        /// Skips the string opening at `i` (a quote), counting the lines it spans.
        func skipString() {
            let quote = b[i]
            let triple = i + 2 < b.count && b[i + 1] == quote && b[i + 2] == quote
            i += triple ? 3 : 1
            while i < b.count {
                let c = b[i]
                if c == 10 {
                    line += 1
                    if !triple { i += 1; return }   // a one-line string ends at the line's end
                }
                if c == 92 && quote == 34 { i += 2; continue }   // an escape in a basic string
                if c == quote && (!triple || (i + 2 < b.count && b[i + 1] == quote && b[i + 2] == quote)) {
                    i += triple ? 3 : 1
                    return
                }
                i += 1
            }
        }
        while i < b.count {
            let c = b[i]
            switch c {
            case 10:
                line += 1
                lineStart = true
                i += 1
                continue
            case 32, 9:
                i += 1
                continue
            case UInt8(ascii: "#"):
                while i < b.count && b[i] != 10 { i += 1 }
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                skipString()
                lineStart = false
                elementNext = false
                continue
            case UInt8(ascii: "}") where elementNext, 0xE2 where i + 2 < b.count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9),
                 0xC2 where i + 1 < b.count && b[i + 1] == 0x85:
                // `}` where an array element should be, and U+2028, U+2029, U+0085 outside
                // strings and comments, trip toml++'s value assertion.
                return (line, c == UInt8(ascii: "}") ? "expected a value or ']' in the list, saw '}'" : "a line separator character outside quotes")
            case UInt8(ascii: "[") where lineStart && depth == 0:
                i += 1
                if !skipBlanks() && i < b.count && b[i] == UInt8(ascii: "[") {
                    i += 1
                    _ = skipBlanks()
                }
                if i < b.count && !isKeyStart(b[i]) { return (line, "a table header must start with a name, like [voice]") }
                // The rest of the line is the header's key and `]`, or an error TOMLKit reports.
                while i < b.count && b[i] != 10 { i += 1 }
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                open.append(c)
                lineStart = false
                elementNext = c == UInt8(ascii: "[")
                i += 1
                continue
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
                _ = open.popLast()
            case UInt8(ascii: ","):
                lineStart = false
                elementNext = open.last == UInt8(ascii: "[")
                i += 1
                continue
            default:
                break
            }
            elementNext = false
            lineStart = false
            i += 1
        }
        return nil
    }
}
