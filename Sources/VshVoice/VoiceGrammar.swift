import Foundation
import VshCore
import VshSpoken

/// The one seam between grammars and the recogniser: what to recognise (JSGF over a
/// vocabulary), the way back from recognised words to a command line, and whether words
/// are a whole command that may yet grow (`EarlyEnd`). `VoiceGrammar` (the registry's
/// commands), `JSGFGrammar` (`--grammar FILE`) and the prompt's `PromptGrammar` conform.
package protocol CommandGrammar: Sendable {
    var jsgf: String { get }
    /// Whether the everyday words people say most weigh more than the rest against the
    /// commands (`OtherWords.common`): for vsh's own commands (at the prompt, and as
    /// `train` hears the takes), not for a grammar whose commands may be those very words
    /// ("up", "on", "go"), which then loses some.
    var weighsCommonWords: Bool { get }
    /// Every word the grammar can produce.
    var vocabulary: Set<String> { get }
    /// The command line `words` stand for, or nil when they are no phrase of the grammar.
    func interpret(_ words: [String]) -> VoiceCandidate?
    /// Whether `words` are a whole command, and whether a longer one begins with them;
    /// nil when they are no whole command.
    func ending(of words: [String]) -> PhraseEnding?
}

extension CommandGrammar {
    package var weighsCommonWords: Bool { false }
}

/// How a whole command stands against the grammar's longer phrases.
package enum PhraseEnding: Sendable, Equatable {
    /// No longer phrase begins with it ("save recording", "quality high").
    case final
    /// A longer phrase begins with it ("stop", which may become "stop recording").
    case canGrow
}

/// A command an utterance could stand for: the grammar's reading of one recognised phrase.
package struct VoiceCandidate: Sendable, Equatable {
    /// The registry command (`delete`), for the destructive check.
    package var command: String
    /// The command line (`delete 2`).
    package var line: String

    package init(command: String, line: String) {
        self.command = command
        self.line = line
    }
}

/// The recognition grammar built from the registry's spoken forms, and the way back
/// from recognised words to the command line they stand for.
package struct VoiceGrammar: CommandGrammar {
    package struct Form: Sendable {
        package var command: String
        package var pattern: SpokenPattern
        package var line: String
    }

    package private(set) var forms: [Form] = []
    /// Patterns that could not be parsed: "command: error".
    package private(set) var problems: [String] = []
    /// Whether these are vsh's commands (the registry's), heard against the likeliest
    /// everyday words weighed more, wherever they are heard: at the prompt and in
    /// `train`'s hearing of the takes. One command's forms alone (the spoken stop while
    /// recording, the wake phrase heard again) are heard as before.
    package private(set) var weighsCommonWords = false

    /// The forms of `grammars`, one after another: one grammar that reads words as the
    /// first of them that has the phrase.
    package init(joining grammars: [VoiceGrammar]) {
        forms = grammars.flatMap(\.forms)
        problems = grammars.flatMap(\.problems)
        weighsCommonWords = grammars.contains(where: \.weighsCommonWords)
    }

    /// The grammar of every spoken form in `registry`, in registry order.
    package init(registry: CommandRegistry) {
        self.init(joining: registry.entries.map { VoiceGrammar(command: $0.info.name, forms: $0.info.spokenForms) })
        weighsCommonWords = true
    }

    /// The grammar of one form given as a pattern already parsed.
    package init(command: String, pattern: SpokenPattern, line: String) {
        forms = [Form(command: command, pattern: pattern, line: line)]
    }

    /// The grammar of one command's spoken `forms`.
    package init(command: String, forms spoken: [SpokenForm]) {
        for form in spoken {
            do {
                forms.append(Form(command: command, pattern: try SpokenPattern.parse(form.pattern), line: form.line))
            } catch {
                problems.append("\(command): \(error)")
            }
        }
    }

    /// Every word the grammar can produce.
    package var vocabulary: Set<String> {
        forms.reduce(into: Set<String>()) { $0.formUnion($1.pattern.vocabulary) }
    }

    /// The grammar in JSGF, one public rule over every form.
    package var jsgf: String {
        var text = "#JSGF V1.0;\ngrammar vsh;\n"
        text += "public <command> = " + (forms.isEmpty ? "<VOID>" : forms.indices.map { "<form\($0)>" }.joined(separator: " | ")) + ";\n"
        for (i, form) in forms.enumerated() {
            text += "<form\(i)> = \(form.pattern.jsgf);\n"
        }
        text += NumberWords.jsgfRules + "\n"
        return text
    }

    /// The command line for recognised `words`, or nil when no form matches them.
    /// Alternative pronunciations such as `record(2)` count as the word itself.
    package func interpret(_ words: [String]) -> VoiceCandidate? {
        let clean = Self.clean(words)
        for form in forms {
            if let captures = form.pattern.match(clean) {
                return VoiceCandidate(command: form.command, line: Self.fill(form.line, captures))
            }
        }
        return nil
    }

    /// The words that, said before `words`, would have made them a command, by word:
    /// "five" alone lacks `play`, `show` or `code`. Empty when `words` are a command
    /// already or no one word before them makes one. What a person is told when a slot is
    /// heard without its carrier (`--verbose`, `listen --json`).
    package func missingFirstWord(of words: [String]) -> [String] {
        let clean = Self.clean(words)
        guard !clean.isEmpty, interpret(clean) == nil else { return [] }
        let firstWords = forms.reduce(into: Set<String>()) { $0.formUnion($1.pattern.firstWords) }
        return firstWords.sorted().filter { interpret([$0] + clean) != nil }
    }

    /// The words that, said after `words`, would have made them a command, in the order
    /// the forms write them: "quality" alone lacks `low`, `medium` or `high`, "play" a
    /// number. Empty when `words` are a command already or no one word after them makes
    /// one. What a person is told when a carrier is heard without its slot (`--verbose`,
    /// `listen --json`).
    package func missingLastWord(of words: [String]) -> [String] {
        let clean = Self.clean(words)
        guard !clean.isEmpty, interpret(clean) == nil else { return [] }
        var seen = Set<String>()
        return forms.filter { $0.pattern.canGrow(after: clean) }.flatMap(\.pattern.words)
            .filter { seen.insert($0).inserted && interpret(clean + [$0]) != nil }
    }

    /// Whether `words` are a whole command, and whether a longer one begins with them: the
    /// voice path may end the utterance as soon as a final one is heard ("help"), where a
    /// phrase that can grow ("stop", which may become "stop recording") waits for the full
    /// hangover.
    package func ending(of words: [String]) -> PhraseEnding? {
        let clean = Self.clean(words)
        guard !clean.isEmpty, interpret(clean) != nil else { return nil }
        return forms.contains { $0.pattern.canGrow(after: clean) } ? .canGrow : .final
    }

    /// `ending(of:)` for a grammar given as one pattern (a JSGF file, `JSGFPattern`).
    package static func ending(in phrases: SpokenPattern) -> ([String]) -> PhraseEnding? {
        { words in
            let clean = Self.clean(words)
            guard !clean.isEmpty, phrases.match(clean) != nil else { return nil }
            return phrases.canGrow(after: clean) ? .canGrow : .final
        }
    }

    /// The words without fillers and with variants as the word itself.
    package static func clean(_ words: [String]) -> [String] {
        words.map(baseWord).filter { !$0.isEmpty && !fillers.contains($0) }
    }

    static let fillers: Set<String> = ["<s>", "</s>", "<sil>", "[noise]", "[breath]", "[cough]", "[um]", "[uh]", "[smack]"]

    /// `record(2)` → `record`.
    package static func baseWord(_ word: String) -> String {
        if let paren = word.firstIndex(of: "("), word.hasSuffix(")") { return String(word[..<paren]) }
        return word
    }

    /// Replaces `$1`… in `line` with the captures (highest numbers first, so `$10` is
    /// not read as `$1` followed by 0).
    static func fill(_ line: String, _ captures: [String]) -> String {
        var result = line
        for (i, value) in captures.enumerated().reversed() {
            result = result.replacingOccurrences(of: "$\(i + 1)", with: value)
        }
        return result
    }
}
