import Foundation
import VshCore
import VshVoice

/// The prompt's ear: a thread that runs the voice path (input → front end → endpointer
/// → recogniser against the commands' grammar) and posts what it hears to the
/// `VoicePrompt`, which decides on the prompt's thread. After each utterance it waits
/// until the prompt has taken it, so a command it heard runs before more audio is read
/// (with `--fast` a file would otherwise race ahead of the commands it holds).
package final class PromptListener: ListenerHandle, @unchecked Sendable {
    let audio: ListenerAudio
    let prompt: VoicePrompt
    let path: VoicePath
    /// The commands to listen for, when the thread starts.
    let registry: () -> CommandRegistry
    /// Whether the person named the input (`--audio-in`): then a failure is shown at once.
    let explicit: Bool

    /// The grammar listened for (its JSGF), and a newer set to switch to when command
    /// files were reloaded: built on the prompt's thread, loaded on the listener's.
    private struct Grammars {
        var running = false
        var listenedFor = ""
        var pending: [VoiceGrammar]?
    }
    private let grammars = Locked(Grammars())

    package init(audio: ListenerAudio, prompt: VoicePrompt, path: VoicePath,
                registry: @escaping () -> CommandRegistry, explicit: Bool) {
        self.audio = audio
        self.prompt = prompt
        self.path = path
        self.registry = registry
        self.explicit = explicit
    }

    /// The listener thread, once started; tests wait for it to end.
    package private(set) var thread: Thread?

    package func start() {
        // The grammar is built here, on the prompt's thread, from the registry as it is
        // now: with the wake phrase, and without it in case the dictionary cannot say it.
        let current = currentGrammars()
        let starting = grammars.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            state.listenedFor = (current.first?.jsgf ?? "") + path.model()
            state.pending = nil
            return true
        }
        guard starting else { return }
        let thread = Thread { [self] in
            let last = listen(current)
            // Not running any more before the prompt hears why: a 'listen on' that
            // follows at once starts the listener again.
            grammars.withLock { $0.running = false }
            if let last { prompt.post(last) }
        }
        thread.name = "vsh listener"
        thread.stackSize = 8 << 20
        self.thread = thread
        thread.start()
    }

    /// Whether the listener thread is running.
    package var isRunning: Bool { grammars.withLock { $0.running } }

    /// The commands' grammars as the registry is now: with the wake phrase, and without
    /// it in case the dictionary cannot say it.
    private func currentGrammars() -> [VoiceGrammar] {
        let commands = registry()
        return [path.settings.wakePhrase, nil].compactMap { wake in
            (try? VoicePrompt.grammarRegistry(commands, wakePhrase: wake)).map(VoiceGrammar.init(registry:))
        }
    }

    package func stop() { audio.stop() }

    package func pause() { audio.pause() }

    /// After each command (which may have been `reload`, or a line that reloaded changed
    /// command files first): a changed grammar goes to the listener thread.
    package func resume() {
        refreshGrammar()
        audio.resume()
    }

    /// Hands the listener thread the registry's grammar when it changed; the thread loads
    /// it before its next decode.
    package func refreshGrammar() {
        let current = currentGrammars()
        grammars.withLock { state in
            if let jsgf = current.first.map({ $0.jsgf + path.model() }), jsgf != state.listenedFor {
                state.listenedFor = jsgf
                state.pending = current
            }
        }
    }

    /// A grammar newer than the one loaded, once.
    private func takePending() -> [VoiceGrammar]? {
        grammars.withLock { state in
            defer { state.pending = nil }
            return state.pending
        }
    }

    package func restart() { start() }

    /// Listens until the input ends or fails; returns the event that says so, if any.
    private func listen(_ grammars: [VoiceGrammar]) -> ListenerEvent? {
        do {
            try audio.open()
        } catch {
            return .failed("\(error)", quiet: !explicit)
        }
        defer { audio.close() }
        let loaded: (VoiceGrammar, CommandRecognizer, String)
        do {
            loaded = try recognizer(grammars)
        } catch {
            return .failed("the recogniser did not start: \(error)", quiet: false)
        }
        let (firstGrammar, first, wakePhrase) = loaded
        let current = CurrentGrammar(grammar: firstGrammar, recognizer: first)
        let recognizer = ClipKeeper(current)
        current.update = { [self] in
            guard let grammars = takePending() else { return nil }
            do {
                let (grammar, recognizer, _) = try self.recognizer(grammars)
                return (grammar, recognizer)
            } catch {
                prompt.post(.note("the reloaded commands cannot be listened for (\(error)); still listening for the earlier ones"))
                return nil
            }
        }
        // Threshold 0: every utterance comes back interpreted; the prompt applies the
        // thresholds (run, ask, ignore).
        let pipeline = path.commandPipeline(
            source: audio, recognizer: recognizer, threshold: 0, isFinal: { current.grammar.isFinal($0) },
            interpret: { current.grammar.interpret($0) })
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
                    prompt.post(.heard(heard(utterance, grammar: current.grammar, samples: recognizer.last)))
                }
                return !audio.isStopped
            }
            if !audio.isStopped { return .ended("\(audio.name) ended") }
        } catch {
            return .failed("\(error)", quiet: false)
        }
        return nil
    }

    /// The recogniser for the first grammar that loads: the commands plus the prompt's
    /// answers and wake phrase, else the same without the wake phrase (with a warning:
    /// the dictionary cannot say it).
    private func recognizer(_ grammars: [VoiceGrammar]) throws -> (VoiceGrammar, CommandRecognizer, String) {
        let wake = path.settings.wakePhrase
        var failure: Error = AudioError("no grammar to listen for")
        for (i, grammar) in grammars.enumerated() {
            do {
                let recognizer = try path.recognizer(for: grammar)
                if i > 0 {
                    prompt.post(.note("the wake phrase \"\(wake)\" cannot be listened for (\(failure)); \"listen on\" wakes vsh instead"))
                }
                return (grammar, recognizer, i == 0 ? wake : "listen on")
            } catch {
                if i == 0 { failure = error }
            }
        }
        throw failure
    }

    /// What the prompt needs of an utterance: the commands it could be, best first.
    /// The rest of an utterance that ended early (`Utterance.continuesEarly`) could be
    /// nothing: with the full hangover it would have been part of that command.
    private func heard(_ u: Utterance, grammar: VoiceGrammar, samples: [Int16]) -> Heard {
        var candidates: [VoiceCandidate] = []
        for words in u.continuesEarly ? [] : [u.recognition.words.map(\.word)] + u.recognition.alternatives {
            guard let (command, line) = grammar.interpret(words), !candidates.contains(where: { $0.line == line })
            else { continue }
            candidates.append(VoiceCandidate(command: command, line: line))
        }
        return Heard(
            text: u.recognition.text, confidence: u.continuesEarly ? 0 : u.recognition.confidence, candidates: candidates,
            samples: samples, end: u.end, endClock: audio.clock(at: u.end))
    }
}

/// The grammar and recogniser the listener uses, switched between utterances when the
/// commands change (a recogniser for a new grammar loads in about 15 ms).
final class CurrentGrammar: CommandRecognizer {
    private(set) var grammar: VoiceGrammar
    private var recognizer: CommandRecognizer
    /// A newer grammar and its recogniser, when there is one.
    var update: () -> (VoiceGrammar, CommandRecognizer)? = { nil }

    init(grammar: VoiceGrammar, recognizer: CommandRecognizer) {
        self.grammar = grammar
        self.recognizer = recognizer
    }

    func recognize(_ samples: [Int16], start: Double) -> Recognition {
        if let (grammar, recognizer) = update() {
            self.grammar = grammar
            self.recognizer = recognizer
        }
        return recognizer.recognize(samples, start: start)
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
