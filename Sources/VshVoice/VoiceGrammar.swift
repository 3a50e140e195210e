import Foundation
import VshCore
import VshStore

/// The recognition grammar built from the registry's spoken forms, and the way back
/// from recognised words to the command line they stand for.
package struct VoiceGrammar: Sendable {
    package struct Form: Sendable {
        package var command: String
        package var pattern: SpokenPattern
        package var line: String
    }

    package private(set) var forms: [Form] = []
    /// Patterns that could not be parsed: "command: error".
    package private(set) var problems: [String] = []

    /// The grammar of every spoken form in `registry`, in registry order.
    package init(registry: CommandRegistry) {
        for entry in registry.entries {
            for form in entry.info.spokenForms {
                do {
                    forms.append(Form(command: entry.info.name, pattern: try SpokenPattern.parse(form.pattern), line: form.line))
                } catch {
                    problems.append("\(entry.info.name): \(error)")
                }
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
    package func interpret(_ words: [String]) -> (command: String, line: String)? {
        let clean = Self.clean(words)
        for form in forms {
            if let captures = form.pattern.match(clean) {
                return (form.command, Self.fill(form.line, captures))
            }
        }
        return nil
    }

    /// Whether `words` are a whole command that no longer phrase begins with: the voice
    /// path may end the utterance as soon as they are heard ("save"), where a phrase that
    /// can grow ("stop", which may become "stop recording") waits for the full hangover.
    package func isFinal(_ words: [String]) -> Bool {
        let clean = Self.clean(words)
        guard !clean.isEmpty, interpret(clean) != nil else { return false }
        return !forms.contains { $0.pattern.canGrow(after: clean) }
    }

    /// `isFinal` for a grammar given as one pattern (a JSGF file, `JSGFPattern`).
    package static func isFinal(in phrases: SpokenPattern) -> ([String]) -> Bool {
        { words in
            let clean = Self.clean(words)
            return !clean.isEmpty && phrases.match(clean) != nil && !phrases.canGrow(after: clean)
        }
    }

    /// The words without fillers and with variants as the word itself.
    static func clean(_ words: [String]) -> [String] {
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
