import VshCore
import VshSpoken

/// Keyword commands with digit parameters. vsh is either waiting for a command, or
/// listening to the current keyword command: saying a keyword (`code seven`) starts it
/// with its digits; while listening, digits are added and other words are ignored,
/// except the keyword commands themselves (`code`, `count` add their digits, `back`
/// clears the digits, `reset` drops the command, `done` records it in the outputs).
package struct KeywordState: Sendable {
    /// The keyword command being listened to; nil while waiting.
    package private(set) var command: String?
    /// Its parameters: digits, in the order they were said.
    package private(set) var digits = ""
    /// The keyword commands loaded, by name (set when command files load).
    package internal(set) var kinds: [String: CustomCommand.KeywordKind] = [:]

    package init() {}

    package var isListening: Bool { command != nil }

    /// The prompt with the state in it: `vsh [code 7 3]> ` while listening.
    package func prompt(_ base: String) -> String {
        guard let command else { return base }
        let shown = ([command] + digits.map(String.init)).joined(separator: " ")
        if base.hasSuffix("> ") { return base.dropLast(2) + " [\(shown)]> " }
        return "[\(shown)] " + base
    }

    /// A line that arrives while listening and does not start with a keyword command:
    /// its digits (`7`, `seven`, `42`) are added and other words ignored. Returns nil when
    /// the line should run as usual, else a note for the person ("" when all went in).
    package mutating func absorb(_ words: [String]) -> String? {
        guard let command, let first = words.first, kinds[first] == nil else { return nil }
        let found = words.compactMap(Self.digits).joined()
        digits += found
        if !found.isEmpty { return "" }
        let stop = kinds.filter { $0.value == .reset }.keys.sorted().first.map { ", or '\($0)' to stop" } ?? ""
        return "listening to '\(command)': '\(words.joined(separator: " "))' ignored; say digits\(stop) (typed commands still run)"
    }

    /// The digits a word stands for: `7`, `42`, `seven`, `oh`.
    static func digits(_ word: String) -> String? {
        if !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isNumber }) { return word }
        return NumberWords.digit(word.lowercased()).map(String.init)
    }

    mutating func add(command name: String, digits more: String) {
        if command == nil { command = name }
        digits += more
    }

    mutating func back() throws {
        guard command != nil else { throw CommandError("no keyword command is active, so there are no digits to clear; \(startHint)") }
        digits = ""
    }

    mutating func reset() {
        command = nil
        digits = ""
    }

    /// Leaves the keyword command without recording it (Ctrl-D at its prompt); returns
    /// what to tell the person, or nil when none is active.
    mutating func leave() -> String? {
        guard let command else { return nil }
        let shown = ([command] + digits.map(String.init)).joined(separator: " ")
        reset()
        return "left the keyword command '\(shown)' without recording it; Ctrl-D again leaves vsh"
    }

    /// The record `done` writes; throws when there is nothing to record.
    func finished() throws -> OutputsFile.Record {
        guard let command else { throw CommandError("no keyword command is active, so there is nothing to record; \(startHint)") }
        guard !digits.isEmpty else { throw CommandError("'\(command)' has no digits yet; say some first, or reset") }
        return OutputsFile.Record(command: command, value: digits)
    }

    private var startHint: String {
        let keywords = kinds.filter { $0.value == .add }.keys.sorted()
        return keywords.isEmpty ? "start a keyword command first" : "start with a keyword such as '\(keywords[0])'"
    }
}
