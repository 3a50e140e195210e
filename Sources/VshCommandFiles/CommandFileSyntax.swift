import VshCore

/// A command file read line by line, before any meaning is given to it: its lists and
/// its command blocks, each remembering its line. The format (README, "Your own voice
/// commands"):
///
///     # a comment
///     list colour: red | green | dark blue = navy
///
///     command paint
///         summary: Paint the wall
///         say: paint [the] wall <colour>
///         exec: paint-wall --colour {colour}
///
/// `command NAME` starts a block; `KEY: VALUE` lines belong to the block above them;
/// indentation is optional. `list NAME: …` may appear anywhere and serves the whole file.
struct CommandFileSyntax {
    enum Key: String, CaseIterable {
        case summary, say, run, exec, start, keyword, destructive
    }

    struct Field {
        var key: Key
        var value: String
        var line: Int
    }

    struct Block {
        var name: String
        var line: Int
        var fields: [Field] = []

        func values(_ key: Key) -> [Field] { fields.filter { $0.key == key } }
    }

    struct ListItem: Equatable {
        /// What is said: lower-case words.
        var spoken: String
        /// What the slot gives: the text after `=`, else the spoken words.
        var value: String
    }

    struct ListDefinition {
        var name: String
        var line: Int
        var items: [ListItem] = []
    }

    let file: String
    private(set) var blocks: [Block] = []
    private(set) var lists: [String: ListDefinition] = [:]
    private(set) var problems: [CommandFileProblem] = []

    init(text: String, file: String) {
        self.file = file
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            read(SpokenWords.trim(raw), line: index + 1)
        }
    }

    private mutating func fail(_ line: Int, _ message: String) {
        problems.append(CommandFileProblem(.error, file: file, line: line, message))
    }

    private mutating func read(_ text: String, line: Int) {
        if text.isEmpty || text.hasPrefix("#") { return }
        let (head, rest) = Self.splitHead(text)
        switch head {
        case "command":
            readCommand(rest, line: line)
        case "list":
            readList(rest, line: line)
        default:
            readField(text, line: line)
        }
    }

    private mutating func readCommand(_ rest: String, line: Int) {
        var name = rest
        if name.hasSuffix(":") { name.removeLast() }
        name = SpokenWords.trim(name)
        guard Self.isName(name) else {
            let what = name.isEmpty ? "'command' needs a name" : "'\(name)' cannot name a command"
            fail(line, "\(what); write 'command NAME' with a lower-case name of letters, digits and '-' (it is what you type)")
            // Fields up to the next block are attached to a block that is never built.
            blocks.append(Block(name: "", line: line))
            return
        }
        blocks.append(Block(name: name, line: line))
    }

    private mutating func readList(_ rest: String, line: Int) {
        guard let colon = rest.firstIndex(of: ":") else {
            fail(line, "a list needs a name and its words: 'list NAME: one | two | three'")
            return
        }
        let name = SpokenWords.trim(rest[..<colon])
        guard Self.isName(name), !name.contains("-") else {
            fail(line, "'\(name)' cannot name a list; use lower-case letters, digits and '_', as in 'list colour: red | green'")
            return
        }
        if ["digit", "digits", "number"].contains(name) {
            fail(line, "'\(name)' is a built-in slot; give the list another name")
            return
        }
        if let first = lists[name] {
            problems.append(CommandFileProblem(.warning, file: file, line: line,
                "list '\(name)' is also defined on line \(first.line); these words are added to it (write the list on one line to say so)"))
        }
        var definition = lists[name] ?? ListDefinition(name: name, line: line)
        for piece in rest[rest.index(after: colon)...].split(separator: "|", omittingEmptySubsequences: false) {
            let item = SpokenWords.trim(piece)
            var spoken = item, value: String?
            if let eq = item.firstIndex(of: "=") {
                spoken = SpokenWords.trim(item[..<eq])
                value = SpokenWords.trim(item[item.index(after: eq)...])
            }
            let words = spoken.lowercased().split(separator: " ").map(String.init)
            guard !words.isEmpty, words.allSatisfy(SpokenWords.isWord) else {
                fail(line, item.isEmpty
                     ? "list '\(name)' has an empty item; remove the extra '|'"
                     : "'\(spoken)' in list '\(name)' is not something to say; use words of letters (and ' or -), then '= value' for what it gives")
                continue
            }
            if value == "" {
                fail(line, "'\(spoken) =' in list '\(name)' gives nothing; write the value after '=' or drop the '='")
                continue
            }
            let joined = words.joined(separator: " ")
            if definition.items.contains(where: { $0.spoken == joined }) {
                fail(line, "'\(joined)' is in list '\(name)' twice; remove one")
                continue
            }
            definition.items.append(ListItem(spoken: joined, value: value ?? joined))
        }
        lists[name] = definition
    }

    private mutating func readField(_ text: String, line: Int) {
        guard let colon = text.firstIndex(of: ":") else {
            fail(line, "cannot read '\(text)'; expected 'command NAME', 'list NAME: …' or 'KEY: VALUE' "
                 + "with KEY one of \(Self.keyNames)")
            return
        }
        let word = SpokenWords.trim(text[..<colon])
        let value = SpokenWords.trim(text[text.index(after: colon)...])
        guard let key = Key(rawValue: word) else {
            var message = "unknown key '\(word)'"
            if let near = Suggest.closest(to: word, among: Key.allCases.map(\.rawValue)) {
                message += "; did you mean '\(near)'?"
            } else {
                message += "; use one of \(Self.keyNames)"
            }
            fail(line, message)
            return
        }
        guard !blocks.isEmpty else {
            fail(line, "'\(key.rawValue):' is outside any command; start one with 'command NAME' above it")
            return
        }
        if value.isEmpty {
            fail(line, "'\(key.rawValue):' has no value; write it after the colon")
            return
        }
        blocks[blocks.count - 1].fields.append(Field(key: key, value: value, line: line))
    }

    static let keyNames = Key.allCases.map(\.rawValue).joined(separator: ", ")

    /// The first word and the rest, trimmed.
    static func splitHead(_ text: String) -> (String, String) {
        guard let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (text, "") }
        return (String(text[..<space]), SpokenWords.trim(text[space...]))
    }

    /// A command or list name: lower-case letters, digits, `-` and `_`, starting with a letter.
    static func isName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }
}

/// Words of the spoken pattern language: letters, `'` and `-`.
enum SpokenWords {
    /// `text` without spaces, tabs and carriage returns at either end (Foundation's
    /// trimming is slow enough to show when hundreds of files load at start-up).
    static func trim<S: StringProtocol>(_ text: S) -> String {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        func blank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\r" }
        while start < end, blank(scalars[start]) { start = scalars.index(after: start) }
        while end > start, blank(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    static func isWord(_ s: String) -> Bool {
        !s.isEmpty && s.allSatisfy { $0.isLetter || $0 == "'" || $0 == "-" } && s.contains(where: \.isLetter)
    }
}
