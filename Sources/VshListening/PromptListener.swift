import Foundation
import VshCore
import VshVoice

/// The prompt's ear: a thread that runs the voice pipeline (input → front end → endpointer
/// → recogniser against the prompt's grammar) and posts each utterance, with the grammar
/// it was heard against, to the `VoicePrompt`, which decides on the prompt's thread.
/// After each utterance it waits until the prompt has taken it (`VoicePrompt.post`
/// pauses it), so a command it heard runs before more audio is read (with `--fast` a file
/// would otherwise race ahead of the commands it holds).
package final class PromptListener: Listener, @unchecked Sendable {
    let audio: ListenerAudio
    let prompt: VoicePrompt
    let factory: VoiceFactory
    /// The commands to listen for, asked when the thread starts and after each command
    /// (a command file reloaded may have changed them).
    let registry: () -> CommandRegistry
    /// Whether the person named the input (`--audio-in`): then a failure is shown at once.
    let explicit: Bool

    /// The grammar listened for (its JSGF), and a newer set to switch to when command
    /// files were reloaded: built on the prompt's thread, loaded on the listener's.
    private struct Grammars {
        var running = false
        var listenedFor = ""
        var pending: [PromptGrammar]?
    }
    private let grammars = Locked(Grammars())

    package init(audio: ListenerAudio, prompt: VoicePrompt, factory: VoiceFactory,
                registry: @escaping () -> CommandRegistry, explicit: Bool) {
        self.audio = audio
        self.prompt = prompt
        self.factory = factory
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
            state.listenedFor = (current.first?.jsgf ?? "") + factory.model()
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

    /// The prompt's grammars as the registry is now: with the wake phrase, and without
    /// it in case the dictionary cannot say it.
    private func currentGrammars() -> [PromptGrammar] {
        let commands = registry()
        let afterWake = prompt.attention == .wake
        return [factory.settings.wakePhrase, nil].compactMap { wake in
            try? PromptGrammar(registry: commands, wakePhrase: wake, commandsAfterWake: afterWake)
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
            if let jsgf = current.first.map({ $0.jsgf + factory.model() }), jsgf != state.listenedFor {
                state.listenedFor = jsgf
                state.pending = current
            }
        }
    }

    /// A grammar newer than the one loaded, once.
    private func takePending() -> [PromptGrammar]? {
        grammars.withLock { state in
            defer { state.pending = nil }
            return state.pending
        }
    }

    package func restart() { start() }

    /// Listens until the input ends or fails; returns the event that says so, if any.
    private func listen(_ grammars: [PromptGrammar]) -> ListenerEvent? {
        do {
            try audio.open()
        } catch {
            return .failed("\(error)", quiet: !explicit)
        }
        defer { audio.close() }
        let loaded: (PromptGrammar, CommandRecognizer, String)
        do {
            loaded = try recognizer(grammars)
        } catch {
            return .failed("the recogniser did not start: \(error)", quiet: false)
        }
        let (firstGrammar, first, wakePhrase) = loaded
        let current = CurrentGrammar(grammar: firstGrammar, recognizer: first)
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
        let pipeline = factory.commandPipeline(source: audio, recognizer: current, ending: { current.grammar.ending(of: $0) })
        prompt.post(.ready(audio.description, wakePhrase: wakePhrase))
        do {
            // 10 ms reads: the utterance is decoded as soon as its last frame is in.
            try pipeline.run(chunk: Endpointer.frameLength) { [self] event in
                switch event {
                case .speechStarted:
                    prompt.post(.speechStarted)
                case .utterance(var utterance):
                    utterance.endCaptured = audio.clock(at: utterance.segment.end)
                    prompt.post(.heard(utterance, current.grammar, factory.gate(for: current)))
                }
                return !audio.isStopped
            }
            if !audio.isStopped { return .ended("\(audio.name) ended") }
        } catch {
            return .failed("\(error)", quiet: false)
        }
        return nil
    }

    /// The recogniser's last warning said, so that each is said once, not at every reload.
    private var saidWarning: String?

    /// The recogniser for the first grammar that loads: the commands plus the prompt's
    /// answers and wake phrase, else the same without the wake phrase (with a warning:
    /// the dictionary cannot say it).
    private func recognizer(_ grammars: [PromptGrammar]) throws -> (PromptGrammar, CommandRecognizer, String) {
        let wake = factory.settings.wakePhrase
        var failure: Error = AudioError("no grammar to listen for")
        for (i, grammar) in grammars.enumerated() {
            do {
                let recognizer = try factory.recognizer(for: grammar) { [prompt] _ in prompt.awaitsWakePhrase() }
                if let warning = recognizer.warning, warning != saidWarning {
                    saidWarning = warning
                    prompt.post(.note(warning))
                }
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
}

/// The grammar and recogniser the listener uses, switched between utterances when the
/// commands change (a recogniser for a new grammar loads in about 15 ms).
final class CurrentGrammar: CommandRecognizer {
    private(set) var grammar: PromptGrammar
    private var recognizer: CommandRecognizer
    /// A newer grammar and its recogniser, when there is one.
    var update: () -> (PromptGrammar, CommandRecognizer)? = { nil }

    init(grammar: PromptGrammar, recognizer: CommandRecognizer) {
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

    var calibration: Gate.Calibration { recognizer.calibration }
    var warning: String? { recognizer.warning }
}
