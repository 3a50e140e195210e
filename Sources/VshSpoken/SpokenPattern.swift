/// The small pattern language of spoken forms:
///   words           `stop recording`
///   alternatives    `(low | medium | high)`
///   optional words  `[set] quality`
///   slots           `<digit>` (zero…nine, oh), `<number>` (zero…ninety-nine),
///                   `<digits>` (one or more digits in a row)
/// Alternatives and slots capture what was said, numbered `$1`, `$2`… from the left;
/// slots capture the value as digits ("seven" → 7, "twenty one" → 21).
package indirect enum SpokenPattern: Equatable, Sendable {
    case word(String)
    case sequence([SpokenPattern])
    case alternatives([SpokenPattern])
    case optional(SpokenPattern)
    case slot(Slot)

    package enum Slot: String, Sendable, CaseIterable {
        case digit, number, digits
    }

    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Parses a pattern; errors say what is wrong and where.
    package static func parse(_ text: String) throws -> SpokenPattern {
        var parser = PatternParser<SpokenPattern>(text: text) { name in
            guard let slot = Slot(rawValue: name) else {
                throw ParseError(message: "unknown slot <\(name)> in \"\(text)\"; use <digit>, <digits> or <number>")
            }
            return .slot(slot)
        }
        return try parser.parseAlternatives(until: nil)
    }

    /// Every word the pattern can produce (for the pronunciation dictionary).
    package var vocabulary: Set<String> { Set(words) }

    /// Every word the pattern can produce, in the order it writes them (a slot's from zero
    /// up), as often as it writes them: the examples a person is shown first ("quality
    /// low", "quality medium").
    package var words: [String] {
        switch self {
        case .word(let w): [w]
        case .sequence(let items), .alternatives(let items): items.flatMap(\.words)
        case .optional(let item): item.words
        case .slot(let slot): NumberWords.vocabulary(for: slot)
        }
    }

    /// The words, not a slot's, that a phrase of the pattern can begin with: "play" for
    /// `play <number>`, "show" and "list" for `(show | list) [all]`.
    package var firstWords: Set<String> {
        switch self {
        case .word(let w): return [w]
        case .alternatives(let items): return items.reduce(into: Set()) { $0.formUnion($1.firstWords) }
        case .optional(let item): return item.firstWords
        case .slot: return []
        case .sequence(let items):
            var words = Set<String>()
            for item in items {
                words.formUnion(item.firstWords)
                if item.match([]) == nil { break }  // it takes a word, so what follows cannot begin the phrase
            }
            return words
        }
    }

    /// The pattern as a JSGF rule expansion (slots refer to the rules `<digit>`, `<number>`).
    package var jsgf: String {
        switch self {
        case .word(let w): w
        case .sequence(let items): items.map(\.jsgf).joined(separator: " ")
        case .alternatives(let items): "(" + items.map(\.jsgf).joined(separator: " | ") + ")"
        case .optional(let item): "[" + item.jsgf + "]"
        case .slot(.digits): "<digit>+"
        case .slot(let slot): "<\(slot.rawValue)>"
        }
    }

    /// Matches the whole of `words`; returns the captures in order, or nil.
    package func match(_ words: [String]) -> [String]? {
        var result: [String]?
        matchPrefix(words[...], captures: []) { rest, captures in
            if rest.isEmpty {
                result = captures
                return true
            }
            return false
        }
        return result
    }

    /// Continuation-passing backtracking: calls `next` with each way the pattern can
    /// consume a prefix of `words`; stops when `next` returns true.
    @discardableResult
    private func matchPrefix(
        _ words: ArraySlice<String>, captures: [String],
        _ next: (ArraySlice<String>, [String]) -> Bool
    ) -> Bool {
        switch self {
        case .word(let w):
            guard words.first == w else { return false }
            return next(words.dropFirst(), captures)
        case .sequence(let items):
            return Self.matchSequence(items[...], words, captures, next)
        case .alternatives(let items):
            for item in items {
                let found = item.matchPrefix(words, captures: []) { rest, inner in
                    let said = words.prefix(words.count - rest.count).joined(separator: " ")
                    return next(rest, captures + [said] + inner)
                }
                if found { return true }
            }
            return false
        case .optional(let item):
            if item.matchPrefix(words, captures: captures, next) { return true }
            return next(words, captures)
        case .slot(let slot):
            for (value, used) in NumberWords.readings(of: words, as: slot) {
                if next(words.dropFirst(used), captures + [value]) { return true }
            }
            return false
        }
    }

    private static func matchSequence(
        _ items: ArraySlice<SpokenPattern>, _ words: ArraySlice<String>, _ captures: [String],
        _ next: (ArraySlice<String>, [String]) -> Bool
    ) -> Bool {
        guard let first = items.first else { return next(words, captures) }
        return first.matchPrefix(words, captures: captures) { rest, newCaptures in
            matchSequence(items.dropFirst(), rest, newCaptures, next)
        }
    }
}

/// A tree the pattern language parses into: `SpokenPattern` for built-in spoken forms,
/// `CustomPhrase` for command files. The enum cases serve as the constructors.
package protocol PatternSyntax {
    static func word(_ word: String) -> Self
    static func sequence(_ items: [Self]) -> Self
    static func alternatives(_ items: [Self]) -> Self
    static func optional(_ item: Self) -> Self
    /// Whether it is a group already, so `( … )` around it adds no second capture.
    var isAlternatives: Bool { get }
}

extension SpokenPattern: PatternSyntax {
    package var isAlternatives: Bool {
        if case .alternatives = self { true } else { false }
    }
}

/// The one recursive-descent parser of the pattern language. `SpokenPattern` and
/// `CustomPhrase` share it and differ only in what a `<…>` may name, which `slot` decides.
package struct PatternParser<Node: PatternSyntax> {
    let chars: [Character]
    var index = 0
    let text: String
    /// Whether a group still open at the end of the text is reported as "missing ')'"
    /// rather than "empty choice" (command files do; built-in forms keep the older message).
    let missingCloserAtEnd: Bool
    /// Turns what is written between `<` and `>` into a slot, or throws a complete message.
    let slot: (String) throws -> Node

    package init(text: String, missingCloserAtEnd: Bool = false, slot: @escaping (String) throws -> Node) {
        self.text = text
        chars = Array(text)
        self.missingCloserAtEnd = missingCloserAtEnd
        self.slot = slot
    }

    /// A syntax error: what is wrong, at which column of the quoted pattern.
    func fail(_ what: String) -> SpokenPattern.ParseError {
        SpokenPattern.ParseError(message: "\(what) at column \(index + 1) of \"\(text)\"")
    }

    mutating func skipSpaces() {
        while index < chars.count, chars[index] == " " || chars[index] == "\t" { index += 1 }
    }

    package mutating func parseAlternatives(until closer: Character?) throws -> Node {
        var options = [try parseSequence(until: closer)]
        while index < chars.count, chars[index] == "|" {
            index += 1
            options.append(try parseSequence(until: closer))
        }
        if let closer {
            guard index < chars.count, chars[index] == closer else { throw fail("missing '\(closer)'") }
            index += 1
        } else if index < chars.count {
            throw fail("unexpected '\(chars[index])'")
        }
        return options.count == 1 ? options[0] : .alternatives(options)
    }

    mutating func parseSequence(until closer: Character?) throws -> Node {
        var items: [Node] = []
        while true {
            skipSpaces()
            guard index < chars.count else { break }
            let c = chars[index]
            if c == "|" || c == ")" || c == "]" { break }
            switch c {
            case "(":
                index += 1
                let inner = try parseAlternatives(until: ")")
                // A group is always a capture, even with one choice.
                items.append(inner.isAlternatives ? inner : .alternatives([inner]))
            case "[":
                index += 1
                items.append(.optional(try parseAlternatives(until: "]")))
            case "<":
                index += 1
                let start = index
                while index < chars.count, chars[index] != ">" { index += 1 }
                guard index < chars.count else { throw fail("missing '>'") }
                let name = String(chars[start..<index])
                index += 1
                items.append(try slot(name))
            default:
                let start = index
                while index < chars.count, chars[index].isLetter || chars[index] == "'" || chars[index] == "-" {
                    index += 1
                }
                guard index > start else { throw fail("unexpected '\(c)'") }
                items.append(.word(String(chars[start..<index]).lowercased()))
            }
        }
        if items.isEmpty {
            let unclosed = missingCloserAtEnd && index == chars.count ? closer : nil
            throw fail(unclosed.map { "missing '\($0)'" } ?? "empty choice")
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }
}
