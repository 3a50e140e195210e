import Foundation
import VshAudio
import VshCore

/// The prompt's ear: a thread that runs the voice path (input → front end → endpointer
/// → PocketSphinx against the commands' grammar) and posts what it hears to the
/// `VoicePrompt`, which decides on the prompt's thread. After each utterance it waits
/// until the prompt has taken it, so a command it heard runs before more audio is read
/// (with `--fast` a file would otherwise race ahead of the commands it holds).
final class PromptListener: ListenerHandle, @unchecked Sendable {
    let audio: ListenerAudio
    let prompt: VoicePrompt
    let settings: Settings
    let paths: Paths
    /// The commands to listen for, when the thread starts.
    let registry: () -> CommandRegistry
    /// Whether the person named the input (`--audio-in`): then a failure is shown at once.
    let explicit: Bool

    private let lock = NSLock()
    private var running = false

    init(audio: ListenerAudio, prompt: VoicePrompt, settings: Settings, paths: Paths,
         registry: @escaping () -> CommandRegistry, explicit: Bool) {
        self.audio = audio
        self.prompt = prompt
        self.settings = settings
        self.paths = paths
        self.registry = registry
        self.explicit = explicit
    }

    func start() {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return }
        running = true
        // The grammar is built here, on the prompt's thread, from the registry as it is
        // now: with the wake phrase, and without it in case the dictionary cannot say it.
        let commands = registry()
        let grammars = [settings.wakePhrase, nil].compactMap { wake in
            (try? VoicePrompt.grammarRegistry(commands, wakePhrase: wake)).map(VoiceGrammar.init(registry:))
        }
        let thread = Thread { [self] in
            listen(grammars)
            lock.lock()
            running = false
            lock.unlock()
        }
        thread.name = "vsh listener"
        thread.stackSize = 8 << 20
        thread.start()
    }

    func pause() { audio.pause() }
    func resume() { audio.resume() }
    func restart() { start() }

    private func listen(_ grammars: [VoiceGrammar]) {
        do {
            try audio.open()
        } catch {
            prompt.post(.failed("\(error)", quiet: !explicit))
            return
        }
        defer { audio.close() }
        let loaded: (VoiceGrammar, SphinxCommandRecognizer, String)
        do {
            loaded = try recognizer(grammars)
        } catch {
            prompt.post(.failed("the recogniser did not start: \(error)", quiet: false))
            return
        }
        let (grammar, sphinx, wakePhrase) = loaded
        let recognizer = ClipKeeper(sphinx)
        let use: VoicePipeline.FrontEndUse = settings.denoise == .auto && !settings.gainControl
            ? .belowSNR(Settings.denoiseBelowSNR) : .always
        // Threshold 0: every utterance comes back interpreted; the prompt applies the
        // thresholds (run, ask, ignore).
        let pipeline = VoicePipeline(
            source: audio, frontEnd: VoiceSetup.frontEnd(settings), frontEndUse: use,
            endpointer: VoiceSetup.endpointer(settings), recognizer: recognizer, threshold: 0,
            interpret: grammar.interpret)
        prompt.post(.ready(audio.description, wakePhrase: wakePhrase))
        do {
            // 10 ms reads: the utterance is decoded as soon as its last frame is in.
            try pipeline.run(chunk: Endpointer.frameLength) { [self] event in
                switch event {
                case .speechStarted:
                    prompt.post(.speechStarted)
                case .utterance(let utterance):
                    // Wait for the prompt: it resumes the listener once it has taken this.
                    audio.pause()
                    prompt.post(.heard(heard(utterance, grammar: grammar, samples: recognizer.last)))
                }
                return !audio.isStopped
            }
            if !audio.isStopped { prompt.post(.ended("\(audio.name) ended")) }
        } catch {
            prompt.post(.failed("\(error)", quiet: false))
        }
    }

    /// The recogniser for the first grammar that loads: the commands plus the prompt's
    /// answers and wake phrase, else the same without the wake phrase (with a warning:
    /// the dictionary cannot say it).
    private func recognizer(_ grammars: [VoiceGrammar]) throws -> (VoiceGrammar, SphinxCommandRecognizer, String) {
        PocketSphinxLog.send(to: paths.state + "/pocketsphinx.log")
        var failure: Error = AudioError("no grammar to listen for")
        for (i, grammar) in grammars.enumerated() {
            do {
                let recognizer = try SphinxCommandRecognizer(
                    settings: .init(modelDirectory: settings.modelDirectory),
                    jsgf: grammar.jsgf, vocabulary: grammar.vocabulary, workDirectory: paths.state)
                if i > 0 {
                    prompt.post(.note("the wake phrase \"\(settings.wakePhrase)\" cannot be listened for (\(failure)); \"listen on\" wakes vsh instead"))
                }
                return (grammar, recognizer, i == 0 ? settings.wakePhrase : "listen on")
            } catch {
                if i == 0 { failure = error }
            }
        }
        throw failure
    }

    /// What the prompt needs of an utterance: the commands it could be, best first.
    private func heard(_ u: Utterance, grammar: VoiceGrammar, samples: [Int16]) -> Heard {
        var candidates: [VoiceCandidate] = []
        for words in [u.recognition.words.map(\.word)] + u.recognition.alternatives {
            guard let (command, line) = grammar.interpret(words), !candidates.contains(where: { $0.line == line })
            else { continue }
            candidates.append(VoiceCandidate(command: command, line: line))
        }
        return Heard(
            text: u.recognition.text, confidence: u.recognition.confidence, candidates: candidates,
            samples: samples, end: u.end, endClock: audio.clock(at: u.end))
    }
}

/// Keeps the audio of the last utterance recognised, for the clip history saves.
final class ClipKeeper: CommandRecognizer {
    let inner: CommandRecognizer
    private(set) var last: [Int16] = []

    init(_ inner: CommandRecognizer) { self.inner = inner }

    func recognize(_ samples: [Int16], start: Double) -> Recognition {
        last = samples
        return inner.recognize(samples, start: start)
    }
}
