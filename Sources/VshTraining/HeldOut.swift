import Foundation
import VshCore
import VshVoice

/// Calibration on speech the model was not adapted on. A model hears the takes it was
/// adapted on better than anything the person says later (it learnt those very sounds),
/// so gates set on them turn the person's new speech away. The takes are split into
/// `folds`; a model adapted on the other folds hears each one, so every take is heard by
/// a model that never heard it. The gates are set on those hearings, takes that do not
/// say their words are found there, and the model put in use is adapted on all the
/// takes that passed.
package enum HeldOut {
    /// Three models of two thirds of the takes each: each hears a third. More folds hear
    /// with models nearer the final one and cost an adaptation each.
    package static let folds = 3

    /// A take as a model that was not adapted on it hears it.
    package struct Heard: Sendable {
        package var take: TrainingTakes.Take
        /// Against vsh's commands, as the prompt hears it: the takes that say a command, and
        /// at most `commandTakes` of those that are no command (nil for the rest).
        package var asCommand: Recognition?
        /// Against the takes' own phrases: whether it says its words.
        package var asPhrase: Recognition
        package var speakerScore: Double?
        /// Its speaker score changed each way a person's set-up changes
        /// (`SpeakerCalibration.Variant`, in order), when asked for; else empty.
        package var speakerScores: [Double?] = []

        package init(take: TrainingTakes.Take, asCommand: Recognition?, asPhrase: Recognition, speakerScore: Double?,
                     speakerScores: [Double?] = []) {
            self.take = take
            self.asCommand = asCommand
            self.asPhrase = asPhrase
            self.speakerScore = speakerScore
            self.speakerScores = speakerScores
        }

        /// Heard as its own words.
        package var saysItsWords: Bool { asPhrase.text == take.words }
    }

    /// The file in the adapted model's directory that lists how each take was heard.
    package static let reportName = "held-out.tsv"

    /// How each take was heard, a tab-separated line each: its name, its words, what it
    /// was heard as against the takes' phrases and against vsh's commands (each with its
    /// confidence), its speaker score, and whether it was left out.
    package static func report(_ heard: [Heard], leftOut: Set<String>) -> String {
        var lines = ["take\twords\theard\tconfidence\tas_command\tcommand_confidence\tspeaker_score\tleft_out"]
        for h in heard {
            lines.append([
                h.take.name, h.take.words, h.asPhrase.text, String(format: "%.3f", h.asPhrase.confidence),
                h.asCommand?.text ?? "", h.asCommand.map { String(format: "%.3f", $0.confidence) } ?? "",
                h.speakerScore.map { String(format: "%.3f", $0) } ?? "", leftOut.contains(h.take.name) ? "yes" : "",
            ].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Takes that are no command heard against the commands: each is one more decode,
    /// and 30 say enough of a share of 5%.
    package static let commandTakes = 30

    /// Which of `takes` to hear against the commands: every one that says a command (by
    /// `isCommand`: what the prompt would do with it is what `train` reports), and of
    /// those that are no command at most `commandTakes`, spread over all (takes sort by
    /// phrase), for the share of them that would run one.
    package static func commandTakes(_ takes: [TrainingTakes.Take], isCommand: ([String]) -> Bool) -> Set<Int> {
        let says = takes.indices.filter { isCommand(takes[$0].words.split(separator: " ").map(String.init)) }
        let all = takes.indices.filter { !says.contains($0) }
        guard all.count > commandTakes else { return Set(says + all) }
        return Set(says + (0..<commandTakes).map { all[$0 * all.count / commandTakes] })
    }

    /// The fold take `index` is left out of: every third take, so that each fold holds
    /// every kind of phrase (takes are sorted by name, and names follow the phrases).
    package static func fold(of index: Int) -> Int { index % folds }

    /// The takes' phrases as one grammar, each its own command.
    package static func phraseGrammar(_ takes: [TrainingTakes.Take]) throws -> JSGFGrammar {
        try phraseGrammar(phrases: takes.map(\.words))
    }

    /// `phrases` as one grammar, each its own command.
    package static func phraseGrammar(phrases: [String]) throws -> JSGFGrammar {
        let phrases = Set(phrases).sorted()
        return try JSGFGrammar(
            text: "#JSGF V1.0;\ngrammar takes;\npublic <take> = " + phrases.joined(separator: "\n    | ") + ";\n",
            file: "the takes' phrases")
    }

    /// Adapts one model per fold on the other folds' takes, in directories under `work`
    /// (removed after), and hears the fold's takes with it; with `speakerVariants`, scores
    /// each take changed each way a set-up changes too (`SpeakerCalibration`). `progress`
    /// is told each fold as it starts. Returns the hearings in the order of `takes`.
    package static func hear(
        _ takes: [(take: TrainingTakes.Take, samples: [Int16])], adapter: ModelAdapter, base: String, work: String,
        commands: CommandGrammar, asCommands: Set<Int>, speakerVariants: Bool = false,
        hearing: (_ directory: String, _ grammar: CommandGrammar) throws -> Hearing, progress: (Int) -> Void
    ) throws -> [Heard] {
        let phrases = try phraseGrammar(takes.map(\.take))
        var heard = [Heard?](repeating: nil, count: takes.count)
        for part in 0..<folds {
            progress(part)
            let left = takes.indices.filter { fold(of: $0) == part }
            let kept = takes.indices.filter { fold(of: $0) != part }.map { takes[$0].take }
            guard !left.isEmpty else { continue }
            let directory = work + "/fold-\(part)"
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            _ = try adapter.adapt(kept, base: base, into: directory, progress: { _ in })
            let command = try hearing(directory, commands)
            let phrase = try hearing(directory, phrases)
            for i in left {
                let samples = takes[i].samples
                let score = try command.speakerScore(samples)
                // The score goes with each recognition, as the prompt's recogniser gives it,
                // so the gate judges the take as it will judge the person's commands.
                func scored(_ r: Recognition) -> Recognition {
                    var r = r
                    if r.features?.otherWord == nil { r.features?.speakerScore = score }
                    return r
                }
                let variants = speakerVariants
                    ? try SpeakerCalibration.Variant.allCases.map { $0 == .asSaid ? score : try command.speakerScore($0.apply(samples)) }
                    : []
                heard[i] = Heard(take: takes[i].take, asCommand: asCommands.contains(i) ? scored(command.recognize(samples)) : nil,
                                 asPhrase: scored(phrase.recognize(samples)), speakerScore: score, speakerScores: variants)
            }
        }
        return heard.compactMap { $0 }
    }
}

extension TakeCheck {
    /// A take heard as another phrase of the takes at least this sure is taken to say
    /// that phrase: its text names the wrong words.
    package static let otherPhraseConfidence = 0.8
    /// A take whose speaker score lies this far (nats a frame) under the takes' median,
    /// and `otherVoiceSpread` times their median absolute deviation, is taken to be
    /// another voice: a voice the model fits closely (a synthetic one) spreads its scores
    /// wider.
    package static let otherVoiceGap = 1.5
    package static let otherVoiceSpread = 4.0

    /// The takes' voice: their median speaker score, and the score under which a take is
    /// another voice; nil with too few scores to say.
    package static func voice(_ scores: [Double]) -> (median: Double, floor: Double)? {
        guard scores.count >= SpeakerCalibration.fewestTakes else { return nil }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let middle = median(scores)
        let spread = median(scores.map { abs($0 - middle) })
        return (middle, middle - max(otherVoiceGap, otherVoiceSpread * spread))
    }

    /// The other phrase a take of `words` was heard as surely (`otherPhraseConfidence`),
    /// recognised against the phrases; nil when it was heard as its own words, or not surely.
    package static func otherPhrase(_ heard: Recognition, words: String) -> String? {
        let other = heard.text
        return !other.isEmpty && other != words && heard.confidence >= otherPhraseConfidence ? other : nil
    }

    /// Why a take, heard by a model not adapted on it, seems not to be what its text says,
    /// or nil. `voice` is the takes' (`voice(_:)`). A take the model merely failed to hear
    /// right is no mismatch: those are the sounds adaptation must learn.
    package static func mismatch(_ heard: HeldOut.Heard, voice: (median: Double, floor: Double)?) -> String? {
        if let other = otherPhrase(heard.asPhrase, words: heard.take.words) {
            return "it sounds like \"\(other)\", not \"\(heard.take.words)\": correct its .txt, or record it again"
        }
        if let score = heard.speakerScore, let voice, score < voice.floor {
            return String(format: "it sounds like another voice than the other takes (speaker score %.2f, theirs %.2f): record it again yourself",
                          score, voice.median)
        }
        return nil
    }
}

/// What the held-out hearings say of the person's speech, judged by the gate
/// (`Gate.take`) the prompt will judge it by once the model is in use.
package struct HeldOutFigures: Codable, Sendable, Equatable {
    /// Takes heard by a model not adapted on them.
    package var takes: Int
    /// Share of takes heard as their own phrase and passing the gate.
    package var right: Double
    /// Share heard as another phrase that passed the gate.
    package var wrong: Double
    /// Share of the takes that are no command which would run one.
    package var nonCommandsAccepted: Double?
    /// How many of the takes were no command.
    package var nonCommands: Int
    /// How many takes say a command, heard against the commands as the prompt hears them
    /// (nil for a model made before this was counted).
    package var commands: Int?
    /// How many of those would run as that command at the prompt.
    package var commandsRun: Int?
    /// How many of them each check stopped (`Gate.Check`'s names), and `another-command`
    /// for those that would run another command.
    package var stoppedBy: [String: Int]?

    package init(takes: Int, right: Double, wrong: Double, nonCommandsAccepted: Double?, nonCommands: Int,
                 commands: Int? = nil, commandsRun: Int? = nil, stoppedBy: [String: Int]? = nil) {
        self.takes = takes
        self.right = right
        self.wrong = wrong
        self.nonCommandsAccepted = nonCommandsAccepted
        self.nonCommands = nonCommands
        self.commands = commands
        self.commandsRun = commandsRun
        self.stoppedBy = stoppedBy
    }

    /// The key of `stoppedBy` for a command take that would run another command.
    package static let anotherCommand = "another-command"

    /// The figures of `heard` judged by `gate`; `interpret` reads words as a command line.
    package static func of(
        _ heard: [HeldOut.Heard], gate: Gate, interpret: ([String]) -> String?
    ) -> HeldOutFigures {
        func passes(_ r: Recognition, isPhrase: Bool = true) -> Bool { gate.take(r, isPhrase: isPhrase).isSure }
        let n = Double(max(1, heard.count))
        let right = heard.filter { $0.saysItsWords && passes($0.asPhrase) }.count
        let wrong = heard.filter { !$0.saysItsWords && passes($0.asPhrase) }.count
        var figures = HeldOutFigures(takes: heard.count, right: Double(right) / n, wrong: Double(wrong) / n,
                                     nonCommandsAccepted: nil, nonCommands: 0)
        var commands = 0, run = 0
        var stopped: [String: Int] = [:]
        var nonCommands = 0, accepted = 0
        for one in heard {
            guard let r = one.asCommand else { continue }
            let line = interpret(r.words.map(\.word))
            let decision = gate.take(r, isPhrase: line != nil)
            guard let own = interpret(one.take.words.split(separator: " ").map(String.init)) else {
                nonCommands += 1
                if decision.isSure { accepted += 1 }
                continue
            }
            commands += 1
            if let check = decision.stoppedBy {
                stopped[check.rawValue, default: 0] += 1
            } else if line == own {
                run += 1
            } else {
                stopped[anotherCommand, default: 0] += 1
            }
        }
        figures.nonCommands = nonCommands
        figures.nonCommandsAccepted = nonCommands == 0 ? nil : Double(accepted) / Double(nonCommands)
        if commands > 0 {
            figures.commands = commands
            figures.commandsRun = run
            figures.stoppedBy = stopped
        }
        return figures
    }
}
