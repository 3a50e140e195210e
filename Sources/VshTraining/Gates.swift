import Foundation
import VshCore
import VshVoice

/// What `train`'s check of the takes set on the adapted model (`AdaptedModel.gates`): the
/// gates calibrated on how models not adapted on the person's takes heard them, how many
/// takes each was set on or why the speaker check stays off, and what the check found
/// (`HeldOutFigures`, the takes left out). One value, so the check hands it to the model
/// whole; `adaptation.json` keeps its fields beside the model's own (FORMAT.md).
package struct Gates: Codable, Sendable, Equatable {
    /// The confidence threshold for vsh's commands calibrated on the person's takes that
    /// are not commands (`ThresholdCalibration`), and how many there were.
    package var threshold: Double?
    package var calibrationTakes: Int?
    /// The speaker score (`SpeakerCalibration`) a command needs, calibrated on the takes,
    /// and how many takes it was calibrated on; nil for a model adapted before the check.
    package var speakerThreshold: Double?
    package var speakerTakes: Int?
    /// Why `train` left the speaker check off for this person although it was asked for
    /// (`SpeakerCalibration`); nil when it set one, or was not asked.
    package var speakerCheckOff: String?
    /// How the person's takes were heard by models not adapted on them, with the gates
    /// above (`HeldOut`); nil for a model calibrated on its own takes, before this check.
    package var heldOut: HeldOutFigures?
    /// The takes left out because they did not seem to say their words (`TakeCheck.mismatch`).
    package var leftOut: [String]?
    /// The shortest a phone of a command may last on average (10 ms frames) for this
    /// person, under the stock gate's (`FramesCalibration`); nil: the stock gate.
    package var framesPerPhoneFloor: Double?

    /// None set: the stock gate, nothing checked.
    package init() {}

    /// The gate's part these set (`Gate.Calibration`).
    package var calibration: Gate.Calibration {
        Gate.Calibration(threshold: threshold, speaker: speakerThreshold, framesPerPhoneFloor: framesPerPhoneFloor)
    }
}

extension ModelTraining {
    /// What `calibrate` found: the takes kept, the gates set on them, and the rest.
    package struct Calibrated {
        /// The takes to adapt on: those that say their words, with their audio.
        package var kept: [(take: TrainingTakes.Take, samples: [Int16])]
        package var gates = Gates()
        /// Each take left out, why, and whether its phrase was set aside to be asked again.
        package var leftOut: [(take: TrainingTakes.Take, problem: String, askedAgain: Bool)] = []
        /// The least share of the takes changed one way that the speaker threshold kept
        /// (`SpeakerCalibration`); 0 when none was calibrated.
        package var speakerKept = 0.0
        /// Every take as it was heard, a line each, for `HeldOut.report`.
        package var heard: [HeldOut.Heard] = []
    }

    /// Hears every take with a model adapted on the others (`HeldOut`): takes that do not
    /// say their words are left out (a phrase of the script is set aside in `takes`, so the
    /// next `train` asks for it again), and the gates are set on how the rest were heard,
    /// as the person's new speech will be. Without `hearing` or with fewer than
    /// `minimumTakes` takes nothing is checked (adapting says why there are too few).
    /// `progress` is told each fold as it starts.
    package func calibrate(
        _ takes: [(take: TrainingTakes.Take, samples: [Int16])], in kept: TrainingTakes, commands: VoiceGrammar,
        settings: Settings, hearing: ((_ directory: String, _ base: String, _ grammar: CommandGrammar) throws -> Hearing)?,
        progress: (Int) -> Void
    ) throws -> Calibrated {
        guard takes.count >= Self.minimumTakes, let hearing else { return Calibrated(kept: takes) }
        let isCommand = { commands.interpret($0) != nil }
        let asCommands = HeldOut.commandTakes(takes.map(\.take), isCommand: isCommand)
        let heard = try heldOut(takes, commands: commands, asCommands: asCommands,
                                speakerVariants: settings.speakerCheck, hearing: hearing, progress: progress)
        let voice = TakeCheck.voice(heard.compactMap(\.speakerScore))
        var calibrated = Calibrated(kept: [], heard: heard)
        var fit: [HeldOut.Heard] = []
        for (i, one) in heard.enumerated() {
            if let problem = TakeCheck.mismatch(one, voice: voice) {
                let again = Int(one.take.name) != nil && (try? kept.setAside(one.take)) != nil
                calibrated.leftOut.append((one.take, problem, again))
            } else {
                calibrated.kept.append(takes[i])
                fit.append(one)
            }
        }
        var gates = Gates()
        gates.leftOut = calibrated.leftOut.isEmpty ? nil : calibrated.leftOut.map(\.take.name)
        let nonCommands = fit.filter { !isCommand($0.take.words.split(separator: " ").map(String.init)) }.compactMap(\.asCommand)
        gates.framesPerPhoneFloor = FramesCalibration.floor(
            framesPerPhone: fit.filter(\.saysItsWords).compactMap { heard in
                heard.asPhrase.features.flatMap { $0.phones > 0 ? Double($0.wordFrames) / Double($0.phones) : nil }
            },
            stock: Confidence.model.framesPerPhone.lowerBound)
        let floorOnly = Gate(settings: settings, calibration: Gate.Calibration(framesPerPhoneFloor: gates.framesPerPhoneFloor))
        if nonCommands.count >= ThresholdCalibration.fewestTakes {
            gates.threshold = ThresholdCalibration.threshold(
                nonCommands: nonCommands.map(floorOnly.confidence(of:)), configured: settings.voiceThreshold)
            gates.calibrationTakes = nonCommands.count
        }
        if settings.speakerCheck {
            let speaker = SpeakerCalibration.calibrate(fit.map(\.speakerScores))
            gates.speakerThreshold = speaker.threshold
            gates.speakerTakes = speaker.threshold == nil ? nil : fit.count
            gates.speakerCheckOff = speaker.why
            calibrated.speakerKept = speaker.kept
        }
        gates.heldOut = HeldOutFigures.of(fit, gate: Gate(settings: settings, calibration: gates.calibration),
                                          interpret: { commands.interpret($0)?.line })
        calibrated.gates = gates
        return calibrated
    }

    /// Adapts on the takes `calibrate` kept and puts the model in use, then gives it the
    /// gates set on them and writes beside it how each take was heard (`HeldOut.report`).
    /// Returns the model.
    package func adapt(_ calibrated: Calibrated, progress: (String) -> Void) throws -> AdaptedModel {
        var model = try adapt(calibrated.kept.map(\.take), progress: progress)
        model.gates = calibrated.gates
        try model.write(into: modelDirectory)
        try? HeldOut.report(calibrated.heard, leftOut: Set(calibrated.leftOut.map(\.take.name)))
            .write(toFile: modelDirectory + "/" + HeldOut.reportName, atomically: true, encoding: .utf8)
        return model
    }
}
