import VshCore
import VshVoice

/// Asleep in attention `wake`, an utterance heard as beginning with the wake phrase, not
/// sure enough to wake vsh as heard, is heard again with the phrase alone, against the everyday words (`OtherWords`) but not
/// the commands; the prompt wakes on that hearing when the first does not
/// (`Recognition.phraseAlone`, `VoicePrompt.decide`).
///
/// With every command allowed after it, real people's "alexa" lost to a command the search
/// found in the breath or noise after the phrase ("alexa back", stopped as not clearly
/// said): 29.9% of them were missed (speakers never fitted on). Heard again alone, 18.3%;
/// in 78 minutes of other people's words said on their own, nothing began with the phrase,
/// so the second hearing costs nothing in talk and woke nothing
/// (research/attention/ATTENTION.md). A command said after the phrase in the same breath
/// ("alexa list") is still read from the first hearing: heard with the phrase alone, it
/// became other words ("listen numbers" for "listen on list").
final class WakePhraseAgain: CommandRecognizer {
    private let grammar: PromptGrammar
    private let commands: CommandRecognizer
    private let phrase: CommandRecognizer
    /// The gate of the model both load: a first hearing it takes at the wake confidence
    /// wakes vsh as it is, so a command said after the phrase waits for no second hearing.
    private let gate: Gate
    /// Whether vsh sleeps until the wake phrase, for an utterance that begins at `start`
    /// (seconds in the stream).
    private let isAsleep: (_ start: Double) -> Bool

    init(grammar: PromptGrammar, commands: CommandRecognizer, phrase: CommandRecognizer, gate: Gate,
         isAsleep: @escaping (_ start: Double) -> Bool) {
        self.grammar = grammar
        self.commands = commands
        self.phrase = phrase
        self.gate = gate
        self.isAsleep = isAsleep
    }

    func recognize(_ samples: [Int16], start: Double) -> Recognition {
        var heard = commands.recognize(samples, start: start)
        guard case .wake? = grammar.meaning(of: heard.words.map(\.word)), isAsleep(start) else { return heard }
        let judged = gate.judge(heard, isPhrase: true)
        if judged.stoppedBy == nil, judged.confidence >= VoicePrompt.Options.wakeConfidence { return heard }
        heard.phraseAlone = [phrase.recognize(samples, start: start)]
        return heard
    }

    var calibration: Gate.Calibration { commands.calibration }
    var warning: String? { commands.warning }
}

extension VoiceFactory {
    /// The recogniser for the prompt's `grammar`: with attention `wake`, one that hears the
    /// wake phrase again alone while `isAsleep` (`WakePhraseAgain`).
    package func recognizer(for grammar: PromptGrammar,
                            isAsleep: @escaping (_ start: Double) -> Bool) throws -> CommandRecognizer {
        let commands = try recognizer(for: grammar as CommandGrammar)
        guard let phraseAlone = grammar.phraseAlone else { return commands }
        return WakePhraseAgain(grammar: grammar, commands: commands, phrase: try recognizer(for: phraseAlone),
                               gate: gate(for: commands), isAsleep: isAsleep)
    }
}
