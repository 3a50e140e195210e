import Foundation
import VshCore
import VshStore
import VshVoice

/// Puts an adaptation in place: the adapter writes a new model beside the store's
/// `model/`, and only a whole one replaces it; the one it replaces goes to the trash
/// (`undo` brings it back). A failed adaptation leaves the model in use as it was.
package struct ModelTraining {
    /// Fewer takes than this do not adapt: MLLR estimates a transform from them, and
    /// with a few seconds of speech it learns the phrases, not the voice.
    package static let minimumTakes = 10

    let store: TranscriptStore
    let adapter: ModelAdapter
    /// The stock acoustic model it adapts.
    package let base: String

    package init(store: TranscriptStore, adapter: ModelAdapter, base: String) {
        self.store = store
        self.adapter = adapter
        self.base = base
    }

    package var modelDirectory: String { AdaptedModel.directory(store: store.directory) }

    /// Adapts on `takes` and puts the result in use. Returns the new model.
    package func adapt(_ takes: [TrainingTakes.Take], progress: (String) -> Void) throws -> AdaptedModel {
        let made = try candidate(takes, progress: progress)
        defer { try? FileManager.default.removeItem(atPath: made.directory) }
        try putInPlace(made.directory)
        return made.model
    }

    /// Adapts on `takes` into a new directory beside the store's `model/`, not yet in use
    /// (the caller puts it in place or removes it). The model's manifest is written.
    package func candidate(
        _ takes: [TrainingTakes.Take], progress: (String) -> Void = { _ in }
    ) throws -> (model: AdaptedModel, directory: String) {
        guard takes.count >= Self.minimumTakes else {
            throw CommandError("adapting needs at least \(Self.minimumTakes) takes and there \(takes.count == 1 ? "is" : "are") \(takes.count); 'train' records more")
        }
        let fresh = store.directory + "/.model-new-\(getpid())"
        try? FileManager.default.removeItem(atPath: fresh)
        do {
            try FileManager.default.createDirectory(
                atPath: fresh, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let model = try adapter.adapt(takes, base: base, into: fresh, progress: progress)
            try model.write(into: fresh)
            return (model, fresh)
        } catch {
            try? FileManager.default.removeItem(atPath: fresh)
            throw CommandError("the adaptation failed, and the speech model in use is unchanged: \(error)")
        }
    }

    /// Puts the model made in `directory` in use; the one it replaces goes to the trash
    /// (`undo` brings it back).
    package func putInPlace(_ directory: String) throws {
        try store.trash(directory: AdaptedModel.directoryName)
        guard rename(directory, modelDirectory) == 0 else {
            throw FileError.current("cannot put the adapted model in place at \(modelDirectory)", path: modelDirectory)
        }
    }

    /// Each take as a model adapted on the others hears it (`HeldOut`), the models made
    /// and removed beside the store's `model/`.
    package func heldOut(
        _ takes: [(take: TrainingTakes.Take, samples: [Int16])], commands: CommandGrammar, asCommands: Set<Int>,
        speakerVariants: Bool = false,
        hearing: (_ directory: String, _ base: String, _ grammar: CommandGrammar) throws -> Hearing,
        progress: (Int) -> Void
    ) throws -> [HeldOut.Heard] {
        let work = store.directory + "/.model-folds"
        try? FileManager.default.removeItem(atPath: work)
        defer { try? FileManager.default.removeItem(atPath: work) }
        do {
            return try HeldOut.hear(takes, adapter: adapter, base: base, work: work, commands: commands,
                                    asCommands: asCommands, speakerVariants: speakerVariants,
                                    hearing: { try hearing($0, base, $1) }, progress: progress)
        } catch {
            throw CommandError("checking the takes failed, and the speech model in use is unchanged: \(error)")
        }
    }
}

/// A person who speaks fast says a command in fewer frames a phone than the confidence's
/// gate allows (`Confidence.framesPerPhone`, set so that 1% of the fitting speakers' right
/// commands fell under it): fsdd's yweweler said 7 of 50 takes under it, and 14 of 250 new
/// digits heard right ran nothing for it. The gate is lowered for the person to where 1%
/// of their own takes, heard by models not adapted on them as their words, fall under it,
/// and never under `lowest` (the unclear-word check's floor: a word squeezed shorter is a
/// click or a word the search stretched a command over).
package enum FramesCalibration {
    package static let lowest = 4.5
    package static let fewestTakes = 10

    /// The floor for the frames a phone of takes heard as their words (nil: the stock one).
    package static func floor(framesPerPhone values: [Double], stock: Double) -> Double? {
        guard values.count >= fewestTakes else { return nil }
        let sorted = values.sorted()
        let first = sorted[Int(0.01 * Double(sorted.count - 1))]
        let floor = max(lowest, (first * 10).rounded(.down) / 10)
        return floor < stock ? floor : nil
    }
}

/// Rejection keeps its promise after adaptation: an adapted model hears the person's
/// speech better, commands and everything else alike, so confidences rise for speech
/// that is not a command too (measured on fsdd: a speaker's lone digits, which are no
/// command at the prompt, were taken as one 71% of the time with the stock model and
/// 81% with the adapted one). From the person's own takes that are not commands, as
/// models not adapted on them hear them (`HeldOut`), the threshold for vsh's commands is
/// raised until at most `falseAcceptShare` of them pass.
package enum ThresholdCalibration {
    package static let falseAcceptShare = 0.05
    /// Never above this: a threshold near 1 would turn every command into a question.
    package static let ceiling = 0.95
    /// Fewer takes say nothing about a share of 5%.
    package static let fewestTakes = 10

    /// The threshold for `confidences` (of takes that are not commands) and the one set.
    /// Where the confidence cannot tell them apart (more than `falseAcceptShare` of them are
    /// heard as a command as surely as a command is), no threshold under the ceiling keeps
    /// them out, and raising it would only turn commands away: it stays as set.
    package static func threshold(nonCommands confidences: [Double], configured: Double) -> Double {
        guard confidences.count >= fewestTakes else { return configured }
        let sorted = confidences.sorted(by: >)
        let allowed = Int(Double(sorted.count) * falseAcceptShare)
        let needed = ((sorted[allowed] + 0.005) * 100).rounded(.up) / 100
        return needed > ceiling ? configured : max(configured, needed)
    }
}
