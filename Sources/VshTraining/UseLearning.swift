import Foundation
import VshCore
import VshSpoken
import VshStore
import VshVoice

/// Learning from use: a spoken command that ran, was heard clearly and was not undone is
/// kept as a take (its clip is in the history already), and once enough new ones are kept
/// the model is adapted again on them in the background (`LearningRound`). Only while a
/// model adapted to the person is in use with the speaker check on: what it learns must
/// be the person's own voice.
package final class UseLearning {
    /// A command heard at least this surely: one heard less surely may be the wrong words.
    package static let clearConfidence = 0.9
    /// Take names of commands kept from use: `use-` and the clip's name, which sorts by time.
    package static let prefix = "use-"
    /// The newest this many commands are kept as takes (about 15 MB of audio); older ones
    /// are removed, so that the takes and the time a round takes stay bounded.
    package static let kept = 300

    let takes: TrainingTakes
    /// How many commands are kept (`kept`).
    let keeping: Int
    /// Whether to learn now (an adapted model in use, and `voice.learn_from_use` on).
    let isActive: () -> Bool
    /// How many takes from use the model in use has not been adapted on.
    let unlearned: () -> Int
    /// Starts a round of learning in the background; the prompt does not wait for it.
    let startRound: () -> Void
    /// The last spoken command, kept when the next line does not undo it.
    private var pending: (clip: String, words: String)?

    package init(takes: TrainingTakes, keeping: Int = kept, isActive: @escaping () -> Bool,
                 unlearned: @escaping () -> Int, startRound: @escaping () -> Void) {
        self.takes = takes
        self.keeping = keeping
        self.isActive = isActive
        self.unlearned = unlearned
        self.startRound = startRound
    }

    /// After each line at the prompt: `spoken` when it was heard, and whether it ran.
    package func ran(line: String, spoken: SpokenLine?, succeeded: Bool) {
        let undoes = line.split(separator: " ").first.map { $0 == "undo" } ?? false
        if let kept = pending, !undoes { keep(kept) }
        pending = nil
        guard let spoken, succeeded, spoken.settled == nil, spoken.confidence >= Self.clearConfidence,
              let clip = spoken.clip, !spoken.heard.isEmpty, isActive() else { return }
        pending = (clip, spoken.heard)
    }

    /// At the end of the session: the last command was not undone.
    package func finish() {
        if let kept = pending { keep(kept) }
        pending = nil
    }

    /// Copies the clip (sealed as it is, when the store encrypts) and its words into the
    /// takes; starts a round once `LearningRound.fewestTakes` are new. A clip that cannot
    /// be copied is no take.
    private func keep(_ kept: (clip: String, words: String)) {
        guard let audio = FileManager.default.contents(atPath: kept.clip) else { return }
        let name = Self.prefix + ((kept.clip as NSString).lastPathComponent as NSString).deletingPathExtension
        do {
            try takes.save(sealedWAV: audio, words: kept.words, name: name)
        } catch {
            return
        }
        for old in takes.fromUse().dropLast(keeping) {
            try? FileManager.default.removeItem(atPath: takes.directory + "/" + old.name + ".txt")
            try? FileManager.default.removeItem(atPath: old.audioPath)
        }
        // A round at each `LearningRound.fewestTakes` new takes: one that kept the model
        // in use is not run again at every take after it.
        let waiting = unlearned()
        if waiting >= LearningRound.fewestTakes, waiting % LearningRound.fewestTakes == 0 { startRound() }
    }
}

extension TrainingTakes {
    /// The takes kept from use (`UseLearning`), oldest first.
    package func fromUse() -> [Take] { all().filter(\.isFromUse) }
}

extension TrainingTakes.Take {
    /// Whether it was kept from use (`UseLearning`), not recorded for `train`.
    package var isFromUse: Bool { name.hasPrefix(UseLearning.prefix) }
}

/// One round of learning from use: the takes from use the model has not been adapted on
/// are split in two, alternately by time. A candidate model is adapted on what the model
/// in use was adapted on and the first half; both models hear the second half, which
/// neither was adapted on; the candidate replaces the model in use only when it hears
/// those commands at least as well. What was checked is what is put in use.
package struct LearningRound {
    /// New takes from use that make a round: the prompt starts one at each this many
    /// (`UseLearning`), and `train learn` needs as many; fewer say too little to check a
    /// model with. The README and `voice.learn_from_use` in vsh.toml say this number.
    package static let fewestTakes = 20

    /// What the last round found (`train status`), kept in the takes' directory.
    package struct Check: Codable, Sendable, Equatable {
        package var date: String
        /// Takes from use heard by both models, and the share each heard right.
        package var takes: Int
        package var before: Double
        package var after: Double
        package var replaced: Bool
    }

    package static let checkName = ".learning.json"

    let training: ModelTraining
    let takes: TrainingTakes
    /// How a model hears speech (`TrainingServices.hearing`).
    let hearing: (_ directory: String, _ base: String, _ grammar: CommandGrammar) throws -> Hearing
    let commands: CommandGrammar
    /// The gate of the model in use: both models' hearings are judged by it, as the prompt
    /// would judge them.
    let gate: Gate

    package init(
        training: ModelTraining, takes: TrainingTakes, commands: CommandGrammar, gate: Gate,
        hearing: @escaping (_ directory: String, _ base: String, _ grammar: CommandGrammar) throws -> Hearing
    ) {
        self.training = training
        self.takes = takes
        self.commands = commands
        self.gate = gate
        self.hearing = hearing
    }

    /// The takes from use `model` was not adapted on.
    package static func unlearned(_ takes: TrainingTakes, model: AdaptedModel) -> [TrainingTakes.Take] {
        unlearned(takes.fromUse(), model: model)
    }

    /// Those of `fromUse` (takes kept from use) that `model` was not adapted on.
    package static func unlearned(_ fromUse: [TrainingTakes.Take], model: AdaptedModel) -> [TrainingTakes.Take] {
        let learned = Set(model.learnedFromUse ?? [])
        return fromUse.filter { !learned.contains($0.name) }
    }

    /// The last round's check, if any.
    package static func lastCheck(_ takes: TrainingTakes) -> Check? {
        FileManager.default.contents(atPath: takes.directory + "/" + checkName)
            .flatMap { try? JSONDecoder().decode(Check.self, from: $0) }
    }

    /// Runs the round against `model`, the adapted model in use; `read` gives a take's
    /// audio. Returns the check, or nil when too few new takes are there to check with.
    package func run(
        model: AdaptedModel, read: (TrainingTakes.Take) throws -> [Int16], progress: (String) -> Void
    ) throws -> Check? {
        let new = Self.unlearned(takes, model: model)
        guard new.count >= Self.fewestTakes else { return nil }
        let learn = new.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let check = new.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let learned = Set(model.learnedFromUse ?? [])
        let adaptedOn = takes.all().filter {
            $0.isFromUse ? learned.contains($0.name) : !(model.gates.leftOut ?? []).contains($0.name)
        }
        let audio = try check.map(read)
        progress("Adapting on \(learn.count) of your \(new.count) new commands…")
        let candidate = try training.candidate(adaptedOn + learn)
        defer { try? FileManager.default.removeItem(atPath: candidate.directory) }
        progress("Checking it on the other \(check.count)…")
        let before = try share(right: check, audio, heardBy: training.modelDirectory)
        let after = try share(right: check, audio, heardBy: candidate.directory)
        let result = Check(date: ISO8601DateFormatter().string(from: Date()), takes: check.count,
                           before: before, after: after, replaced: after >= before)
        if result.replaced {
            // The gates were set on how models not adapted on the takes heard them; the
            // person's commands score higher with each round, so they stay where they were.
            var next = model.adaptedAgain(as: candidate.model)
            next.learnedFromUse = (model.learnedFromUse ?? []) + learn.map(\.name)
            try next.write(into: candidate.directory)
            try training.putInPlace(candidate.directory)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(result), to: takes.directory + "/" + Self.checkName)
        return result
    }

    /// The share of `takes` the model in `directory` hears as their own command and the
    /// gate takes.
    func share(right takes: [TrainingTakes.Take], _ audio: [[Int16]], heardBy directory: String) throws -> Double {
        let ear = try hearing(directory, training.base, commands)
        let right = zip(takes, audio).filter { take, samples in
            let heard = ear.recognize(samples)
            return heard.text == take.words && gate.take(heard, isPhrase: true).isSure
        }.count
        return Double(right) / Double(max(1, takes.count))
    }
}

/// One round of learning at a time, across processes: an exclusive `flock` on a file in
/// the takes' directory, released when the holder ends, however it ends.
package final class LearningLock {
    private let fd: Int32

    /// Nil when another process holds it.
    package init?(directory: String) {
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        fd = open(directory + "/.learning.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
    }

    package func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
