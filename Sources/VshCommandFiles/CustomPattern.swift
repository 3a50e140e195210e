import VshCore
import Foundation
import VshSpoken

/// A slot of a command-file pattern, and what a typed or spoken value for it may be.
enum SlotKind: Hashable {
    case digit, digits
    case number(ClosedRange<Int>)
    case list(String)

    /// The name `{…}` refers to (before `_1`, `_2` are added to repeated slots).
    var baseName: String {
        switch self {
        case .digit: "digit"
        case .digits: "digits"
        case .number: "number"
        case .list(let name): name
        }
    }

    /// As written in a pattern: `<digit>`, `<number 1-20>`, `<colour>`.
    var written: String {
        switch self {
        case .number(let r) where r != 0...99: "<number \(r.lowerBound)-\(r.upperBound)>"
        default: "<\(baseName)>"
        }
    }
}

/// A spoken pattern in a command file: `SpokenPattern`'s language (`(a | b)`, `[a]`,
/// `<digit>`, `<digits>`, `<number>`) plus number ranges (`<number 1-20>`) and the
/// file's lists (`<colour>`).
indirect enum CustomPhrase: Equatable {
    case word(String)
    case sequence([CustomPhrase])
    case choice([CustomPhrase])
    case optional(CustomPhrase)
    case slot(SlotKind)

    struct ParseError: Error, Equatable {
        var message: String
        /// Whether the message already says what to do.
        var complete = false
    }

    static func parse(_ text: String, lists: Set<String>) throws -> CustomPhrase {
        var parser = PatternParser<CustomPhrase>(text: text, missingCloserAtEnd: true) { written in
            .slot(try slotKind(written, in: text, lists: lists))
        }
        do {
            return try parser.parseAlternatives(until: nil)
        } catch let error as SpokenPattern.ParseError {
            // Syntax errors say where; the command-file reader adds what to do.
            throw ParseError(message: error.message)
        }
    }

    /// Whether matching it gives `SpokenPattern` captures (every group and slot does).
    var captures: Bool {
        switch self {
        case .word: false
        case .choice, .slot: true
        case .sequence(let items): items.contains(where: \.captures)
        case .optional(let item): item.captures
        }
    }

    /// The fewest words it can be said in.
    var shortest: Int {
        switch self {
        case .word, .slot: 1
        case .optional: 0
        case .sequence(let items): items.reduce(0) { $0 + $1.shortest }
        case .choice(let items): items.map(\.shortest).min() ?? 0
        }
    }

    /// The same language as patterns whose captures come in a fixed order: optional
    /// parts and groups that hold slots or groups are multiplied out, because
    /// `SpokenPattern` numbers `$1`, `$2`… by what was actually matched.
    func variants() -> [CustomPhrase] {
        switch self {
        case .word, .slot:
            return [self]
        case .choice(let items):
            if !items.contains(where: \.captures) { return [self] }
            return items.flatMap { $0.variants() }
        case .optional(let item):
            if !item.captures { return [self] }
            return item.variants() + [.sequence([])]
        case .sequence(let items):
            var result: [[CustomPhrase]] = [[]]
            for item in items {
                let options = item.variants()
                result = result.flatMap { prefix in options.map { prefix + [$0] } }
                if result.count > 4096 { break }
            }
            return result.map { .sequence($0) }
        }
    }

    /// The slots from left to right (of a variant: each is filled whenever it matches).
    var slots: [SlotKind] {
        switch self {
        case .word: []
        case .slot(let kind): [kind]
        case .sequence(let items), .choice(let items): items.flatMap(\.slots)
        case .optional(let item): item.slots
        }
    }

    /// A variant in `SpokenPattern` syntax, and for each slot the `$N` its value comes in.
    /// List slots become groups of their spoken words.
    func rendered(lists: [String: CommandFileSyntax.ListDefinition]) -> (pattern: String, captures: [Int]) {
        var count = 0
        var slotCaptures: [Int] = []
        func render(_ p: CustomPhrase) -> String {
            switch p {
            case .word(let w):
                return w
            case .sequence(let items):
                return items.map(render).filter { !$0.isEmpty }.joined(separator: " ")
            case .choice(let items):
                count += 1
                return "(" + items.map(render).joined(separator: " | ") + ")"
            case .optional(let item):
                return "[" + render(item) + "]"
            case .slot(let kind):
                count += 1
                slotCaptures.append(count)
                switch kind {
                case .digit: return "<digit>"
                case .digits: return "<digits>"
                case .number: return "<number>"
                case .list(let name):
                    return "(" + (lists[name]?.items.map(\.spoken) ?? []).joined(separator: " | ") + ")"
                }
            }
        }
        let text = render(self)
        return (text, slotCaptures)
    }

    /// Names for a variant's slots: the base name, with `_1`, `_2`… when one repeats.
    static func names(of slots: [SlotKind]) -> [String] {
        var total: [String: Int] = [:], seen: [String: Int] = [:]
        for s in slots { total[s.baseName, default: 0] += 1 }
        return slots.map { s in
            guard total[s.baseName]! > 1 else { return s.baseName }
            seen[s.baseName, default: 0] += 1
            return "\(s.baseName)_\(seen[s.baseName]!)"
        }
    }
}

extension CustomPhrase: PatternSyntax {
    static func alternatives(_ items: [CustomPhrase]) -> CustomPhrase { .choice(items) }

    var isAlternatives: Bool {
        if case .choice = self { true } else { false }
    }

    /// The slot `written` between `<` and `>` in `text`: one of `SpokenPattern`'s slots,
    /// a number range or a list of the file.
    static func slotKind(_ written: String, in text: String, lists: Set<String>) throws -> SlotKind {
        let inside = written.trimmingCharacters(in: .whitespaces)
        let parts = inside.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch (parts.first ?? "", parts.count) {
        case ("digit", 1): return .digit
        case ("digits", 1): return .digits
        case ("number", 1): return .number(0...99)
        case ("number", 2):
            let bounds = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let low = Int(bounds[0]), let high = Int(bounds[1]), low <= high else {
                throw ParseError(message: "<\(inside)> is not a range; write it as <number 1-20>", complete: true)
            }
            guard low >= 0, high <= 99 else {
                throw ParseError(message: "<\(inside)> reaches beyond 0-99, the numbers vsh can hear; narrow the range", complete: true)
            }
            return .number(low...high)
        case (let name, 1) where lists.contains(name):
            return .list(name)
        default:
            var message = "unknown slot <\(inside)> in \"\(text)\""
            if let near = Suggest.closest(to: inside, among: ["digit", "digits", "number"] + lists.sorted()) {
                message += "; did you mean <\(near)>? (lists are defined with 'list NAME: …')"
            } else {
                message += "; use <digit>, <digits>, <number>, <number 1-20> or a list of this file ('list \(inside): …')"
            }
            throw ParseError(message: message, complete: true)
        }
    }
}

extension CustomPhrase {
    /// The phrase as a person would write it (for messages).
    var written: String {
        switch self {
        case .word(let w): w
        case .sequence(let items): items.map(\.written).filter { !$0.isEmpty }.joined(separator: " ")
        case .choice(let items): "(" + items.map(\.written).joined(separator: " | ") + ")"
        case .optional(let item): "[" + item.written + "]"
        case .slot(let kind): kind.written
        }
    }
}
