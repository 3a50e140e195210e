import Foundation
import VshAudio
import VshCore
import VshLineEditor
import VshSpoken
import VshStore
import VshVoice
import VshCommandFiles
import VshListening
import VshTraining

/// Wires listening at the prompt: the audio input (`--audio-in DEVICE` or `FILE`, else
/// `voice.device`), the listener thread, the `VoicePrompt` that decides what speech does,
/// and the line reader that waits on both keyboard and voice.
enum ListeningSetup {
    struct Options {
        /// `--audio-in`: a device name or a file; nil for `voice.device`.
        var audioIn: String?
        /// `--fast`: a file plays as fast as it decodes, not in real time.
        var fast = false
        var verbose = false
    }

    /// Starts listening and returns the reader the shell should use. The listener starts
    /// in the background (the prompt does not wait for the model to load); a default
    /// device that does not open leaves vsh quietly typing-only (`listen` says why).
    static func attach(to editor: LibEditReader, session: Session, options: Options,
                       environment: [String: String], output: TextSink) -> LineReader {
        replaceUnsayableWakePhrase(&session.settings, warn: output.line)
        var promptOptions = VoicePrompt.Options(settings: session.settings)
        promptOptions.marks = PromptMarks.detect(environment: environment)
        promptOptions.style = Style.detect(isTerminal: true, environment: environment)
        promptOptions.verbose = options.verbose
        let voice = VoicePrompt.deciding(options: promptOptions, session: session)
        var clips = ClipStore(directory: session.paths.clipsDirectory, limit: session.settings.historyClips)
        clips.sealing = session.store.sealing
        voice.clips = clips
        learnFromUse(session)

        let input = AudioInput.resolve(options.audioIn ?? session.settings.audioDevice)
        let audio = ListenerAudio(input: input, paced: !options.fast, openers: .system)
        let listener = PromptListener(
            audio: audio, prompt: voice, factory: .system(settings: session.settings, paths: session.paths),
            registry: { session.registry }, explicit: options.audioIn != nil)
        voice.listener = listener
        voice.beforeHearing = {
            guard let loaded = session.reloadCommandFilesIfChanged() else { return nil }
            listener.refreshGrammar()
            let problems = loaded.problems.isEmpty ? "" : "; \(loaded.problems.count) problem(s): type 'reload' to see them"
            return session.commandFilesChanged(loaded) + problems
        }
        editor.sideInput = voice
        session.listening = voice
        // Ctrl-D while vsh waits for an answer answers no: the question is the newest
        // thing at the prompt, so it goes before the command files' hook.
        session.hooks.endOfInput.insert({ _ in
            guard case .handled(let notes) = voice.answer(typed: "no") else { return false }
            for note in notes { output.line(note) }
            return true
        }, at: 0)
        if let base = session.voice { session.voice = ListenerAudioServices(base: base, audio: audio) }
        listener.start()
        return ListeningLineReader(inner: editor, voice: voice, output: output)
    }
}

extension ListeningSetup {
    /// Keeps the clearly heard commands that ran and were not undone as takes, and starts a
    /// round of learning in the background when enough are new (`UseLearning`).
    static func learnFromUse(_ session: Session) {
        var takes = TrainingTakes(store: session.paths.store)
        takes.sealing = session.store.sealing
        let learning = UseLearning(
            takes: takes,
            isActive: {
                guard session.settings.learnFromUse, case .adapted = session.speechModel.adaptation else { return false }
                return true
            },
            unlearned: {
                guard case .adapted(let model, _) = session.speechModel.adaptation else { return 0 }
                return LearningRound.unlearned(takes, model: model).count
            },
            startRound: { startLearning(session.paths) })
        session.hooks.afterLine.append { line, spoken, succeeded in
            learning.ran(line: line, spoken: spoken, succeeded: succeeded)
        }
        session.hooks.finished.append { learning.finish() }
    }

    /// `vsh train learn` in its own session (Ctrl-C at the prompt does not reach it) at
    /// the lowest priority, outliving this vsh; its output goes to `learning.log` in the
    /// state directory. `LearningLock` keeps it to one at a time.
    static func startLearning(_ paths: Paths) {
        guard let executable = Paths.runningExecutable else { return }
        let log = paths.state + "/learning.log"
        guard FileManager.default.createFile(atPath: log, contents: nil),
              let output = FileHandle(forWritingAtPath: log) else { return }
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-f", "nice", "-n", "19", executable, "train", "learn"]
        var environment = ProcessInfo.processInfo.environment
        environment["VSH_STORE"] = paths.store
        environment["VSH_CONFIG"] = paths.config
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try? process.run()
    }
}

/// Keeps the configured wake phrase when it will do, else puts the default in its place
/// after `warn` says why (`PromptGrammar.wakePhraseProblem`, read against the model's
/// dictionary). The settings reader has refused a phrase that does not parse; a dictionary
/// that cannot be read leaves the phrase as it is (the recogniser then says so). The prompt
/// and `vsh listen` both start here.
func replaceUnsayableWakePhrase(_ settings: inout Settings, warn: (String) -> Void) {
    guard let pattern = try? SpokenPattern.parse(settings.wakePhrase),
          let dictionary = try? PronunciationDictionary(path: settings.dictionaryPath, only: pattern.vocabulary),
          let problem = PromptGrammar.wakePhraseProblem(settings.wakePhrase, dictionary: dictionary) else { return }
    let fallback = Settings().wakePhrase
    warn("warning: \(problem); using \"\(fallback)\"")
    settings.wakePhrase = fallback
}

extension VoicePrompt {
    /// The prompt's decisions over the commands of `session`'s registry, with `options`:
    /// the one setup the prompt and `vsh listen` share. The thresholds come with each
    /// utterance, in the gate of the model that heard it (`VoiceFactory.gate`).
    static func deciding(options: VoicePrompt.Options, session: Session) -> VoicePrompt {
        let voice = VoicePrompt(options: options)
        let registry = { session.registry }
        voice.isDestructive = VoicePrompt.destructive(in: registry)
        voice.endsSession = VoicePrompt.endsSession(in: registry)
        voice.unavailable = VoicePrompt.unavailable(in: session)
        return voice
    }
}
