import Foundation
import VshCore
import VshVoice

/// What the prompt does with each utterance, and with answers to its questions.
extension VoicePrompt {
    enum Outcome: Equatable {
        case nothing
        /// A line to show above the prompt.
        case note(String)
        case run(SpokenLine)
    }

    /// The fewest 10 ms frames per phone each word of three phones or more in a phrase of
    /// several words needs (`Confidence.Features.shortestWord`): a phone takes at least
    /// three in the search, and a word the search fitted in where little was said gets
    /// about that. On fold 0 of
    /// bench/attention.py, digits said alone heard as `code 0`, `code 1` and `show 10` had
    /// 3 to 4; the right phrases of several words had at least 5.5 in real speech (cards)
    /// and 5.75 from the synthetic voices (research/attention/ATTENTION.md).
    static let clearWord = 4.5

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

    /// The check for commands in `registry()` that end the session when run.
    package static func endsSession(in registry: @escaping () -> CommandRegistry) -> (VoiceCandidate) -> Bool {
        { candidate in registry().lookup(candidate.command)?.info.endsSession == true }
    }

    /// The one step from an utterance to what the prompt does: read its words (and the
    /// runners-up) against the grammar it was heard with, then run, ask, wake or ignore by
    /// the confidence, once the speaker check (after `train`) has passed it. The rest of an utterance that ended early (`continuesEarly`) is
    /// nothing: with the full hangover it would have been part of that command. What it
    /// decided is also kept in `lastVerdict`.
    func decide(_ heard: Utterance, grammar: PromptGrammar) -> Outcome {
        promptThread.check()
        let standsAlone = afterCommand || heard.quietBefore >= options.quietBefore
        afterCommand = false
        if heard.continuesEarly { return ignored(heard, 0, isOn ? .continuesEarly : .listeningOff) }
        let confidence = heard.recognition.confidence
        // Someone else's speech does nothing: no command, answer or wake phrase.
        if let floor = speakerThreshold(), let score = heard.recognition.features?.speakerScore, score < floor {
            return ignored(heard, confidence, .otherSpeaker)
        }
        if let f = heard.recognition.features, f.words >= 2, let shortest = f.shortestWord, shortest < Self.clearWord {
            return ignored(heard, confidence, .unclearWord)
        }
        let meanings = grammar.meanings(of: heard.recognition)
        if !isOn {
            let words = heard.recognition.text.split(separator: " ").map(String.init)
            guard confidence >= threshold(), wake?.match(words) != nil else {
                return ignored(heard, confidence, .listeningOff)
            }
            isOn = true
            lastVerdict = Verdict(.wake)
            return .note(dim("(listening again)"))
        }
        if case .answer(let answer, _)? = meanings.first, confidence >= options.rejectBelow {
            guard question != nil else {
                guard confidence >= threshold() else { return ignored(heard, confidence, .confidence) }
                lastVerdict = Verdict(.ignore, stoppedBy: .noQuestion)
                return .note(dim("(heard \"\(heard.recognition.text)\": there is no question to answer)"))
            }
            return resolve(answer)
        }
        if !isAwake {
            // Asleep (attention wake or key): only the wake phrase, sure and said on its own,
            // alone or with a command after it in the same breath.
            guard attention == .wake, case .wake(_, let then)? = meanings.first, standsAlone,
                  confidence >= max(threshold(), options.wakeConfidence) else { return ignored(heard, confidence, .asleep) }
            awakeUntil = clock() + options.awakeSeconds
            if let then { return accept(then, heard) }
            lastVerdict = Verdict(.wake)
            return .note(dim("(listening for a command)"))
        }
        guard let best = meanings.first else { return ignored(heard, confidence, .noCommand) }
        guard confidence >= options.rejectBelow else { return ignored(heard, confidence, .confidence) }
        // Woken by the phrase or the key, vsh was spoken to: no pause is needed before.
        if case .command = best, !standsAlone, attention == .always { return ignored(heard, confidence, .notStandAlone) }
        if confidence >= threshold() {
            question = nil
            switch best {
            case .command(let command):
                return accept(command, heard)
            case .wake(_, let then?):
                return accept(then, heard)
            default:  // the wake phrase while listening
                if attention == .wake { awakeUntil = clock() + options.awakeSeconds }
                lastVerdict = Verdict(.wake)
                return .nothing
            }
        }
        let commands = meanings.compactMap { meaning -> VoiceCandidate? in
            if case .command(let command) = meaning { return command }
            return nil
        }
        guard !commands.isEmpty else { return ignored(heard, confidence, .noCommand) }
        guard standsAlone || attention != .always else { return ignored(heard, confidence, .notStandAlone) }
        return ask(.choose(Array(commands.prefix(3))), about: heard)
    }

    /// A command vsh is sure of: runs, or asks first when it is destructive. Said to vsh
    /// woken by the phrase, it keeps vsh awake a while longer; by the key, it was the one.
    private func accept(_ candidate: VoiceCandidate, _ heard: Utterance, settled: String? = nil) -> Outcome {
        switch attention {
        case .always: break
        case .wake: awakeUntil = clock() + options.awakeSeconds
        case .key: awakeUntil = -.infinity
        }
        if endsSession(candidate) { return ask(.confirmLeaving(candidate), about: heard) }
        if options.confirmDestructive && isDestructive(candidate) {
            return ask(.confirm(candidate), about: heard)
        }
        lastVerdict = Verdict(.run, line: candidate.line)
        return .run(spoken(candidate, heard, settled: settled))
    }

    private func ask(_ kind: PromptQuestion.Kind, about heard: Utterance) -> Outcome {
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
        return .note(q.text)
    }

    func resolve(_ answer: PromptAnswer) -> Outcome {
        guard let q = question else { return .nothing }
        lastVerdict = Verdict(.answer)
        switch (q.kind, answer) {
        case (_, .no):
            question = nil
            return .note(dim("(not run: \(q.subject))"))
        case (.choose(let candidates), .number(let n)) where (1...candidates.count).contains(n):
            question = nil
            return accept(candidates[n - 1], q.heard, settled: "chosen \(n)")
        case (.choose(let candidates), .yes) where candidates.count == 1:
            question = nil
            return accept(candidates[0], q.heard, settled: "chosen")
        case (.choose(let candidates), _) where candidates.count == 1:
            return .note("say or type yes or no")
        case (.choose(let candidates), _):
            return .note("say or type a number from 1 to \(candidates.count), or no")
        case (.confirm(let candidate), .yes), (.confirmLeaving(let candidate), .yes):
            question = nil
            lastVerdict = Verdict(.run, line: candidate.line)
            return .run(spoken(candidate, q.heard, settled: "confirmed"))
        case (.confirm, _), (.confirmLeaving, _):
            return .note("say or type yes or no")
        }
    }

    private func ignored(_ heard: Utterance, _ confidence: Double, _ check: Verdict.Check) -> Outcome {
        lastVerdict = Verdict(.ignore, stoppedBy: check)
        guard options.verbose else { return .nothing }
        return .note(dim("(ignored \"\(heard.recognition.text)\", confidence \(String(format: "%.2f", confidence)))"))
    }

    private func spoken(_ candidate: VoiceCandidate, _ heard: Utterance, settled: String?) -> SpokenLine {
        SpokenLine(
            line: candidate.line, heard: heard.recognition.text, confidence: heard.recognition.confidence,
            clip: heard.samples.isEmpty ? nil : clips?.save(heard.samples), settled: settled,
            end: heard.end, endClock: heard.endCaptured)
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
        switch resolve(answer) {
        case .run(let line): return .run(line)
        case .note(let text): return .handled([text])
        case .nothing: return .handled([])
        }
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
