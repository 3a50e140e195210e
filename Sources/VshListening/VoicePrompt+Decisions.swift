import Foundation
import VshCore
import VshSpoken
import VshVoice

/// What the prompt does with each utterance, and with answers to its questions.
extension VoicePrompt {
    /// The destructive check for the commands in `registry()`, as each command declares
    /// it (`CommandInfo.isDestructive`): delete, `trash empty --yes`, `encrypt on|off`, command
    /// files' `destructive: yes`.
    package static func destructive(in registry: @escaping () -> CommandRegistry) -> (VoiceCandidate) -> Bool {
        { candidate in
            guard let info = registry().lookup(candidate.command)?.info else { return false }
            let words = candidate.line.split(separator: " ").map(String.init)
            return info.isDestructive(arguments: Array(words.dropFirst()))
        }
    }

    /// Why a command of `session`'s registry can do nothing now (`CommandInfo.unavailable`),
    /// nil when it can.
    package static func unavailable(in session: Session) -> (VoiceCandidate) -> String? {
        { candidate in session.registry.lookup(candidate.command)?.info.unavailable?(session) }
    }

    /// The check for commands in `registry()` that end the session when run.
    package static func endsSession(in registry: @escaping () -> CommandRegistry) -> (VoiceCandidate) -> Bool {
        { candidate in registry().lookup(candidate.command)?.info.endsSession == true }
    }

    /// The one step from an utterance to what the prompt does: read its words (and the
    /// runners-up) against the grammar it was heard with, have `gate` (the model's that
    /// heard it) judge how it was heard, then run, ask, wake or ignore by that and the
    /// prompt's state: listening on or off, awake or asleep, a question waiting. Returns
    /// the line to run, if any; what the prompt says (a question, a note) goes to `notes`.
    /// What it decided is also kept in `lastVerdict`.
    func decide(_ heard: Utterance, grammar: PromptGrammar, gate: Gate, notes: inout [String]) -> SpokenLine? {
        promptThread.check()
        let standsAlone = afterCommand || quiet(before: heard) >= options.quietBefore
        afterCommand = false
        var heard = heard
        // Asleep, the wake phrase heard again on its own (`WakePhraseAgain`) wakes vsh when
        // the first hearing, with the commands after it, does not; and when the first heard
        // a command after it that the second found nothing of, it wakes vsh and runs the
        // command only if the audio after the phrase, heard on its own, is that sure.
        if let alone = heard.recognition.phraseAlone.first, attention == .wake, isOn, !isAwake {
            var again = heard
            again.recognition = alone
            var commandAfter = false
            if case .wake(_, _?)? = grammar.meanings(of: heard.recognition).first { commandAfter = true }
            if wakes(again, grammar: grammar, gate: gate, standsAlone: standsAlone),
               commandAfter || !wakes(heard, grammar: grammar, gate: gate, standsAlone: standsAlone) {
                // The command after the phrase, heard on its own, runs when the gate is
                // sure of it: said after a short pause, it is there; breath heard as a
                // command has no vowel and no confidence there.
                if let after = heard.recognition.afterPhrase.first, case .command? = grammar.meanings(of: after).first,
                   gate.take(after, isPhrase: true).isSure {
                    awakeUntil = clock() + options.awakeSeconds
                    heard.recognition = after
                } else {
                    heard = again
                }
            }
        }
        let meanings = grammar.meanings(of: heard.recognition)
        var isCommand = false
        if case .command? = meanings.first { isCommand = true }
        // Woken by the phrase or the key, vsh was spoken to: no pause is needed before. Only
        // a command needs one; answers and the wake phrase are judged as they come.
        let needsQuiet = attention == .always && isCommand
        let judged = gate.judge(heard.recognition, isPhrase: !meanings.isEmpty, continuesEarly: heard.segment.continuesEarly,
                                standsAlone: standsAlone || !needsQuiet)
        let confidence = judged.confidence
        switch judged.stoppedBy {
        case .continuesEarly?: return ignored(heard, judged, isOn ? .continuesEarly : .listeningOff, notes: &notes)
        // Someone else's speech does nothing: no command, answer or wake phrase.
        case let check? where check == .otherSpeaker || check == .unclearWord:
            return ignored(heard, judged, check, meant: isCommand, in: grammar, notes: &notes)
        default: break
        }
        if !isOn {
            let words = heard.recognition.text.split(separator: " ").map(String.init)
            guard confidence >= gate.threshold, wake?.match(words) != nil else {
                return ignored(heard, judged, .listeningOff, notes: &notes)
            }
            isOn = true
            lastVerdict = Verdict(.wake)
            notes.append(dim("(listening again)"))
            return nil
        }
        if case .answer(let answer, _)? = meanings.first, confidence >= gate.rejectBelow {
            guard question != nil else {
                guard confidence >= gate.threshold else { return ignored(heard, judged, .confidence, notes: &notes) }
                lastVerdict = Verdict(.ignore, stoppedBy: .noQuestion)
                notes.append(dim("(heard \"\(heard.recognition.text)\": there is no question to answer)"))
                return nil
            }
            return resolve(answer, notes: &notes)
        }
        if !isAwake {
            // Asleep (attention wake or key): only the wake phrase, sure and said on its own,
            // alone or with a command after it in the same breath.
            guard attention == .wake, case .wake(_, let then)? = meanings.first,
                  wakes(heard, grammar: grammar, gate: gate, standsAlone: standsAlone) else {
                return ignored(heard, judged, .asleep, notes: &notes)
            }
            awakeUntil = clock() + options.awakeSeconds
            if let then { return accept(then, heard, notes: &notes) }
            lastVerdict = Verdict(.wake)
            notes.append(dim("(listening for a command)"))
            return nil
        }
        if let check = judged.stoppedBy { return ignored(heard, judged, check, meant: isCommand, in: grammar, notes: &notes) }
        if judged.isSure, let best = meanings.first {
            question = nil
            switch best {
            case .command(let command):
                return accept(command, heard, notes: &notes)
            case .wake(_, let then?):
                return accept(then, heard, notes: &notes)
            default:  // the wake phrase while listening
                if attention == .wake { awakeUntil = clock() + options.awakeSeconds }
                lastVerdict = Verdict(.wake)
                return nil
            }
        }
        // Only what could run is offered; a command that cannot apply now is no choice.
        let commands = meanings.compactMap { meaning -> VoiceCandidate? in
            if case .command(let command) = meaning, unavailable(command) == nil { return command }
            return nil
        }
        guard !commands.isEmpty else {
            return ignored(heard, judged, isCommand ? .doesNotApply : .noCommand, in: grammar, notes: &notes)
        }
        guard standsAlone || attention != .always else {
            return ignored(heard, judged, .notStandAlone, meant: true, notes: &notes)
        }
        return ask(.choose(Array(commands.prefix(3))), about: heard, notes: &notes)
    }

    /// A command vsh is sure of: runs, or asks first when it is destructive. Said to vsh
    /// woken by the phrase, it keeps vsh awake a while longer; by the key, it was the one.
    private func accept(_ candidate: VoiceCandidate, _ heard: Utterance, settled: String? = nil,
                        notes: inout [String]) -> SpokenLine? {
        switch attention {
        case .always: break
        case .wake: awakeUntil = clock() + options.awakeSeconds
        case .key: awakeUntil = -.infinity
        }
        if let why = unavailable(candidate) {
            lastVerdict = Verdict(.ignore, line: candidate.line, stoppedBy: .doesNotApply)
            notes.append(dim("(heard \"\(heard.recognition.text)\": \(why))"))
            return nil
        }
        if endsSession(candidate) { return ask(.confirmLeaving(candidate), about: heard, notes: &notes) }
        if options.confirmDestructive && isDestructive(candidate) {
            return ask(.confirm(candidate), about: heard, notes: &notes)
        }
        lastVerdict = Verdict(.run, line: candidate.line)
        return spoken(candidate, heard, settled: settled)
    }

    /// Asks `kind` (added to `notes`); nothing runs until it is answered, so it returns nil.
    private func ask(_ kind: PromptQuestion.Kind, about heard: Utterance, notes: inout [String]) -> SpokenLine? {
        let q = PromptQuestion(kind: kind, heard: heard, deadline: clock() + options.answerSeconds)
        question = q
        switch kind {
        case .choose(let candidates): lastVerdict = Verdict(.choose, line: candidates.first?.line)
        case .confirm(let candidate), .confirmLeaving(let candidate): lastVerdict = Verdict(.confirm, line: candidate.line)
        }
        // Wake the reader when the question lapses, so the prompt says so.
        let seconds = options.answerSeconds
        let wakeup = self.wakeup
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds + 0.05) { wakeup.poke() }
        notes.append(q.text)
        return nil
    }

    func resolve(_ answer: PromptAnswer, notes: inout [String]) -> SpokenLine? {
        guard let q = question else { return nil }
        lastVerdict = Verdict(.answer)
        switch (q.kind, answer) {
        case (_, .no):
            question = nil
            notes.append(dim("(not run: \(q.subject))"))
            return nil
        case (.choose(let candidates), .number(let n)) where (1...candidates.count).contains(n):
            question = nil
            return accept(candidates[n - 1], q.heard, settled: "chosen \(n)", notes: &notes)
        case (.choose(let candidates), .yes) where candidates.count == 1:
            question = nil
            return accept(candidates[0], q.heard, settled: "chosen", notes: &notes)
        case (.choose(let candidates), _) where candidates.count == 1:
            notes.append("say or type yes or no")
            return nil
        case (.choose(let candidates), _):
            notes.append("say or type a number from 1 to \(candidates.count), or no")
            return nil
        case (.confirm(let candidate), .yes), (.confirmLeaving(let candidate), .yes):
            question = nil
            lastVerdict = Verdict(.run, line: candidate.line)
            return spoken(candidate, q.heard, settled: "confirmed")
        case (.confirm, _), (.confirmLeaving, _):
            notes.append("say or type yes or no")
            return nil
        }
    }

    /// Nothing runs. A command the person may have meant (`meant`: heard as a command,
    /// stopped by how it was heard, `Gate.Check.isHearing`) says so in a short dim line, at
    /// most once every `unheardNoteSeconds`, so that a person who was not taken can tell
    /// vsh from a broken microphone while talk near it does not fill the screen; an answer
    /// or the wake phrase says nothing here. `--verbose` shows every utterance, and for
    /// words that are no command but would be one with a word before them (a slot heard
    /// without its carrier, "five") or after them (a carrier without its slot, "quality"),
    /// which word was missing (`grammar`'s commands; those the runners-up had first).
    /// Returns nil, the line that runs: none.
    private func ignored(_ heard: Utterance, _ judged: Gate.Decision, _ check: Gate.Check, meant: Bool = false,
                         in grammar: PromptGrammar? = nil, notes: inout [String]) -> SpokenLine? {
        let recognized = heard.recognition.words.map(\.word)
        // A phrase with a word the grammar put in is, as said, the words without it: a lone
        // "play" heard as `play eight` lacks what follows "play".
        let leftOut = Gate.leftOutReading(of: heard.recognition)
        let words = leftOut ?? recognized
        // Whatever check stopped them: words heard as no command may still have runners-up
        // that are ("five", then `play five`), which make it a phrase the confidence judges.
        let commands = grammar.flatMap { $0.meaning(of: words) == nil ? $0.commands : nil }
        // Those among the runners-up first: what the search found closest.
        let alternatives = heard.recognition.alternatives
        let before = Self.runnersUpFirst(commands?.missingFirstWord(of: words) ?? [],
                                         alternatives.filter { Array($0.dropFirst()) == words }.compactMap(\.first))
        let after = Self.runnersUpFirst(commands?.missingLastWord(of: words) ?? [],
                                        alternatives.filter { Array($0.dropLast()) == words }.compactMap(\.last))
        let verdict = Verdict(.ignore, stoppedBy: check, missingWord: before, missingNextWord: after,
                              unheard: leftOut.flatMap { LeftOut.unheard(keeping: $0, of: recognized) } ?? [])
        lastVerdict = verdict
        let text = heard.recognition.text
        if options.verbose {
            let said = words.joined(separator: " ")
            let lacking = (verdict.unheardNote.map { "; " + $0 } ?? "")
                + (before.isEmpty ? "" : "; said without the word before it, as in "
                + before.prefix(3).map { "\"\($0) \(said)\"" }.listed("or"))
                + (after.isEmpty ? "" : "; said without what follows it, as in "
                    + after.prefix(3).map { "\"\(said) \($0)\"" }.listed("or"))
            // A sound with no words in it (a click, a breath) says so, not `""`; words heard
            // as everyday words (`OtherWords`) say that, not the check it meets.
            let what = text.isEmpty ? "a sound with no words" : "\"\(text)\""
            let why = heard.recognition.features?.otherWord != nil && lacking.isEmpty
                ? (words.count > 1 ? ": everyday words, no command" : ": an everyday word, no command") : ", \(check.rawValue)"
            notes.append(dim("(ignored \(what), confidence \(String(format: "%.2f", judged.confidence))\(why)\(lacking))"))
            return nil
        }
        guard meant, check.isHearing, !text.isEmpty, judged.confidence >= Self.unheardConfidence,
              clock() - lastUnheardNote >= Self.unheardNoteSeconds else { return nil }
        lastUnheardNote = clock()
        notes.append(dim("(not run: \"\(text)\" \(Self.reason(check)))"))
        return nil
    }

    /// The missing `words`, those the runners-up had first.
    private static func runnersUpFirst(_ words: [String], _ runnersUp: [String]) -> [String] {
        let closest = Set(runnersUp)
        return words.filter { closest.contains($0) } + words.filter { !closest.contains($0) }
    }

    /// The quiet before `heard`'s speech: since the speech before it, or where only
    /// voiceless sounds came between (`Recognition.isVoiceless`: a breath, a click), since
    /// the last speech with a voice (infinite when there was none), and never less than
    /// the endpointer's own (infinite for the first utterance of a new stream, whose times
    /// start again). Notes what `heard` was for the next utterance.
    private func quiet(before heard: Utterance) -> Double {
        var quiet = heard.segment.quietBefore
        if afterVoiceless, let start = heard.segment.speechStart {
            quiet = max(quiet, lastVoicedSpeechEnd.map { start - $0 } ?? .infinity)
        }
        afterVoiceless = heard.recognition.isVoiceless
        if !afterVoiceless { lastVoicedSpeechEnd = heard.segment.speechEnd }
        return quiet
    }

    /// Whether `heard`, asleep, wakes vsh: the wake phrase (a command after it or not), not
    /// stopped by how it was heard, said on its own, at the wake confidence.
    private func wakes(_ heard: Utterance, grammar: PromptGrammar, gate: Gate, standsAlone: Bool) -> Bool {
        guard standsAlone, case .wake? = grammar.meanings(of: heard.recognition).first else { return false }
        return gate.wakes(heard.recognition, continuesEarly: heard.segment.continuesEarly, at: options.wakeConfidence)
    }

    /// Seconds between two notes of a command not taken, unless `--verbose`.
    static let unheardNoteSeconds = 20.0
    /// The confidence a stopped command must have had for its note: what was heard as a
    /// command only faintly (talk) says nothing.
    static let unheardConfidence = 0.3

    /// Why a command was not taken, as the note says it.
    static func reason(_ check: Gate.Check) -> String {
        switch check {
        case .otherSpeaker: "sounded like another voice than yours; 'train status' says more"
        case .unclearWord: "was not clearly said word for word"
        case .confidence: "was not heard clearly enough"
        case .notStandAlone: "ran on from other speech; pause before a command"
        default: check.rawValue
        }
    }

    private func spoken(_ candidate: VoiceCandidate, _ heard: Utterance, settled: String?) -> SpokenLine {
        SpokenLine(
            line: candidate.line, heard: heard.recognition.text, confidence: heard.recognition.confidence,
            clip: heard.samples.isEmpty ? nil : clips?.save(heard.samples), settled: settled,
            end: heard.segment.end, endClock: heard.endCaptured)
    }

    // MARK: - Typed answers

    /// What a typed line means while vsh waits for an answer.
    package enum TypedAnswer: Equatable {
        /// Not an answer (or no question): run the line as usual; any question is dropped.
        case notAnAnswer
        /// The answer settles on this command.
        case run(SpokenLine)
        /// The answer was taken; show these lines and read the next one.
        case handled([String])
    }

    /// Takes `text` as the answer to the question vsh asked, if it is one.
    package func answer(typed text: String) -> TypedAnswer {
        promptThread.check()
        guard let q = question else { return .notAnAnswer }
        guard clock() < q.deadline, let answer = PromptAnswer(text) else {
            question = nil
            return .notAnAnswer
        }
        var notes: [String] = []
        if let line = resolve(answer, notes: &notes) { return .run(line) }
        return .handled(notes)
    }

    /// Drops the question (Ctrl-C); returns whether there was one.
    @discardableResult
    package func dropQuestion() -> Bool {
        promptThread.check()
        defer { question = nil }
        return question != nil
    }

    /// The line `--verbose` shows as a spoken command starts: when the utterance ended and
    /// when the command started, both in seconds of the audio input.
    package func timing(of spoken: SpokenLine) -> String? {
        guard options.verbose, let endClock = spoken.endClock else { return nil }
        let started = spoken.end + (clock() - endClock)
        return dim(String(
            format: "voice: \"%@\" %.2f → %@; utterance ended at %.3f s, command started at %.3f s (+%.0f ms)",
            spoken.heard, spoken.confidence, spoken.line, spoken.end, started, (started - spoken.end) * 1000))
    }
}
