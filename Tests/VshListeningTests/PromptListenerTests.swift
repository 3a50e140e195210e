import Foundation
import Testing
import VshCore
import VshSpoken
import VshTestSupport
@testable import VshVoice
import VshCommands
@testable import VshListening

/// The prompt's listener thread over fake audio and a fake recogniser: what it posts,
/// and that it waits for the prompt after each utterance.
@Suite struct PromptListenerTests {
    struct NoDevice: Error {}

    /// The test's audio, counting the samples the listener has read of it.
    final class CountingSource: AudioSource, @unchecked Sendable {
        let inner: FakeAudioSource
        let read = Locked(0)
        var name: String { inner.name }
        init(_ samples: [Int16]) { inner = FakeAudioSource(samples) }
        func read(into buffer: inout [Int16]) throws -> Int {
            let n = try inner.read(into: &buffer)
            read.withLock { $0 += n }
            return n
        }
    }

    /// A listener over `audio` (as a file input) with `recognizer`, deciding with a prompt
    /// of default options, and the commands of the built-ins; and the audio it reads.
    static func listener(audio: [Int16], recognizer: FakeRecognizer, earlyEnd: Int = 0) -> (PromptListener, VoicePrompt, CountingSource) {
        var settings = Settings()
        settings.earlyEnd = earlyEnd
        settings.denoise = .off
        settings.gainControl = false
        let factory = VoiceFactory(
            settings: settings, frontEnd: { _, _ in PassThroughPreprocessor() }, recognizer: { _ in recognizer })
        let source = CountingSource(audio)
        let openers = AudioOpeners(device: { _ in throw NoDevice() }, file: { _ in source })
        let input = ListenerAudio(input: .file("test.wav"), paced: false, openers: openers)
        let prompt = VoicePrompt(options: VoicePrompt.Options())
        let registry = Builtins.registry()
        let listener = PromptListener(audio: input, prompt: prompt, factory: factory, registry: { registry }, explicit: true)
        prompt.listener = listener
        return (listener, prompt, source)
    }

    /// Waits (on the prompt's side, as libedit's poll does) for the listener's next
    /// actions; empty after `timeout` seconds.
    static func nextActions(_ prompt: VoicePrompt, timeout: Double = 20) -> [PromptAction] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var fd = pollfd(fd: prompt.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, 100)
            let actions = prompt.takeActions()
            if !actions.isEmpty { return actions }
        }
        return []
    }

    static func notes(_ actions: [PromptAction]) -> [String] {
        actions.flatMap { action -> [String] in
            if case .notice(let lines, _) = action { return lines }
            return []
        }
    }

    /// Takes the listener's actions until its file ends: the lines it gave to run, each
    /// followed by the prompt coming back (`resume`), as after a command has run.
    static func linesUntilTheFileEnds(_ listener: PromptListener, _ prompt: VoicePrompt) throws -> [String] {
        var ran: [String] = []
        var ended = false
        while !ended {
            let actions = nextActions(prompt)
            try #require(!actions.isEmpty, "the file never ended")
            for case .submit(let line, _) in actions {
                ran.append(line.line)
                listener.resume()
            }
            ended = notes(actions).contains { $0.contains("test.wav ended") }
        }
        return ran
    }

    @Test func runsWhatItHearsAndWaitsForThePromptBetweenUtterances() throws {
        let audio = TestSignal.bursts([1, 0.6, 1.2, 0.6, 1.2])
        // With the early end on (voice.early_end_ms): "quality high" is a
        // whole command that cannot grow, and sure: it ends after the short pause, decoded
        // once (EarlyEnd). "list" is decoded after the short pause
        // too, is not sure (and may grow), and is decided on the whole utterance.
        let recognizer = FakeRecognizer([(["quality", "high"], 0.9), (["list"], 0.1), (["list"], 0.1)])
        let (listener, prompt, source) = Self.listener(audio: audio, recognizer: recognizer, earlyEnd: 120)
        listener.start()
        // At the prompt the reader lets the listener take audio (ListeningLineReader).
        listener.resume()
        // The input is ready, then the first utterance comes back as a command to run.
        var submitted: SpokenLine?
        var seen: [String] = []
        while submitted == nil {
            let actions = Self.nextActions(prompt)
            try #require(!actions.isEmpty, "nothing came from the listener; notes so far: \(seen)")
            seen += Self.notes(actions)
            for case .submit(let line, _) in actions { submitted = line }
        }
        #expect(submitted?.line == "quality high")
        #expect(submitted?.confidence == 0.9)
        // While the command runs the listener takes no more audio: it waits in its read
        // (no sleep that a loaded machine outlasts by chance), having read no further
        // than a little past the first utterance, not into the second (at 2.8 s).
        #expect(listener.audio.waitUntilParked(timeout: 20), "the listener went on reading while the command ran")
        let read = source.read.withLock { $0 }
        #expect(read < Int(2.8 * Double(AudioFormat.sampleRate)), "read \(read) samples")
        #expect(recognizer.calls == 1)
        #expect(source.read.withLock { $0 } == read)
        // Back at the prompt: the second utterance is heard, and too doubtful to run; then
        // the file ends.
        listener.resume()
        let ran = try Self.linesUntilTheFileEnds(listener, prompt)
        #expect(ran.isEmpty, "heard at confidence 0.1")
        #expect(recognizer.calls == 3)
        #expect(prompt.status.contains("not listening"))
    }

    /// Speech that resumes within the full hangover after a command ended early would have
    /// been part of that command: at the prompt it runs nothing, sure as its words are.
    @Test func speechRightAfterAnEarlyEndRunsNothing() throws {
        let audio = TestSignal.bursts([1, 0.5, 0.2, 0.5, 1.5])
        let recognizer = FakeRecognizer([(["quality", "high"], 0.9), (["help"], 0.9), (["help"], 0.9)])
        let (listener, prompt, _) = Self.listener(audio: audio, recognizer: recognizer, earlyEnd: 120)
        listener.start()
        listener.resume()
        #expect(try Self.linesUntilTheFileEnds(listener, prompt) == ["quality high"])
        #expect(recognizer.calls >= 2)  // the rest was heard, and not run
    }

    @Test func aDeviceThatDoesNotOpenIsReported() throws {
        var settings = Settings()
        settings.denoise = .off
        let factory = VoiceFactory(settings: settings, frontEnd: { _, _ in PassThroughPreprocessor() },
                             recognizer: { _ in FakeRecognizer([]) })
        let openers = AudioOpeners(device: { _ in throw AudioError("no such device 'hw:9'") }, file: { _ in FakeAudioSource([]) })
        let prompt = VoicePrompt(options: VoicePrompt.Options())
        let registry = Builtins.registry()
        let listener = PromptListener(
            audio: ListenerAudio(input: .device("hw:9"), paced: true, openers: openers), prompt: prompt, factory: factory,
            registry: { registry }, explicit: true)
        prompt.listener = listener
        listener.start()
        let notes = Self.notes(Self.nextActions(prompt))
        #expect(notes.contains { $0.contains("not listening: no such device 'hw:9'") })
        #expect(prompt.status == "not listening: no such device 'hw:9'")
    }
}
