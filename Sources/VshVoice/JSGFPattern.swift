import Foundation
import VshCore
import VshSpoken

/// A JSGF grammar file (`--grammar`) as a `SpokenPattern`, so the voice pipeline can ask of
/// it what it asks of vsh's own grammar: is this a whole phrase, can it still grow.
/// Public rules are the phrases; rule references are expanded in place; `X+` and `X*`
/// are written out to eight repeats (longer phrases than that are not commands). Tags
/// and weights are ignored. A grammar this does not understand (recursion, `<VOID>`,
/// `<NULL>`, a syntax error) gives nil: then no phrase counts as final.
package enum JSGFPattern {
    static let repeats = 8

    package static func parse(_ grammar: String) -> SpokenPattern? {
        var rules: [String: [Token]] = [:]
        var publicRules: [String] = []
        for statement in statements(grammar) {
            guard let eq = statement.firstIndex(of: "=") else { continue }
            var head = statement[..<eq].trimmingCharacters(in: .whitespaces)
            let isPublic = head.hasPrefix("public ")
            if isPublic { head = String(head.dropFirst("public ".count)).trimmingCharacters(in: .whitespaces) }
            guard head.hasPrefix("<"), head.hasSuffix(">") else { return nil }
            let name = String(head.dropFirst().dropLast())
            guard let body = tokens(String(statement[statement.index(after: eq)...])) else { return nil }
            rules[name] = body
            if isPublic { publicRules.append(name) }
        }
        guard !publicRules.isEmpty else { return nil }
        var parser = Parser(rules: rules)
        var phrases: [SpokenPattern] = []
        for name in publicRules {
            guard let pattern = parser.rule(name) else { return nil }
            phrases.append(pattern)
        }
        return phrases.count == 1 ? phrases[0] : .alternatives(phrases)
    }

    enum Token: Equatable {
        case word(String), rule(String), symbol(Character)
    }

    /// The grammar's statements without comments, header, `grammar` and `import` lines.
    static func statements(_ grammar: String) -> [String] {
        var text = grammar
        while let open = text.range(of: "/*"), let close = text.range(of: "*/", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        text = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: " ")
        return text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter {
            !$0.isEmpty && !$0.hasPrefix("#JSGF") && !$0.hasPrefix("grammar ") && !$0.hasPrefix("import ")
        }
    }

    static func tokens(_ body: String) -> [Token]? {
        var out: [Token] = []
        let chars = Array(body)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                i += 1
            } else if c == "<" || c == "{" || c == "/" {
                let close: Character = c == "<" ? ">" : c == "{" ? "}" : "/"
                guard let end = chars[(i + 1)...].firstIndex(of: close) else { return nil }
                if c == "<" { out.append(.rule(String(chars[(i + 1)..<end]))) }
                i = end + 1
            } else if "()[]|+*".contains(c) {
                out.append(.symbol(c))
                i += 1
            } else {
                let start = i
                while i < chars.count, !" \t\n\r<{/()[]|+*".contains(chars[i]) { i += 1 }
                out.append(.word(String(chars[start..<i]).lowercased()))
            }
        }
        return out
    }

    /// Recursive descent over one rule's tokens, expanding references.
    struct Parser {
        let rules: [String: [Token]]
        var expanding: Set<String> = []

        mutating func rule(_ name: String) -> SpokenPattern? {
            guard let body = rules[name], !expanding.contains(name) else { return nil }
            expanding.insert(name)
            defer { expanding.remove(name) }
            var index = 0
            guard let pattern = alternatives(body, &index), index == body.count else { return nil }
            return pattern
        }

        mutating func alternatives(_ tokens: [Token], _ index: inout Int) -> SpokenPattern? {
            var options: [SpokenPattern] = []
            repeat {
                if index < tokens.count, tokens[index] == .symbol("|") { index += 1 }
                guard let option = sequence(tokens, &index) else { return nil }
                options.append(option)
            } while index < tokens.count && tokens[index] == .symbol("|")
            return options.count == 1 ? options[0] : .alternatives(options)
        }

        mutating func sequence(_ tokens: [Token], _ index: inout Int) -> SpokenPattern? {
            var items: [SpokenPattern] = []
            while index < tokens.count {
                var item: SpokenPattern
                switch tokens[index] {
                case .word(let w):
                    index += 1
                    item = .word(w)
                case .rule(let name):
                    index += 1
                    guard let expanded = rule(name) else { return nil }
                    item = expanded
                case .symbol(let open) where open == "(" || open == "[":
                    index += 1
                    guard let inner = alternatives(tokens, &index), index < tokens.count,
                          tokens[index] == .symbol(open == "(" ? ")" : "]") else { return nil }
                    index += 1
                    item = open == "(" ? inner : .optional(inner)
                default:
                    return items.isEmpty ? nil : (items.count == 1 ? items[0] : .sequence(items))
                }
                if index < tokens.count, tokens[index] == .symbol("+") || tokens[index] == .symbol("*") {
                    let more = (1..<repeats).reduce(nil as SpokenPattern?) { tail, _ in
                        .optional(tail.map { .sequence([item, $0]) } ?? item)
                    }!
                    item = tokens[index] == .symbol("+") ? .sequence([item, more]) : .optional(.sequence([item, more]))
                    index += 1
                }
                items.append(item)
            }
            return items.isEmpty ? nil : (items.count == 1 ? items[0] : .sequence(items))
        }
    }
}
