import ArgumentParser
import Foundation
import VshCore
import VshSpoken
import VshStore
import VshVoice
import VshTraining

/// `train` adapts the speech model to the person and their microphone: it shows one
/// phrase at a time, keeps each take that is fit, then adapts (MLLR, then MAP) into the
/// store's `model/`, which vsh loads from then on. `train --from DIR` adapts from
/// recordings already made; `train --again` adapts anew from the kept takes;
/// `train status` says which model is in use; `train reset` goes back to the stock
/// model (the adaptation goes to the trash: `undo` brings it back).
package struct TrainCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "train", summary: "Adapt the speech model to your voice and microphone (about two minutes of speaking)",
        arguments: [.values(["status", "reset", "learn"])])

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case status, reset, learn
    }

    @Argument(help: ArgumentHelp("'status' says which model is in use; 'reset' goes back to the stock model; "
                                 + "'learn' adapts on the commands kept from use now (vsh does it by itself in the background).",
                                 valueName: "status|reset|learn"))
    var action: Action?

    @Option(help: ArgumentHelp(
        "Adapt from recordings in this directory: audio files (WAV or FLAC, any rate), each with NAME.txt beside it holding the words said.",
        valueName: "dir"))
    var from: String?

    @Flag(help: "Adapt again from the takes kept by earlier training.")
    var again = false

    @Flag(help: "With 'status': print it as a JSON object (the shape is in FORMAT.md).")
    var json = false

    package init() {}

    package mutating func validate() throws {
        if action != nil && (from != nil || again) {
            throw ValidationError("'train \(action!.rawValue)' takes no --from or --again")
        }
        if from != nil && again { throw ValidationError("--from and --again are two ways to train: choose one") }
        if json && action != .status { throw ValidationError("--json goes with 'train status'") }
    }

    package func run(in context: CommandContext) throws {
        let session = context.session
        let takes = Self.takes(session)
        let commands = VoiceGrammar(registry: session.registry)
        switch action {
        case .status:
            return status(context, takes: takes, commands: commands)
        case .reset:
            return try reset(context)
        case .learn, nil:
            break
        }
        guard let voice = session.voice else {
            throw CommandError("training needs audio, and vsh was started with --no-voice; start it without that option")
        }
        guard let (adapter, base) = try session.training?.modelAdapter() else {
            throw CommandError("this vsh has no speech model adapter; train needs sphinxtrain (make deps installs it)")
        }
        let training = ModelTraining(store: session.store, adapter: adapter, base: base)
        if action == .learn { return try learn(context, training: training, takes: takes, commands: commands, voice: voice) }
        let chosen: [TrainingTakes.Take]
        if let from {
            chosen = try Self.importTakes(from: from, into: takes, voice: voice, context: context)
        } else if again {
            chosen = takes.all()
        } else {
            guard try record(context, voice: voice, takes: takes, commands: commands, training: training) else { return }
            chosen = takes.all()
        }
        // Each take is read once, for the check and the calibration.
        let audio = try chosen.map { try Self.samples(of: $0.audioPath, voice: voice) }
        let checked = try training.calibrate(
            Array(zip(chosen, audio)), in: takes, commands: commands, settings: session.settings,
            hearing: session.training.map { services in services.hearing }
        ) { fold in
            context.step("Checking your takes with models adapted on the others (\(fold + 1)/\(HeldOut.folds))…")
        }
        for left in checked.leftOut {
            context.clearStatus()
            context.warn("\(Self.origin(of: left.take)) is left out: \(left.problem)" + (left.askedAgain ? " ('train' asks for it again)" : ""))
        }
        let model = try training.adapt(checked, progress: context.step)
        let gates = model.gates
        context.clearStatus()
        context.output.line(String(format: "The speech model is adapted to your voice (%d takes, %.1f min of speech) and in use. ", model.takes, model.seconds / 60)
            + "'train reset' goes back to the stock model.")
        if let figures = gates.heldOut {
            context.output.line(Self.describe(figures))
        }
        if session.settings.speakerCheck {
            if gates.speakerThreshold != nil {
                context.output.line(String(format: "Spoken commands must now also sound like you (voice.speaker_check): set on your takes changed the ways a set-up changes, it kept at least %.0f%% of them each way.", 100 * checked.speakerKept))
            } else if let why = gates.speakerCheckOff {
                context.output.line("The speaker check stays off for your voice: \(why). Spoken commands run whoever says them; "
                    + "'train --again' with more takes, or in the room and with the microphone you use, may allow it.")
            }
        }
        let raised = (gates.threshold ?? 0) > session.settings.voiceThreshold
        if let threshold = gates.threshold, raised {
            context.output.line(String(format: "Spoken commands now need a confidence of %.2f (voice.threshold is %.2f): at that, ", threshold, session.settings.voiceThreshold)
                + "no more than \(Int(ThresholdCalibration.falseAcceptShare * 100))% of what you said that is not a command would run one.")
        }
        if let note = Self.thresholdNotRaised(
            nonCommandsAccepted: gates.heldOut?.nonCommandsAccepted, nonCommands: gates.heldOut?.nonCommands ?? 0,
            calibrated: gates.calibrationTakes != nil, raised: raised, configured: session.settings.voiceThreshold) {
            context.output.line(note)
        }
    }

    /// When more than `ThresholdCalibration.falseAcceptShare` of the takes that are no
    /// command would run one and the threshold was not raised: why not (too few such
    /// takes to set it on, or none up to the ceiling keeps them out) and what the person
    /// can do. Nil when it was raised or did not need to be.
    static func thresholdNotRaised(
        nonCommandsAccepted: Double?, nonCommands: Int, calibrated: Bool, raised: Bool, configured: Double
    ) -> String? {
        guard let accepted = nonCommandsAccepted, accepted > ThresholdCalibration.falseAcceptShare, !raised else { return nil }
        let share = Int(ThresholdCalibration.falseAcceptShare * 100)
        let why = calibrated
            ? String(format: "vsh hears those takes as surely as your commands, and no threshold up to %.2f (the highest train sets: above it every command would be asked about first) keeps them under %d%%. ",
                     ThresholdCalibration.ceiling, share)
            : "only \(nonCommands) of your takes \(nonCommands == 1 ? "is" : "are") no command, too few to set it on "
                + "(it takes \(ThresholdCalibration.fewestTakes)); 'train' asks for the phrases not yet recorded. "
        return String(format: "The confidence threshold stays %.2f (voice.threshold): ", configured) + why
            + "To keep what you say that is no command from running one, let vsh take commands only after its wake phrase "
            + "or a key: 'listen wake' or 'listen key' for this session, voice.attention in vsh.toml for good."
    }

    /// Where a take came from, for a message: its file in the directory it was read from
    /// (`train --from`), or the phrase it recorded.
    static func origin(of take: TrainingTakes.Take) -> String {
        take.name.hasPrefix("from-") ? "the recording \(take.name.dropFirst(5))" : "the take \(take.name) (\"\(take.words)\")"
    }

    /// The held-out figures in a sentence.
    static func describe(_ figures: HeldOutFigures) -> String {
        var line = String(format: "Heard by models not adapted on them, %.0f%% of your %d takes came out right and %.0f%% wrong",
                          100 * figures.right, figures.takes, 100 * figures.wrong)
        if let accepted = figures.nonCommandsAccepted {
            line += String(format: "; %.0f%% of the %d that are no command would have run one", 100 * accepted, figures.nonCommands)
        }
        line += "."
        if let commands = figures.commands, let run = figures.commandsRun {
            // What the prompt would do with the takes that say a command, every check on.
            let stopped = (figures.stoppedBy ?? [:]).sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                .map { "\($0.value) \($0.key == HeldOutFigures.anotherCommand ? "ran another command" : "stopped by \($0.key)")" }
            line += "\nAt the prompt, \(run) of the \(commands) " + (commands == 1 ? "take that says" : "takes that say") + " a command would run it"
                + (stopped.isEmpty ? "." : "; " + stopped.joined(separator: ", ") + ".")
        }
        return line
    }

    /// A round of learning from use (`LearningRound`), in the foreground; the prompt starts
    /// the same in the background. One at a time: a second waits for nothing and says so.
    func learn(
        _ context: CommandContext, training: ModelTraining, takes: TrainingTakes, commands: VoiceGrammar, voice: AudioServices
    ) throws {
        let session = context.session
        guard case .adapted(let model, _) = AdaptedModel.use(store: session.paths.store, base: training.base) else {
            throw CommandError("the stock model is in use: learning from use goes on from a model adapted to you; run 'train' first")
        }
        guard let services = session.training else {
            throw CommandError("this vsh has no speech model adapter; train needs sphinxtrain (make deps installs it)")
        }
        guard let lock = LearningLock(directory: takes.directory) else {
            return context.output.line("The model is being adapted on your commands already (by another vsh); nothing more to do now.")
        }
        defer { lock.release() }
        let round = LearningRound(
            training: training, takes: takes, commands: commands,
            gate: Gate(settings: session.settings, calibration: model.calibration), hearing: services.hearing)
        guard let check = try round.run(
            model: model, read: { try Self.samples(of: $0.audioPath, voice: voice) }, progress: context.step) else {
            context.clearStatus()
            let unlearned = LearningRound.unlearned(takes, model: model).count
            return context.output.line("\(unlearned) of your commands \(unlearned == 1 ? "is" : "are") kept from use and not yet learnt; "
                + "learning needs \(LearningRound.fewestTakes).")
        }
        context.clearStatus()
        context.output.line(Self.describe(check))
    }

    /// The last round of learning from use in a sentence.
    static func describe(_ check: LearningRound.Report) -> String {
        String(format: "Checked on %d of your commands it was not adapted on: the model in use heard %.0f%% right, the one adapted on your newer commands %.0f%%; ",
               check.takes, 100 * check.before, 100 * check.after)
            + (check.replaced ? "the new one is in use ('undo' brings back the one before)." : "the model in use stays.")
    }

    /// The takes of this store, sealed while it encrypts audio.
    static func takes(_ session: Session) -> TrainingTakes {
        var takes = TrainingTakes(store: session.paths.store)
        takes.sealing = session.store.sealing
        return takes
    }

    func status(_ context: CommandContext, takes: TrainingTakes, commands: VoiceGrammar) {
        let session = context.session
        let base = session.settings.modelDirectory + "/en-us"
        if json { return statusJSON(context, takes: takes, commands: commands, base: base) }
        let use = AdaptedModel.use(store: session.paths.store, base: base)
        switch use {
        case .stock:
            context.output.line("Speech model: the stock model (\(base)); 'train' adapts it to your voice.")
        case .adapted(let model, let dir):
            context.output.line(String(format: "Speech model: adapted to your voice on %@ from %d takes (%.1f min of speech), %@; in %@.",
                                       String(model.created.prefix(10)), model.takes, model.seconds / 60,
                                       model.recipe.hasPrefix("mllr+map") ? "MLLR then MAP" : model.recipe, dir))
            if let threshold = model.gates.threshold, let n = model.gates.calibrationTakes {
                context.output.line(String(format: "Confidence for spoken commands: %.2f, calibrated on %d of your takes that are no command (voice.threshold: %.2f).",
                                           max(threshold, session.settings.voiceThreshold), n, session.settings.voiceThreshold))
            }
            switch (model.gates.speakerThreshold, model.gates.speakerTakes, session.settings.speakerCheck) {
            case (let floor?, let n?, true):
                context.output.line(String(format: "Speaker check: on; a spoken command needs a speaker score of %.2f, calibrated on %d of your takes.", floor, n))
            case (_, _, false):
                context.output.line("Speaker check: off (voice.speaker_check = false, the default); anyone's speech may run commands.")
            case (nil, _, true) where model.gates.speakerCheckOff != nil:
                context.output.line("Speaker check: left off for your voice: \(model.gates.speakerCheckOff!).")
            default:
                context.output.line("Speaker check: none for this model; 'train --again' calibrates one.")
            }
        case .setAside(let why):
            context.output.line("Speech model: the stock model (\(base)). The adaptation is not used: \(why).")
        }
        let kept = takes.all()
        let script = Self.script(commands)
        let recorded = Self.covered(script, by: kept)
        let fromUse = kept.filter(\.isFromUse)
        context.output.line("Takes kept: \(kept.count) (\(recorded) of the \(script.count) training phrases"
            + (fromUse.isEmpty ? "" : ", \(fromUse.count) from use") + ") in \(takes.directory).")
        if case .adapted(let model, _) = use {
            if let figures = model.gates.heldOut { context.output.line(Self.describe(figures)) }
            if let floor = model.gates.framesPerPhoneFloor {
                context.output.line(String(format: "You speak fast: a spoken command may last down to %.1f frames a phone (%.0f for the stock model).",
                                           floor, Confidence.model.framesPerPhone.lowerBound))
            }
            let learning = session.settings.learnFromUse
            context.output.line("Learning from use: " + (learning ? "on" : "off (voice.learn_from_use)")
                + "; adapted on \((model.learnedFromUse ?? []).count) of your commands, \(LearningRound.unlearned(fromUse, model: model).count) kept and not yet learnt.")
            if let check = LearningRound.lastReport(takes) {
                context.output.line("Last round (\(check.date.prefix(10))): " + Self.describe(check))
            }
        }
    }

    /// `train status --json`: what `status` says, as one object (FORMAT.md, "JSON output").
    func statusJSON(_ context: CommandContext, takes: TrainingTakes, commands: VoiceGrammar, base: String) {
        let session = context.session
        let use = AdaptedModel.use(store: session.paths.store, base: base)
        let kept = takes.all()
        let script = Self.script(commands)
        let recorded = Self.covered(script, by: kept)
        context.writeJSON { json in
            json.object { json in
                var adapted: AdaptedModel?
                switch use {
                case .stock:
                    json.field("model", "stock")
                case .adapted(let model, let dir):
                    json.field("model", "adapted")
                    json.field("directory", dir)
                    adapted = model
                case .setAside(let why):
                    json.field("model", "stock")
                    json.field("set_aside", why)
                }
                json.field("stock_model", base)
                if let model = adapted {
                    json.field("created", model.created)
                    json.field("takes", integer: model.takes)
                    json.field("seconds", model.seconds)
                    json.field("recipe", model.recipe)
                    json.field("threshold", model.gates.threshold.map { max($0, session.settings.voiceThreshold) })
                    json.field("calibration_takes", integer: model.gates.calibrationTakes)
                    json.field("speaker_check", session.settings.speakerCheck && model.gates.speakerThreshold != nil)
                    json.field("speaker_threshold", model.gates.speakerThreshold)
                    json.field("speaker_check_off", model.gates.speakerCheckOff)
                    if let figures = model.gates.heldOut {
                        json.key("held_out")
                        json.object { json in
                            json.field("takes", integer: figures.takes)
                            json.field("right", figures.right)
                            json.field("wrong", figures.wrong)
                            json.field("non_commands_accepted", figures.nonCommandsAccepted)
                            json.field("non_commands", integer: figures.nonCommands)
                            json.field("commands", integer: figures.commands)
                            json.field("commands_run", integer: figures.commandsRun)
                            if let stopped = figures.stoppedBy {
                                json.key("stopped_by")
                                json.object { json in
                                    for (check, count) in stopped.sorted(by: { $0.key < $1.key }) { json.field(check, integer: count) }
                                }
                            }
                        }
                    }
                    json.field("left_out", strings: model.gates.leftOut ?? [])
                    json.field("frames_per_phone_floor", model.gates.framesPerPhoneFloor)
                    json.field("learned_from_use", integer: (model.learnedFromUse ?? []).count)
                    json.field("unlearned", integer: LearningRound.unlearned(kept.filter(\.isFromUse), model: model).count)
                    if let check = LearningRound.lastReport(takes) {
                        json.key("last_learning")
                        json.object { json in
                            json.field("date", check.date)
                            json.field("takes", integer: check.takes)
                            json.field("before", check.before)
                            json.field("after", check.after)
                            json.field("replaced", check.replaced)
                        }
                    }
                }
                json.field("takes_kept", integer: kept.count)
                json.field("phrases_recorded", integer: recorded)
                json.field("phrases", integer: script.count)
                json.field("script", strings: script)
                json.field("takes_directory", takes.directory)
            }
        }
    }

    func reset(_ context: CommandContext) throws {
        guard try context.store.trash(directory: AdaptedModel.directoryName) else {
            return context.output.line("The stock speech model is already in use.")
        }
        context.confirm("The stock speech model is in use again; the adaptation is in the trash ('undo' brings it back). "
            + "Your takes are kept: 'train --again' adapts from them.")
    }

    /// A file's audio at 16 kHz, whole (any format and rate; sealed files decrypted).
    static func samples(of path: String, voice: AudioServices) throws -> [Int16] {
        let input = try voice.recordingInput(file: path, rate: AudioFormat.sampleRate)
        defer { try? input.finish() }
        return try input.readToEnd()
    }

    /// How many of the script's phrases the takes say: recorded by `train` or read by
    /// `train --from`, not learnt from use.
    static func covered(_ script: [String], by takes: [TrainingTakes.Take]) -> Int {
        Set(takes.filter { !$0.isFromUse }.map(\.words)).intersection(script).count
    }

    /// The phrases for `commands` (this session's).
    static func script(_ commands: VoiceGrammar) -> [String] {
        TrainingScript.phrases(vocabulary: commands.vocabulary)
    }

    /// Records the phrases not yet recorded; true when the script was finished, or more
    /// takes had stopped helping (`Enrolment`).
    func record(
        _ context: CommandContext, voice: AudioServices, takes: TrainingTakes, commands: VoiceGrammar, training: ModelTraining
    ) throws -> Bool {
        let session = context.session
        let script = Self.script(commands)
        // Done is by words, so a script that grew (new command files) asks for what is new;
        // phrases left when more takes had stopped helping are not asked again.
        let kept = takes.all()
        let done = Set(kept.filter { !$0.name.hasPrefix("from-") }.map(\.words)).union(Enrolment.notNeeded(takes))
        let asking = script.indices.filter { !done.contains(script[$0]) }
        if asking.isEmpty {
            context.output.line("All the phrases needed are recorded already; adapting from the \(kept.count) takes kept.")
        } else {
            _ = try takes.sealing()  // an encrypted store without its key: say so before anyone speaks
            let input = try voice.recordingInput(file: nil, rate: AudioFormat.sampleRate)
            defer { try? input.finish() }
            context.output.line(asking.count == script.count
                ? "Say each phrase as it appears, at your usual pace and distance from the microphone: \(script.count) phrases, about two minutes."
                : "Going on from phrase \(asking[0] + 1) of \(script.count) (\(script.count - asking.count) recorded earlier).")
            context.output.line("Type r and Enter to say the last phrase again, s and Enter to skip one, Enter alone to stop (what you said is kept).")
            let live = context.hasStatusLine
            var current = ""
            let recorder = TakeRecorder(factory: voice.factory, takes: takes)
            let enrolment = session.training.map { services in
                // The configured gate: nothing is calibrated yet, and the takes are the person's.
                let gate = Gate(settings: session.settings)
                return Enrolment { takes in
                    let audio = try takes.map { try Self.samples(of: $0.audioPath, voice: voice) }
                    let heard = try training.heldOut(Array(zip(takes, audio)), commands: commands, asCommands: [],
                                                     hearing: services.hearing) { _ in }
                    return HeldOutFigures.of(heard, gate: gate, interpret: { commands.interpret($0)?.line }).right
                }
            }
            let (ending, next) = try recorder.run(
                source: input, script: script, asking: asking, shouldStop: session.stopRequest,
                isEnough: { enrolment?.isEnough ?? false }
            ) { event in
                switch event {
                case .phrase(let index, let total, let words, let again):
                    current = String(format: "[%d/%d] ", index + 1, total) + (again ? "again: " : "say: ") + "\"\(words)\""
                    context.step(current)
                case .level(let level):
                    context.status(current + "  " + LevelMeter.bar(level, width: 12) + (context.typed.isEmpty ? "" : "  typed: " + context.typed))
                case .kept(_, let seconds):
                    enrolment?.kept(takes.all())
                    let line = String(format: "  ✓ %.1f s", seconds)
                    if live { context.status(current + line + "\n") } else { context.output.line(line) }
                case .unfit(let problem):
                    context.clearStatus()
                    context.output.line("  ✗ " + problem)
                case .skipped(let index):
                    context.clearStatus()
                    context.output.line("  skipped phrase \(index + 1)")
                }
            }
            context.clearStatus()
            // The check under way adapts beside the store's model, as the adaptation next does.
            enrolment?.wait()
            switch ending {
            case .finished:
                break
            case .enough:
                let rest = asking[next...].map { script[$0] }
                try Enrolment.skip(rest, takes: takes)
                context.output.line(String(format: "That is enough: models adapted on some of your takes heard %.0f%% of the others right, and more takes stopped helping; the %d phrases left are not needed.",
                                           100 * (enrolment?.shares.last ?? 0), rest.count))
            case .stopped, .inputEnded:
                let why = if case .stopped(let reason) = ending { "you stopped it (\(reason))" } else { "the input ended" }
                context.output.line("Training paused: \(why) at phrase \(asking[next] + 1) of \(script.count); "
                    + Self.pausedWith(kept: takes.all().count))
                return false
            }
        }
        return true
    }

    /// What `train` says it kept when paused, and what to do next: nothing to adapt on
    /// is not "the 0 takes are kept".
    static func pausedWith(kept: Int) -> String {
        switch kept {
        case 0: "no take is recorded yet. 'train' starts again from there."
        case 1: "the 1 take is kept. 'train' goes on from there; 'train --again' adapts on it."
        default: "the \(kept) takes are kept. 'train' goes on from there; 'train --again' adapts on what is recorded."
        }
    }

    /// Copies DIR's recordings (each `NAME.wav` or `NAME.flac` with `NAME.txt`) into the
    /// kept takes, as 16 kHz audio; returns them. Files unfit to adapt on are named and left out.
    static func importTakes(
        from dir: String, into takes: TrainingTakes, voice: AudioServices, context: CommandContext
    ) throws -> [TrainingTakes.Take] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError("--from \(dir): no such directory; name a directory of audio files, each with NAME.txt beside it")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let audio = names.filter { ["wav", "flac"].contains(($0 as NSString).pathExtension.lowercased()) }
        guard !audio.isEmpty else {
            throw CommandError("--from \(dir): no WAV or FLAC files there; name a directory of audio files, each with NAME.txt beside it")
        }
        let dictionary = context.session.settings.modelDirectory + "/cmudict-en-us.dict"
        var words: [String: String] = [:]
        var vocabulary = Set<String>()
        for file in audio {
            let stem = (file as NSString).deletingPathExtension
            let textPath = dir + "/" + stem + ".txt"
            guard let text = try? String(contentsOfFile: textPath, encoding: .utf8) else {
                throw CommandError("\(dir)/\(file) has no \(stem).txt beside it; write the words said in it, or move the file away")
            }
            let said = text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            guard !said.isEmpty else { throw CommandError("\(textPath) is empty; write the words said in \(file) in it") }
            words[file] = said
            vocabulary.formUnion(said.split(separator: " ").map(String.init))
        }
        let (_, missing) = try PronunciationDictionary(path: dictionary, only: vocabulary).subset(vocabulary)
        if let word = missing.sorted().first, let file = audio.first(where: { words[$0]!.split(separator: " ").contains(Substring(word)) }) {
            throw CommandError("\(dir)/\((file as NSString).deletingPathExtension).txt: the dictionary has no \"\(word)\""
                + (missing.count > 1 ? " (nor \(missing.count - 1) other word\(missing.count == 2 ? "" : "s"))" : "")
                + "; spell it as a known word or leave that file out")
        }
        var imported: [TrainingTakes.Take] = []
        for file in audio {
            // A quiet recording that is clean speech is levelled, as recognition levels it.
            let samples = TakeCheck.levelled(try samples(of: dir + "/" + file, voice: voice))
            let said = words[file]!
            if let problem = TakeCheck.problem(samples, words: said.split(separator: " ").count) {
                context.warn("\(dir)/\(file) is left out: \(problem)")
                continue
            }
            let name = "from-" + (file as NSString).deletingPathExtension
            imported.append(try takes.save(samples, words: said, name: name))
        }
        context.output.line("Read \(imported.count) of \(audio.count) recordings from \(dir).")
        return imported
    }
}
