import VshCore
import VshVoice

/// Asleep in attention `wake`, an utterance heard as beginning with the wake phrase is
/// heard again with the phrase alone, against the everyday words (`OtherWords`) but not
/// the commands (`Recognition.phraseAlone`), unless it was the phrase alone and sure. The
/// prompt (`VoicePrompt.decide`) wakes on the second hearing when the first would not
/// wake. When the first heard a command after the phrase but the second finds the phrase
/// alone, the audio after the phrase is heard a third time, on its own, with the commands
/// (`Recognition.afterPhrase`): a command said after a short pause is there ("listen on …
/// list", one utterance under about a second of quiet), and runs; breath or noise heard as
/// a command is not, and vsh wakes and runs nothing. When the first hearing wakes vsh
/// surely with a command after the phrase, the audio after the phrase is heard first: the
/// same command there, surely, is taken as heard, without the phrase-alone hearing (two
/// decodes before the command runs, not three).
///
/// With every command allowed after it, the search found a command in the breath after
/// real people's "alexa" ("alexa back", then stopped as not clearly said, or run: 6 of 329
/// ran `happy`, `stop`, `help` or `show 1`). A command said after the phrase in the same
/// breath ("alexa list") is read from the first hearing: heard with the phrase alone it is
/// other words ("listen numbers" for "listen on list"). In 122 minutes of other people's
/// talk and words said alone nothing began with the phrase, so talk is heard once, as
/// before (research/attention/ATTENTION.md has the figures).
///
/// An utterance of `longestHeardAgain` or less heard as a command asleep is heard again
/// with the phrase alone too, and wakes vsh (or runs the command heard after it) when that
/// hearing finds the phrase: with the commands beside it, real people's "alexa" was heard as
/// `lights on`, `reset` or `code 7`, 13 of 329. Other talk heard as a command asleep is
/// rare, so this costs 2 to 8% more CPU asleep, where hearing every short utterance again
/// cost half as much again (ATTENTION.md, "The wake phrase taken for a command", session
/// 31).
final class WakePhraseAgain: CommandRecognizer {
    private let grammar: PromptGrammar
    private let commands: CommandRecognizer
    private let phrase: CommandRecognizer
    /// The gate of the model both load: the phrase alone, taken at the wake confidence the
    /// first time, wakes vsh as it is, with no second hearing.
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
        let meaning = grammar.meaning(of: heard.words.map(\.word))
        if case .command? = meaning, samples.count <= Self.longestHeardAgain, isAsleep(start) {
            let alone = phrase.recognize(samples, start: start)
            guard case .wake(_, nil)? = grammar.meaning(of: alone.words.map(\.word)) else { return heard }
            heard.phraseAlone = [alone]
            heard.afterPhrase = [hearing(after: alone, of: samples, start: start)].compactMap { $0 }
            return heard
        }
        guard case .wake(_, let then)? = meaning, isAsleep(start) else { return heard }
        let sure = gate.wakes(heard, at: VoicePrompt.Options.wakeConfidence)
        if then == nil, sure { return heard }
        // Sure, with a command after the phrase that the audio after it, heard on its own,
        // is as surely: taken as heard, in two hearings instead of three.
        var after: Recognition?
        if let then, sure, let words = grammar.phraseEnds(in: heard.words.map(\.word)).first,
           let rest = Self.rest(after: heard, words: words, of: samples, start: start) {
            let command = commands.recognize(rest.samples, start: rest.start)
            if grammar.meaning(of: command.words.map(\.word)) == .command(then), gate.take(command, isPhrase: true).isSure {
                return heard
            }
            after = command
        }
        let alone = phrase.recognize(samples, start: start)
        heard.phraseAlone = [alone]
        if then != nil, case .wake(_, nil)? = grammar.meaning(of: alone.words.map(\.word)) {
            heard.afterPhrase = [after ?? hearing(after: alone, of: samples, start: start)].compactMap { $0 }
        }
        return heard
    }

    /// The audio after the phrase, as `alone` (the phrase-alone hearing) found it, heard
    /// on its own with the commands; nil when nothing follows the phrase (`rest`).
    private func hearing(after alone: Recognition, of samples: [Int16], start: Double) -> Recognition? {
        Self.rest(after: alone, words: alone.words.count, of: samples, start: start)
            .map { commands.recognize($0.samples, start: $0.start) }
    }

    /// The samples after the wake phrase, `heard`'s first `words`, from 0.4 s before
    /// the next sound (as the endpointer cuts an utterance), and where they begin in the
    /// stream; nil when nothing follows that is as loud as speech said with the phrase.
    ///
    /// PocketSphinx counts a word's frames over the frames it kept, dropping quiet, so the
    /// end it gives for the phrase is early by up to the frames it dropped (before the
    /// phrase, in the pause after it, or after the command): the pause is the first quiet
    /// 10 ms frame in that reach (within 6 dB of its quietest), before the quiet after the
    /// command.
    static func rest(after heard: Recognition, words: Int, of samples: [Int16], start: Double) -> (samples: [Int16], start: Double)? {
        guard words > 0, words <= heard.words.count, let kept = heard.features?.frames else { return nil }
        let end = heard.words[words - 1].end
        let frame = AudioFormat.sampleRate / 100
        let count = samples.count / frame
        let first = Int(((end - start) * 100).rounded())
        let reach = min(count - 1, first + max(0, count - kept))
        guard first >= 0, first <= reach else { return nil }
        // Over three frames, so one quiet frame inside a word is not a pause.
        let level = FrameLevels.of(samples, span: 3)
        let quietest = level[first...reach].min() ?? 0
        guard let pause = level[first...].firstIndex(where: { $0 <= quietest + 6 }),
              let sound = level[pause...].firstIndex(where: { $0 > quietest + 12 }),
              let phrase = level[..<pause].max(), let loudest = level[sound...].max(),
              loudest >= phrase - Self.softer else { return nil }
        let cut = max(pause, sound - Self.lead) * frame
        return (Array(samples[cut...]), start + Double(cut) / Double(AudioFormat.sampleRate))
    }

    /// The longest utterance heard as a command asleep that is heard again with the phrase
    /// alone, in samples: 4 s, the wake phrase with its padding and a short command after it.
    static let longestHeardAgain = 4 * AudioFormat.sampleRate

    /// Frames of the pause kept before the command: the endpointer's padding
    /// (`Endpointer.Settings.paddingBefore`). With a second of quiet before it, a
    /// synthetic "list" was heard as "play zero".
    static let lead = 40

    /// How much softer than the phrase, at its loudest, what follows may be and still be
    /// heard as a command: one person's words said together differ by less. The clicks of
    /// a recording stopped and a voice across the room were 20 to 24 dB under real
    /// people's "alexa", and heard as `help` and `show 1`.
    static let softer = 15.0

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

extension Gate {
    /// Whether the wake phrase heard as `recognition` is sure enough to wake vsh: no check
    /// of how it was heard stops it (a confidence under `rejectBelow` is only low), and its
    /// confidence reaches `wakeConfidence`, or the threshold when that is higher. The one
    /// check of the phrase, for the prompt (`VoicePrompt.decide`) and for whether it is
    /// heard again (`WakePhraseAgain`).
    func wakes(_ recognition: Recognition, continuesEarly: Bool = false, at wakeConfidence: Double) -> Bool {
        let judged = judge(recognition, isPhrase: true, continuesEarly: continuesEarly)
        if let check = judged.stoppedBy, check != .confidence { return false }
        return judged.confidence >= max(threshold, wakeConfidence)
    }
}
