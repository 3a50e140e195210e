import VshCore
import VshSpoken
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
        /// The wake phrase, and the command said after it in the same breath, if any.
        case wake(line: String, then: VoiceCandidate? = nil)

        package var line: String {
            switch self {
            case .command(let candidate): candidate.line
            case .answer(_, let line): line
            case .wake(let line, let then): ([line] + (then.map { [$0.line] } ?? [])).joined(separator: " ")
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

    /// The wake phrase alone, when `wake` also lets a command follow it.
    let wakeAlone: SpokenPattern?
    /// Then, the grammar of the phrase alone: what an utterance that began with it is
    /// heard again with, asleep (`WakePhraseAgain`).
    package let phraseAlone: VoiceGrammar?

    /// Throws when `wakePhrase` is not a valid spoken pattern. `commandsAfterWake`
    /// (attention `wake`): the phrase may be followed by a command in one breath.
    package init(registry: CommandRegistry, wakePhrase: String?, commandsAfterWake: Bool = false) throws {
        commands = VoiceGrammar(registry: registry)
        answers = VoiceGrammar(command: "answer", forms: PromptAnswer.spokenForms)
        if let wakePhrase {
            let phrase = try SpokenPattern.parse(wakePhrase)
            var form = VoiceGrammar(command: "listen", forms: [SpokenForm(wakePhrase, runs: "listen on")])
            if commandsAfterWake, !commands.forms.isEmpty {
                phraseAlone = form
                form = VoiceGrammar(
                    command: "listen", pattern: .sequence([phrase, .optional(.alternatives(commands.forms.map(\.pattern)))]),
                    line: "listen on")
                wakeAlone = phrase
            } else {
                wakeAlone = nil
                phraseAlone = nil
            }
            wake = form
        } else {
            wake = nil
            wakeAlone = nil
            phraseAlone = nil
        }
        joined = VoiceGrammar(joining: [commands, answers] + (wake.map { [$0] } ?? []))
    }

    package var jsgf: String { joined.jsgf }
    package var vocabulary: Set<String> { joined.vocabulary }
    /// As its commands (vsh's own): the words people say most, said on their own near it
    /// ("up", "on", "right"), are heard as themselves rather than as `stop` or `help`
    /// (research/attention/ATTENTION.md, "The words said most, at the prompt").
    package var weighsCommonWords: Bool { commands.weighsCommonWords }
    package func interpret(_ words: [String]) -> VoiceCandidate? { joined.interpret(words) }
    package func ending(of words: [String]) -> PhraseEnding? { joined.ending(of: words) }

    /// What `words` stand for, or nil when they are no phrase the prompt listens for.
    package func meaning(of words: [String]) -> Meaning? {
        if let command = commands.interpret(words) {
            // The default wake phrase is also the command it stands for ("listen on"): heard
            // as the wake phrase, so it wakes vsh in attention `wake` as it turns listening
            // back on; awake, it does what the command would (nothing more to turn on).
            guard let wake = wake?.interpret(words), wake.line == command.line,
                  wakeAlone.map({ $0.match(VoiceGrammar.clean(words)) != nil }) ?? true else { return .command(command) }
            return .wake(line: wake.line)
        }
        if let answer = answers.interpret(words), let parsed = PromptAnswer(answer.line) {
            return .answer(parsed, line: answer.line)
        }
        guard let wake = wake?.interpret(words) else { return nil }
        // "computer list": the shortest start that is the phrase, then a command.
        for k in phraseEnds(in: words) {
            let after = VoiceGrammar.clean(Array(words[k...]))
            if after.isEmpty { return .wake(line: wake.line) }
            if let command = commands.interpret(after) { return .wake(line: wake.line, then: command) }
        }
        return .wake(line: wake.line)
    }

    /// Each count of `words`' first words (fillers included) that is the wake phrase alone,
    /// shortest first; none when the phrase takes no command after it (`wakeAlone` is nil).
    func phraseEnds(in words: [String]) -> [Int] {
        guard let wakeAlone else { return [] }
        return (0...words.count).filter { $0 > 0 && wakeAlone.match(VoiceGrammar.clean(Array(words[..<$0]))) != nil }
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

extension PromptGrammar {
    /// Why `phrase` will not do as a wake phrase, in words a person can act on; nil when
    /// it will. It must be a phrase vsh can listen for, every word in the pronunciation
    /// dictionary, and two syllables or more: a word that short is said in passing all day.
    package static func wakePhraseProblem(_ phrase: String, dictionary: PronunciationDictionary) -> String? {
        let better = "such as \"hey computer\" or \"okay shell\""
        guard let pattern = try? SpokenPattern.parse(phrase) else {
            return "the wake phrase \"\(phrase)\" is not a phrase vsh can listen for; write words, such as \"hey computer\""
        }
        let words = phrase.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init)
        let unknown = pattern.vocabulary.sorted().filter { !dictionary.contains($0) }
        if !unknown.isEmpty {
            return "the wake phrase \"\(phrase)\" has \(unknown.map { "'\($0)'" }.joined(separator: ", ")), which the "
                + "pronunciation dictionary lacks, so vsh cannot hear it; choose words it knows, \(better)"
        }
        let syllables = words.compactMap(dictionary.syllables).reduce(0, +)
        if syllables < 2 {
            return "the wake phrase \"\(phrase)\" has one syllable: a word that short is said in passing all day and "
                + "would wake vsh; choose two or more, \(better)"
        }
        return nil
    }
}
