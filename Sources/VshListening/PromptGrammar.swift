import VshCore
import VshVoice

/// What the prompt listens for: the shell's commands, the answers to its questions
/// ("two", "yes", "no") and the wake phrase, as one grammar for the recogniser, each
/// read back as what it is. Answers and the wake phrase are only heard here, so saying
/// "two" with no question pending runs nothing, and nothing of them can be typed.
package struct PromptGrammar: CommandGrammar {
    /// What words heard at the prompt stand for.
    package enum Meaning: Equatable, Sendable {
        case command(VoiceCandidate)
        /// `line`: as the grammar writes it (`answer two`).
        case answer(PromptAnswer, line: String)
        case wake(line: String)

        package var line: String {
            switch self {
            case .command(let candidate): candidate.line
            case .answer(_, let line), .wake(let line): line
            }
        }
    }

    package let commands: VoiceGrammar
    let answers: VoiceGrammar
    /// The wake phrase's; nil when the prompt listens without one.
    let wake: VoiceGrammar?
    /// All three in that order: what the recogniser is given, and how words are read
    /// when they could be more than one (a command first).
    let joined: VoiceGrammar

    /// Throws when `wakePhrase` is not a valid spoken pattern.
    package init(registry: CommandRegistry, wakePhrase: String?) throws {
        commands = VoiceGrammar(registry: registry)
        answers = VoiceGrammar(command: "answer", forms: PromptAnswer.spokenForms)
        if let wakePhrase {
            _ = try SpokenPattern.parse(wakePhrase)
            wake = VoiceGrammar(command: "listen", forms: [SpokenForm(wakePhrase, runs: "listen on")])
        } else {
            wake = nil
        }
        joined = VoiceGrammar(joining: [commands, answers] + (wake.map { [$0] } ?? []))
    }

    package var jsgf: String { joined.jsgf }
    package var vocabulary: Set<String> { joined.vocabulary }
    package func interpret(_ words: [String]) -> VoiceCandidate? { joined.interpret(words) }
    package func isFinal(_ words: [String]) -> Bool { joined.isFinal(words) }

    /// What `words` stand for, or nil when they are no phrase the prompt listens for.
    package func meaning(of words: [String]) -> Meaning? {
        if let command = commands.interpret(words) { return .command(command) }
        if let answer = answers.interpret(words), let parsed = PromptAnswer(answer.line) {
            return .answer(parsed, line: answer.line)
        }
        if let wake = wake?.interpret(words) { return .wake(line: wake.line) }
        return nil
    }

    /// What `recognition` could stand for, best first and distinct by line: the best
    /// phrase's meaning when it has one, then the runners-up's.
    package func meanings(of recognition: Recognition) -> [Meaning] {
        var meanings: [Meaning] = []
        for words in [recognition.words.map(\.word)] + recognition.alternatives {
            guard let meaning = meaning(of: words), !meanings.contains(where: { $0.line == meaning.line }) else { continue }
            meanings.append(meaning)
        }
        return meanings
    }
}
