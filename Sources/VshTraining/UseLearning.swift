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
