import Foundation

/// The words of a JSGF grammar file (for a `--grammar` given by the user): what is left
/// after comments, the header, rule names, tags, weights and operators are removed.
package enum JSGFWords {
    package static func words(in grammar: String) -> Set<String> {
        var text = grammar
        // Comments.
        while let open = text.range(of: "/*"), let close = text.range(of: "*/", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        var words = Set<String>()
        for rawLine in text.split(separator: "\n") {
            var line = String(rawLine)
            if let c = line.range(of: "//") { line = String(line[..<c.lowerBound]) }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#JSGF") || trimmed.hasPrefix("grammar ") || trimmed.hasPrefix("import ") { continue }
            var body = trimmed
            if let eq = body.firstIndex(of: "=") { body = String(body[body.index(after: eq)...]) }
            body = strip(body, open: "<", close: ">")
            body = strip(body, open: "{", close: "}")
            body = strip(body, open: "/", close: "/")
            for token in body.split(whereSeparator: { " \t()[]|*+;".contains($0) }) {
                words.insert(token.lowercased())
            }
        }
        return words
    }

    private static func strip(_ s: String, open: Character, close: Character) -> String {
        var out = ""
        var depth = false
        for ch in s {
            if !depth && ch == open { depth = true; continue }
            if depth && ch == close { depth = false; continue }
            if !depth { out.append(ch) }
        }
        return out
    }
}
