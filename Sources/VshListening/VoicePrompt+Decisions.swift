import Foundation
import VshCore

/// What the prompt does with each utterance, and with answers to its questions.
extension VoicePrompt {
    enum Outcome: Equatable {
        case nothing
        /// A line to show above the prompt.
        case note(String)
        case run(SpokenLine)
    }

    /// The pseudo-commands of the listener's grammar: spoken answers and the wake phrase.
    /// Their names cannot be typed, so they never clash with a real command.
    package static let answerCommand = "(answer)"
    package static let wakeCommand = "(wake)"

    /// The registry the listener's grammar is built from: the shell's commands, plus the
    /// answers to questions ("two", "yes", "no") and `wakePhrase`, which only the listener
    /// hears. Throws when the wake phrase is not a valid spoken pattern.
    package static func grammarRegistry(_ registry: CommandRegistry, wakePhrase: String?) throws -> CommandRegistry {
        var extended = registry
        func entry(_ name: String, _ forms: [SpokenForm]) -> CommandEntry {
            CommandEntry(
                info: CommandInfo(name: name, summary: "spoken only", spokenForms: forms),
                usage: name, helpText: { "" }, parse: { _ in .failure("only spoken") })
        }
        try extended.register(entry(answerCommand, PromptAnswer.spokenForms))
        if let wakePhrase {
            _ = try SpokenPattern.parse(wakePhrase)
            try extended.register(entry(wakeCommand, [SpokenForm(wakePhrase, runs: "listen on")]))
        }
        return extended
    }

    /// The destructive check for the commands in `registry()`, as each command declares
    /// it (`CommandInfo.isDestructive`): delete, `trash empty`, `encrypt on|off`, command
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

    func decide(_ heard: Heard) -> Outcome {
        promptThread.check()
        let best = heard.candidates.first
        if !isOn {
            let words = heard.text.split(separator: " ").map(String.init)
            guard heard.confidence >= threshold(), wake?.match(words) != nil else { return ignored(heard) }
            isOn = true
            return .note(dim("(listening again)"))
        }
        if let best, best.command == Self.answerCommand, heard.confidence >= options.rejectBelow,
           let answer = PromptAnswer(best.line) {
            guard question != nil else {
                return heard.confidence >= threshold()
                    ? .note(dim("(heard \"\(heard.text)\": there is no question to answer)")) : ignored(heard)
            }
            return resolve(answer)
        }
        guard let best, heard.confidence >= options.rejectBelow else { return ignored(heard) }
        if heard.confidence >= threshold() {
            question = nil
            if best.command == Self.wakeCommand { return .nothing }
            return accept(best, heard)
        }
        let commands = heard.candidates.filter { !$0.command.hasPrefix("(") }
        guard !commands.isEmpty else { return ignored(heard) }
        return ask(.choose(Array(commands.prefix(3))), about: heard)
    }

    /// A command vsh is sure of: runs, or asks first when it is destructive.
    private func accept(_ candidate: VoiceCandidate, _ heard: Heard, settled: String? = nil) -> Outcome {
        if endsSession(candidate) { return ask(.confirmLeaving(candidate), about: heard) }
        if options.confirmDestructive && isDestructive(candidate) {
            return ask(.confirm(candidate), about: heard)
        }
        return .run(spoken(candidate, heard, settled: settled))
    }

    private func ask(_ kind: PromptQuestion.Kind, about heard: Heard) -> Outcome {
        let q = PromptQuestion(kind: kind, heard: heard, deadline: clock() + options.answerSeconds)
        question = q
        // Wake the reader when the question lapses, so the prompt says so.
        let seconds = options.answerSeconds
        let wakeup = self.wakeup
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds + 0.05) { wakeup.poke() }
        return .note(q.text)
    }

    func resolve(_ answer: PromptAnswer) -> Outcome {
        guard let q = question else { return .nothing }
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
            return .run(spoken(candidate, q.heard, settled: "confirmed"))
        case (.confirm, _), (.confirmLeaving, _):
            return .note("say or type yes or no")
        }
    }

    private func ignored(_ heard: Heard) -> Outcome {
        guard options.verbose else { return .nothing }
        return .note(dim("(ignored \"\(heard.text)\", confidence \(String(format: "%.2f", heard.confidence)))"))
    }

    private func spoken(_ candidate: VoiceCandidate, _ heard: Heard, settled: String?) -> SpokenLine {
        SpokenLine(
            line: candidate.line, heard: heard.text, confidence: heard.confidence,
            clip: heard.samples.isEmpty ? nil : clips?.save(heard.samples), settled: settled,
            end: heard.end, endClock: heard.endClock)
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
