import Foundation
import VshCore
import VshStore
import VshVoice

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
    package struct Report: Codable, Sendable, Equatable {
        package var date: String
        /// Takes from use heard by both models, and the share each heard right.
        package var takes: Int
        package var before: Double
        package var after: Double
        package var replaced: Bool
    }

    package static let reportName = ".learning.json"

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
    package static func lastReport(_ takes: TrainingTakes) -> Report? {
        FileManager.default.contents(atPath: takes.directory + "/" + reportName)
            .flatMap { try? JSONDecoder().decode(Report.self, from: $0) }
    }

    /// Runs the round against `model`, the adapted model in use; `read` gives a take's
    /// audio. Returns the check, or nil when too few new takes are there to check with.
    package func run(
        model: AdaptedModel, read: (TrainingTakes.Take) throws -> [Int16], progress: (String) -> Void
    ) throws -> Report? {
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
        let result = Report(date: ISO8601DateFormatter().string(from: Date()), takes: check.count,
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
        try AtomicFile.write(try encoder.encode(result), to: takes.directory + "/" + Self.reportName)
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
