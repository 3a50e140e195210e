import Foundation
import VshCore
import VshSpoken

/// A grammar of one's own (`vsh listen --grammar FILE`): JSGF text whose accepted phrases
/// are each their own command, for benchmarks and experiments.
package struct JSGFGrammar: CommandGrammar {
    package let jsgf: String
    package let vocabulary: Set<String>
    /// The phrases, when `JSGFPattern` can read the grammar: then a phrase that cannot
    /// grow may end early. Without it every utterance waits for the full hangover.
    let phrases: SpokenPattern?

    /// Throws, naming `file`, when the text is not a JSGF grammar.
    package init(text: String, file: String) throws {
        guard text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("#JSGF") else {
            throw AudioError("\(file) is not a JSGF grammar: it must start with '#JSGF V1.0;', as in '#JSGF V1.0; grammar mine; public <command> = lights on | lights off;'")
        }
        jsgf = text
        vocabulary = JSGFWords.words(in: text)
        phrases = JSGFPattern.parse(text)
    }

    /// Any phrase the recogniser accepted is a command: itself.
    package func interpret(_ words: [String]) -> VoiceCandidate? {
        let phrase = words.joined(separator: " ")
        return VoiceCandidate(command: phrase, line: phrase)
    }

    package func ending(of words: [String]) -> PhraseEnding? {
        phrases.flatMap { VoiceGrammar.ending(in: $0)(words) }
    }
}
