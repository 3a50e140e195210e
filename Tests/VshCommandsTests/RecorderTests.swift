import Foundation
import Testing
@testable import VshAudioFiles
import VshTestSupport
@testable import VshCore
@testable import VshStore
@testable import VshVoice
@testable import VshCommands

/// `Recorder` over fakes: the voice pipeline the settings make, and the store's writer.
@Suite struct RecorderTests {
    /// 16 kHz audio from memory, written to the writer it is given as it is read.
    final class MemoryInput: RecordingInput {
        let name = "memory"
        let description = "memory"
        let sampleRate = 16_000
        let source: FakeAudioSource
        var writer: DraftWriter?
        /// As a file: how long it is.
        var length: Double?
        init(_ samples: [Int16]) { source = FakeAudioSource(samples) }
        func startWriting(to writer: DraftWriter) { self.writer = writer }
        var writtenSeconds: Double { writer?.duration ?? 0 }
        var overruns: Int { 0 }
        func read(into buffer: inout [Int16]) throws -> Int {
            let n = try source.read(into: &buffer)
            if n > 0 { try writer?.append(Array(buffer[0..<n])) }
            return n
        }
        func finish() throws { try writer?.finish() }
    }

    /// Dictation that keeps the audio of each utterance it decodes whole.
    final class KeepingDictation: StreamingRecognizer {
        var decoded: [[Int16]] = []
        /// Samples decoded live, for the words so far.
        var fed = 0
        /// What each utterance says, in turn; "hello" past the end.
        var say: [String] = []
        func recognize(_ samples: [Int16], start: Double) -> Recognition {
            decoded.append(samples)
            let said = decoded.count <= say.count ? say[decoded.count - 1] : "hello"
            return Recognition(words: said.split(separator: " ").map {
                RecognizedWord(word: String($0), start: start, end: start + 0.5, confidence: 1)
            }, confidence: 1)
        }
        func begin(at start: Double) {}
        func feed(_ samples: [Int16]) -> String {
            fed += samples.count
            return ""
        }
        func end() -> Recognition { Recognition(words: [], confidence: 0) }
    }

    /// A front end that halves the audio, so that its output can be told from the input.
    final class Halving: Preprocessor {
        func process(_ frame: inout [Int16]) {
            for i in frame.indices { frame[i] /= 2 }
        }
    }

    final class Services: AudioServices {
        let input: MemoryInput
        let dictationRecognizer = KeepingDictation()
        let factory: VoiceFactory
        init(_ samples: [Int16], settings: Settings) {
            input = MemoryInput(samples)
            factory = VoiceFactory(
                settings: settings, frontEnd: { _, _ in Halving() },
                recognizer: { _ in throw CommandError("no command recogniser in this test") })
        }
        func recordingInput(file: String?, rate: Int) throws -> RecordingInput { input }
        /// Why the dictation model does not load; nil: it loads.
        var dictationFailure: CommandError?
        func dictation() throws -> StreamingRecognizer {
            if let dictationFailure { throw dictationFailure }
            return dictationRecognizer
        }
        func play(path: String, progress: (Double, Double) -> Bool) throws {}
    }

    static func record(_ services: Services, store: TranscriptStore) throws -> Recorder.Result {
        try Recorder(store: store, voice: services).record(
            file: nil, quality: .medium, shouldStop: { nil }, status: { _ in })
    }

    /// `voice.denoise = true`: dictation decodes the front end's audio, as `transcribe`
    /// does; `auto` leaves dictation the raw audio.
    @Test func denoiseOnGivesDictationTheFrontEndsAudio() throws {
        let dir = TempDirectory("recorder")
        defer { dir.remove() }
        let audio = TestSignal.bursts([0.5, 1.0, 1.0])
        var heard: [Denoise: [Int16]] = [:]
        for denoise in [Denoise.on, .auto] {
            var settings = Settings()
            settings.denoise = denoise
            let services = Services(audio, settings: settings)
            let result = try Self.record(services, store: TranscriptStore(directory: dir.file("store"), keyFile: nil))
            #expect(result.draft.transcript == "hello")
            #expect(result.draft.duration == 2.5, "the draft holds all the raw audio")
            let decoded = try #require(services.dictationRecognizer.decoded.first, "an utterance was decoded")
            heard[denoise] = decoded
        }
        let raw = try #require(heard[.auto]), processed = try #require(heard[.on])
        // The same utterance: `auto` decodes it as the endpointer cut it, `on` halved.
        #expect(raw.count > 16_000 && processed.count == raw.count)
        let halved = processed == raw.map { $0 / 2 }
        #expect(halved, "on: dictation decodes the front end's audio, not the raw")
    }

    /// A store that encrypts gets a sealed draft whatever the audio services are: the
    /// store hands out the writer, not the services.
    @Test func aRecordingIntoAnEncryptingStoreIsSealed() throws {
        let dir = TempDirectory("recorder")
        defer { dir.remove() }
        let keyFile = KeyFile(path: dir.file("config/key"))
        let store = TranscriptStore(directory: dir.file("store"), keyFile: keyFile)
        try store.setEncryption(try keyFile.create())
        let services = Services(TestSignal.bursts([0.5, 1.0, 1.0]), settings: Settings())
        let result = try Self.record(services, store: store)
        #expect(SealedAudio.isSealed(path: result.draft.audioPath))
        #expect(result.draft.duration > 2.4)

        // Without its key the store refuses to record rather than write plain audio, and
        // leaves no draft behind (issue 36, item 2): the one recorded is all there is.
        let keyless = TranscriptStore(directory: dir.file("store"), keyFile: KeyFile(path: dir.file("elsewhere/key")))
        let refusal = #expect(throws: CommandError.self) {
            try Self.record(Services(TestSignal.bursts([0.5, 1.0]), settings: Settings()), store: keyless)
        }
        #expect(refusal?.description.contains("nothing was recorded") == true, "\(String(describing: refusal))")
        #expect(try store.drafts().drafts.map(\.id) == [result.draft.id])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("store/drafts")).sorted()
                    == ["txt", "wav", "words"].map { result.draft.id + "." + $0 })
    }

    /// A recording whose dictation model does not load cannot start either: the error is
    /// told, and no draft is left to be offered at every start.
    @Test func aRecordingThatCannotStartLeavesNoDraft() throws {
        let dir = TempDirectory("recorder")
        defer { dir.remove() }
        let store = TranscriptStore(directory: dir.file("store"), keyFile: nil)
        let services = Services(TestSignal.bursts([0.5, 1.0]), settings: Settings())
        services.dictationFailure = CommandError("cannot load the model /nowhere")
        let failure = #expect(throws: CommandError.self) { try Self.record(services, store: store) }
        #expect(failure?.description == "cannot load the model /nowhere")
        #expect(try store.drafts().drafts.isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.file("store/drafts"))) ?? []).isEmpty)
    }

    /// vsh killed mid-recording: the draft's audio runs on past the words it kept. `save`
    /// writes the rest down, after the words it had, and says so; a draft that was written
    /// down to its end is saved as it is (issue 28, item 2).
    @Test func aRecordingCutShortIsTranscribedWhenSaved() throws {
        let harness = ShellHarness()
        let store = harness.session.store
        // Speech at 0.5-1.5 s and 2.5-3.5 s; the words of the first were kept at 1.6 s.
        let audio = TestSignal.bursts([0.5, 1.0, 1.0, 1.0, 1.0])
        var draft = try store.beginDraft(quality: .medium, sampleRate: 16_000, source: "microphone default")
        let writer = try store.draftWriter(for: draft)
        try writer.append(audio)
        try writer.finish()
        draft = try store.updateDraft(
            draft, transcript: "kept", words: [RecognizedWord(word: "kept", start: 0.5, end: 1.4, confidence: 1)], duration: 1.6)
        let recovered = try #require(try store.draft(draft.id))
        #expect(recovered.hasUntranscribedAudio && recovered.transcribedSeconds == 1.6)

        let services = Services(audio, settings: Settings())
        harness.session.voice = services
        #expect(harness.script(["save --draft \(draft.id)"]) == 0, "\(harness.error.text)")
        let saved = try #require(try store.item(draft.id))
        #expect(saved.text.string == "kept hello")
        #expect(services.dictationRecognizer.decoded.count == 1, "only the audio past the words was decoded")
        let words = try #require(WordTimings.read(store.directory + "/" + draft.id + ".json"))
        #expect(words.map(\.word) == ["kept", "hello"] && words[1].start > 2.0, "the new words are timed in the recording: \(words[1].start)")
        #expect(harness.output.text.contains("transcribing the recovered audio of \(draft.id)"))

        // Written down to its end: saved as it is, nothing decoded.
        var whole = try store.beginDraft(quality: .medium, sampleRate: 16_000, source: "microphone default")
        let second = try store.draftWriter(for: whole)
        try second.append(audio)
        try second.finish()
        whole = try store.updateDraft(whole, transcript: "all of it", words: [], duration: 3.5)
        let quiet = Services(audio, settings: Settings())
        harness.session.voice = quiet
        #expect(harness.script(["save --draft \(whole.id)"]) == 0)
        #expect(quiet.dictationRecognizer.decoded.isEmpty)
        #expect(try #require(try store.item(whole.id)).text.string == "all of it")
    }

    /// Each utterance's words are in the draft on disk as soon as it ends, so a vsh killed
    /// after it leaves them; the draft's length is its writer's, and `save` keeps that.
    @Test func eachUtterancesWordsAreWrittenDownAsItEndsAndTheLengthIsTheWriters() throws {
        let dir = TempDirectory("recorder")
        defer { dir.remove() }
        let store = TranscriptStore(directory: dir.file("store"), keyFile: nil)
        let services = Services(TestSignal.bursts([0.5, 1.0, 1.0, 1.0, 1.5]), settings: Settings())
        services.dictationRecognizer.say = ["one two", "three"]
        var onDisk: [TranscriptStore.Draft] = []
        let result = try Recorder(store: store, voice: services).record(
            file: nil, quality: .medium, shouldStop: { nil }, status: { _ in
                // What a vsh killed now would leave: the draft as another store reads it.
                let found = try? TranscriptStore(directory: dir.file("store"), keyFile: nil).drafts().drafts.first
                if let found, found.transcript != onDisk.last?.transcript { onDisk.append(found) }
            })
        #expect(onDisk.map(\.transcript) == ["", "one two", "one two three"])
        let first = try #require(onDisk.dropFirst().first)
        #expect(first.words.map(\.word) == ["one", "two"] && first.transcribedSeconds > 1.5, "\(first)")
        #expect(result.draft.transcript == "one two three" && result.draft.words.count == 3)

        let writer = try #require(services.input.writer)
        #expect(result.draft.duration == writer.duration && writer.duration == 5.0)
        let item = try store.save(result.draft)
        #expect(item.duration == writer.duration)
        #expect(try #require(try store.item(item.id)).duration == 5.0)
    }

    /// "stop recording" at the end of what dictation wrote down ends the recording there,
    /// once, and is not kept; the words before it are. (No recogniser for the stop here:
    /// dictation's words are all there is to hear it in.)
    @Test func aDictatedStopPhraseEndsTheRecordingAfterTheWordsBeforeIt() throws {
        let dir = TempDirectory("recorder")
        defer { dir.remove() }
        let services = Services(TestSignal.bursts([0.5, 1.0, 1.0, 1.0, 1.0]), settings: Settings())
        services.dictationRecognizer.say = ["buy milk stop recording", "never heard"]
        let result = try Self.record(services, store: TranscriptStore(directory: dir.file("store"), keyFile: nil))
        #expect(result.ending == .spokenStop)
        #expect(result.draft.transcript == "buy milk" && result.draft.words.map(\.word) == ["buy", "milk"])
        #expect(services.dictationRecognizer.decoded.count == 1, "nothing after the stop is decoded")
    }

    /// A file is read as fast as it decodes: each utterance is decoded once, whole, not
    /// also live for the words so far (which made `record --from` take twice as long as
    /// `transcribe`), and the status says how far into the file it is. The microphone
    /// still shows the words so far.
    @Test func aFileIsDecodedOnceAndItsStatusSaysHowFarIn() throws {
        let dir = TempDirectory("recorder")
        defer { dir.remove() }
        let audio = TestSignal.bursts([0.5, 1.0, 1.0])
        for file in [nil, "notes.wav"] {
            let services = Services(audio, settings: Settings())
            services.input.length = file == nil ? nil : 2.5
            var statuses: [Recorder.Status] = []
            let result = try Recorder(store: TranscriptStore(directory: dir.file("store"), keyFile: nil), voice: services)
                .record(file: file, quality: .medium, shouldStop: { nil }, status: { statuses.append($0) })
            #expect(result.draft.transcript == "hello")
            #expect(services.dictationRecognizer.decoded.count == 1)
            if file == nil {
                #expect(services.dictationRecognizer.fed > 16_000, "the microphone's words so far are decoded live")
                #expect(statuses.allSatisfy { $0.length == nil })
            } else {
                #expect(services.dictationRecognizer.fed == 0, "a file is decoded once")
                #expect(!statuses.isEmpty && statuses.allSatisfy { $0.length == 2.5 })
            }
        }
        let line = RecordCommand.statusLine(Recorder.Status(elapsed: 90, length: 300, level: -23, words: "so far"))
        #expect(line.hasPrefix("● 01:30 of 05:00 30%  "), "\(line)")
        #expect(line.hasSuffix("-23 dB  so far"), "\(line)")
        #expect(RecordCommand.statusLine(Recorder.Status(elapsed: 12, level: -23, words: "")).hasPrefix("● 00:12  █"))
    }
}
