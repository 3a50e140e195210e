import VshCore
import Foundation
import VshSpoken

/// A command defined in a command file, checked and ready to join the registry.
package struct CustomCommand {
    /// What a keyword command does (`keyword:`): see `KeywordState`.
    package enum KeywordKind: String, CaseIterable, Sendable {
        /// Starts the keyword command (when none is active) and adds its digits.
        case add
        /// Clears the digits, keeps the command.
        case back
        /// Clears the command and its digits: vsh waits for a command again.
        case reset
        /// Records the command and its digits in the outputs, then resets.
        case done
    }

    /// A program and its arguments; `{slot}` in an argument is replaced by the slot's
    /// value inside that one argument. No shell ever sees them.
    struct ProgramCall {
        var arguments: [String]
        /// The program found on PATH when the file was loaded.
        var path: String
    }

    enum Step {
        /// A vsh command line (`run:`); slot values are quoted into it.
        case line(String)
        /// A program that vsh waits for (`exec:`), or only starts (`start:`).
        case program(ProgramCall, wait: Bool)
    }

    enum Action {
        case steps([Step])
        case keyword(KeywordKind)
    }

    /// One way of saying the command, as it joins the voice grammar.
    struct Form {
        /// In `SpokenPattern` syntax; `$N` in `line` are its captures.
        var spoken: SpokenForm
        /// The `say:` line it comes from, and what it says.
        var line: Int
        var say: String
    }

    package let name: String
    package let file: String
    package let line: Int
    let summary: String
    /// The slots in the order they are typed, with the names `{…}` refers to.
    let slots: [(name: String, kind: SlotKind)]
    let lists: [String: CommandFileSyntax.ListDefinition]
    var forms: [Form]
    let action: Action
    let destructive: Bool
    /// The text of the actions, for `help NAME`, and their lines.
    let actionText: [String]
    let actionLines: [Int]

    var keyword: KeywordKind? {
        if case .keyword(let kind) = action { return kind }
        return nil
    }

    /// Where it was defined: `FILE:LINE`.
    package var location: String { "\(file):\(line)" }

    var usage: String { ([name] + slots.map(\.kind.written)).joined(separator: " ") }

    var info: CommandInfo {
        // back, reset and done mean something only while a keyword command listens.
        let waits = keyword.map { [KeywordKind.back, .reset, .done].contains($0) } ?? false
        let unavailable: (@Sendable (Session) -> String?)? = waits ? Self.unlessKeywordListens : nil
        return CommandInfo(
            name: name, summary: summary, spokenForms: forms.map(\.spoken),
            arguments: slots.map { slot in
                guard case .list(let list) = slot.kind else { return .values([]) }
                return .values((lists[list]?.items ?? []).map { Words.quote($0.value) })
            },
            destructive: destructive, unavailable: unavailable)
    }

    /// Why back, reset and done do nothing now: no keyword command listens.
    @Sendable static func unlessKeywordListens(_ session: Session) -> String? {
        session.custom.keywords.isListening ? nil : "no keyword command is listening"
    }

    var helpText: String {
        var text = "\(summary)\n\nUSAGE: \(usage)\n\n"
        if !slots.isEmpty {
            text += "ARGUMENTS:\n"
            for slot in slots {
                text += "  " + slot.kind.written.padding(toLength: 22, withPad: " ", startingAt: 0)
                    + " " + describe(slot.kind) + "\n"
            }
            text += "\n"
        }
        text += "RUNS:\n" + actionText.map { "  \($0)\n" }.joined()
        text += "\nDEFINED IN:\n  \(location)\n"
        return text
    }

    func describe(_ kind: SlotKind) -> String {
        switch kind {
        case .digit: return "a digit, 0-9"
        case .digits: return "digits, such as 42 (said one by one)"
        case .number(let r): return "a whole number from \(r.lowerBound) to \(r.upperBound)"
        case .list(let name):
            let items = (lists[name]?.items ?? []).map { $0.spoken == $0.value ? $0.value : "\($0.value) (say \"\($0.spoken)\")" }
            return "one of: " + items.joined(separator: ", ")
        }
    }

    /// The registry entry: typed arguments are the slot values in order.
    var entry: CommandEntry {
        let command = self
        return CommandEntry(
            info: info, usage: usage, helpText: { command.helpText },
            parse: { arguments in command.parse(arguments) })
    }

    func parse(_ arguments: [String]) -> ParseOutcome {
        if arguments.contains("--help") || arguments.contains("-h") { return .help(helpText) }
        var arguments = arguments
        // `count 1 2 3` and `count one two three` as well as `count 123`.
        if let last = slots.last, last.kind == .digits, arguments.count > slots.count {
            let row = arguments[(slots.count - 1)...].map(KeywordState.digits)
            if !row.contains(nil) { arguments = arguments.prefix(slots.count - 1) + [row.map { $0! }.joined()] }
        }
        guard arguments.count == slots.count else {
            let expected = slots.isEmpty ? "takes no arguments"
                : "takes \(slots.count == 1 ? "one value" : "\(slots.count) values"): \(slots.map(\.kind.written).joined(separator: " "))"
            return .failure("\(expected), not \(arguments.isEmpty ? "none" : arguments.map { "'\($0)'" }.joined(separator: " "))\nusage: \(usage)")
        }
        var values: [(String, String)] = []
        for (slot, argument) in zip(slots, arguments) {
            guard let value = value(of: argument, for: slot.kind) else {
                return .failure("'\(argument)' is not \(describe(slot.kind))\nusage: \(usage)")
            }
            values.append((slot.name, value))
        }
        return .run(CustomRun(command: self, values: values))
    }

    /// The value a typed word gives a slot, or nil when it is not one.
    func value(of word: String, for kind: SlotKind) -> String? {
        switch kind {
        case .digit:
            if word.count == 1, word.allSatisfy(\.isASCII), word.allSatisfy(\.isNumber) { return word }
            return NumberWords.digit(word.lowercased()).map(String.init)
        case .digits:
            return KeywordState.digits(word)
        case .number(let range):
            guard word.count <= 3, let n = Int(word), range.contains(n), word.allSatisfy(\.isNumber) else { return nil }
            return String(n)
        case .list(let name):
            let items = lists[name]?.items ?? []
            let spoken = word.lowercased().split(separator: " ").joined(separator: " ")
            return (items.first { $0.spoken == spoken } ?? items.first { $0.value == word })?.value
        }
    }
}
