import Foundation
import VshAudioFiles
import VshCore
import VshSpoken
import VshStore
import VshTraining

/// Adapts the en-us acoustic model to a person's takes with Debian's sphinxtrain tools:
/// MLLR (one transform of every Gaussian mean, learnt from all the takes: mostly the
/// channel and the voice's overall shape), then MAP (each Gaussian moved towards what
/// the takes say of it, as far as they say enough). Measured on spoken digits from
/// four speakers with accents (research/adaptation): this order beat either alone.
///
/// The takes are level-normalised exactly as the recogniser hears them, turned into the
/// model's own features by `sphinx_fe`, and aligned to their words by `bw`.
package final class SphinxAdaptation: ModelAdapter {
    /// Where Debian's sphinxtrain puts its tools.
    static let sphinxtrain = "/usr/lib/sphinxtrain"
    /// The tools, and the Debian package that holds each.
    static let tools: [(path: String, package: String)] = [
        ("\(sphinxtrain)/bw", "sphinxtrain"), ("\(sphinxtrain)/mllr_solve", "sphinxtrain"),
        ("\(sphinxtrain)/mllr_transform", "sphinxtrain"), ("\(sphinxtrain)/map_adapt", "sphinxtrain"),
        ("\(sphinxtrain)/mk_s2sendump", "sphinxtrain"), ("/usr/bin/sphinx_fe", "sphinxbase-utils"),
        ("/usr/bin/pocketsphinx_mdef_convert", "pocketsphinx"),
    ]
    /// The feature settings of the en-us model (`feat.params`), which the training tools
    /// take on their command line.
    static let features = ["-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38", "-cmn", "batch", "-agc", "none",
                           "-varnorm", "no", "-ceplen", "13"]
    /// The front end's settings in `feat.params` that `sphinx_fe` takes.
    static let frontEndSettings: Set<String> = ["-lowerf", "-upperf", "-nfilt", "-transform", "-lifter", "-samprate"]

    /// What MAP moves, and how far. Chosen on fsdd by speaker (research/adaptation): a
    /// small fixed τ (0.01–0.1 scored alike, picked leaving each speaker out) lets two
    /// minutes of takes move the Gaussians most of the way; the mixture weights gain 1.5
    /// points more; adapted variances lost 1.5. Through vsh's own pipeline (george and
    /// jackson, held-out takes): 93.3% with sphinxtrain's defaults, 99.5% with this.
    struct Recipe {
        /// MAP's prior weight τ (fixed), or nil: sphinxtrain's Bayesian estimate per Gaussian.
        var tau: Double? = 0.03
        var variances = false
        var mixtureWeights = true
        var name: String {
            "mllr+map" + (tau.map { "(tau \($0))" } ?? "") + (variances ? "" : " means") + (mixtureWeights ? "+mixw" : "")
        }
    }
    var recipe = Recipe()

    let model: SpeechModel
    let workDirectory: String

    /// Throws, naming the Debian package, when a tool is missing.
    package init(model: SpeechModel, workDirectory: String) throws {
        for tool in Self.tools where !FileManager.default.isExecutableFile(atPath: tool.path) {
            throw CommandError("training needs \(tool.path), from the Debian package \(tool.package); install it (sudo apt install \(tool.package)) or run 'make deps'")
        }
        self.model = model
        self.workDirectory = workDirectory
    }

    package func adapt(
        _ takes: [TrainingTakes.Take], base: String, into output: String, progress: (String) -> Void
    ) throws -> AdaptedModel {
        let work = workDirectory + "/adapt-\(getpid())"
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work + "/features", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let steps = 5
        var cpu = 0.0

        progress("Preparing the stock model (1/\(steps))…")
        let mdef = work + "/mdef.txt", mixw = work + "/mixture_weights"
        cpu += try run("/usr/bin/pocketsphinx_mdef_convert", ["-text", base + "/mdef", mdef], log: work + "/mdef.log")
        if FileManager.default.fileExists(atPath: base + "/mixture_weights") {
            try FileManager.default.copyItem(atPath: base + "/mixture_weights", toPath: mixw)
        } else {
            guard let sendump = FileManager.default.contents(atPath: base + "/sendump") else {
                throw AudioError("the stock model \(base) has neither mixture_weights nor sendump")
            }
            let (shape, weights) = try MixtureWeights.fromSendump(sendump)
            try MixtureWeights.s3File(shape, weights).write(to: URL(fileURLWithPath: mixw))
        }

        progress("Reading \(takes.count) takes (2/\(steps))…")
        let seconds = try writeTakes(takes, into: work)
        cpu += try run("/usr/bin/sphinx_fe", frontEnd(base) + [
            "-c", work + "/takes.ctl", "-di", work + "/features", "-do", work + "/features",
            "-ei", "wav", "-eo", "mfc", "-mswav", "yes",
        ], log: work + "/sphinx_fe.log")
        // bw waits minutes for a missing feature file before it gives up: look first.
        for i in takes.indices where !FileManager.default.fileExists(atPath: work + String(format: "/features/t%04d.mfc", i)) {
            throw AudioError("sphinx_fe made no features of the take \(takes[i].audioPath); see \(work)/sphinx_fe.log")
        }

        progress("Learning your voice and microphone (MLLR, 3/\(steps))…")
        func bw(means: String, accumulate: String) throws -> Double {
            try FileManager.default.createDirectory(atPath: accumulate, withIntermediateDirectories: true)
            let seconds = try run(Self.sphinxtrain + "/bw", [
                "-hmmdir", base, "-moddeffn", mdef, "-ts2cbfn", ".ptm.", "-meanfn", means,
                "-varfn", base + "/variances", "-mixwfn", mixw, "-tmatfn", base + "/transition_matrices",
                "-dictfn", work + "/takes.dict", "-fdictfn", base + "/noisedict", "-ctlfn", work + "/takes.ctl",
                "-lsnfn", work + "/takes.transcription", "-cepdir", work + "/features", "-cepext", "mfc",
                "-accumdir", accumulate,
            ] + Self.features, log: accumulate + ".log")
            try Self.checkAligned(log: accumulate + ".log", takes: takes.count)
            return seconds
        }
        cpu += try bw(means: base + "/means", accumulate: work + "/mllr-counts")
        cpu += try run(Self.sphinxtrain + "/mllr_solve", [
            "-meanfn", base + "/means", "-varfn", base + "/variances", "-outmllrfn", work + "/mllr_matrix",
            "-accumdir", work + "/mllr-counts",
        ], log: work + "/mllr_solve.log")
        cpu += try run(Self.sphinxtrain + "/mllr_transform", [
            "-inmeanfn", base + "/means", "-outmeanfn", work + "/mllr_means", "-mllrmat", work + "/mllr_matrix",
        ], log: work + "/mllr_transform.log")

        progress("Learning your sounds (MAP, 4/\(steps))…")
        cpu += try bw(means: work + "/mllr_means", accumulate: work + "/map-counts")
        cpu += try run(Self.sphinxtrain + "/map_adapt", [
            "-moddeffn", mdef, "-ts2cbfn", ".ptm.", "-meanfn", work + "/mllr_means", "-varfn", base + "/variances",
            "-mixwfn", mixw, "-tmatfn", base + "/transition_matrices", "-accumdir", work + "/map-counts",
        ] + (recipe.tau.map { ["-bayesmean", "no", "-fixedtau", "yes", "-tau", String($0)] } ?? ["-bayesmean", "yes"]) + [
            "-mapmeanfn", output + "/means", "-mapvarfn", work + "/map_variances",
            "-mapmixwfn", work + "/map_mixture_weights", "-maptmatfn", work + "/map_transition_matrices",
        ], log: work + "/map_adapt.log")

        progress("Writing the adapted model (5/\(steps))…")
        var copied = ["mdef", "feat.params", "noisedict", "transition_matrices"]
        if recipe.mixtureWeights {
            cpu += try run(Self.sphinxtrain + "/mk_s2sendump", [
                "-pocketsphinx", "yes", "-moddeffn", mdef, "-mixwfn", work + "/map_mixture_weights",
                "-mwfloor", "1e-20", "-sendumpfn", output + "/sendump",
            ], log: work + "/mk_s2sendump.log")
        } else {
            copied.append(FileManager.default.fileExists(atPath: base + "/sendump") ? "sendump" : "mixture_weights")
        }
        if recipe.variances {
            try FileManager.default.copyItem(atPath: work + "/map_variances", toPath: output + "/variances")
        } else {
            copied.append("variances")
        }
        for name in copied {
            try FileManager.default.copyItem(atPath: base + "/" + name, toPath: output + "/" + name)
        }
        var adapted = AdaptedModel(base: base, takes: takes.count, seconds: seconds, recipe: recipe.name)
        adapted.cpuSeconds = (cpu * 10).rounded() / 10
        return adapted
    }

    /// `sphinx_fe`'s settings from the model's `feat.params` (the decoder reads the same
    /// file), so the features it trains on are the ones it hears.
    func frontEnd(_ base: String) -> [String] {
        let text = (try? String(contentsOfFile: base + "/feat.params", encoding: .utf8)) ?? ""
        var arguments: [String] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2, Self.frontEndSettings.contains(parts[0]) { arguments += parts }
        }
        return arguments + (arguments.contains("-samprate") ? [] : ["-samprate", String(AudioFormat.sampleRate)])
    }

    /// Writes each take as the recogniser hears it (16 kHz, level-normalised), its line in
    /// the control file and transcript, and the pronunciations of its words. Returns the
    /// seconds of audio.
    func writeTakes(_ takes: [TrainingTakes.Take], into work: String) throws -> Double {
        var vocabulary = Set<String>()
        for take in takes { vocabulary.formUnion(take.words.split(separator: " ").map(String.init)) }
        let (dictionary, missing) = try PronunciationDictionary(path: model.dictionary, only: vocabulary).subset(vocabulary)
        if let word = missing.sorted().first, let take = takes.first(where: { $0.words.split(separator: " ").contains(Substring(word)) }) {
            throw CommandError("the take \(take.audioPath) says \"\(word)\", which the dictionary does not know")
        }
        try dictionary.write(toFile: work + "/takes.dict", atomically: true, encoding: .utf8)
        var control = "", transcript = "", samples = 0
        for (i, take) in takes.enumerated() {
            let name = String(format: "t%04d", i)
            let audio = try FileAudioSource.readAll(path: take.audioPath)
            samples += audio.count
            try WavWriter.bytes(SphinxCommandRecognizer.normalised(audio), rate: AudioFormat.sampleRate)
                .write(to: URL(fileURLWithPath: work + "/features/" + name + ".wav"))
            control += name + "\n"
            transcript += "<s> \(take.words) </s> (\(name))\n"
        }
        try control.write(toFile: work + "/takes.ctl", atomically: true, encoding: .utf8)
        try transcript.write(toFile: work + "/takes.transcription", atomically: true, encoding: .utf8)
        return Double(samples) / Double(AudioFormat.sampleRate)
    }

    /// `bw` skips a take it cannot align to its words; when it aligned none there is
    /// nothing to adapt on.
    static func checkAligned(log: String, takes: Int) throws {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let failed = text.components(separatedBy: "\n").filter { $0.contains("ERROR") && $0.contains("align") }.count
        if takes > 0 && failed >= takes {
            throw AudioError("none of the \(takes) takes could be aligned to its words (see \(log)); record them again")
        }
    }

    /// Runs a tool, its output to `log`; throws with the log's last lines when it fails.
    /// Returns the CPU seconds it took.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], log: String) throws -> Double {
        guard FileManager.default.createFile(atPath: log, contents: nil), let handle = FileHandle(forWritingAtPath: log) else {
            throw FileError.current("cannot write \(log)", path: log)
        }
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        var before = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &before)
        try process.run()
        process.waitUntilExit()
        var after = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &after)
        func seconds(_ u: rusage) -> Double {
            Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
        }
        guard process.terminationStatus == 0 else {
            let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(3)
            throw AudioError("\((tool as NSString).lastPathComponent) failed (status \(process.terminationStatus)): "
                + lines.joined(separator: " / "))
        }
        return seconds(after) - seconds(before)
    }
}
