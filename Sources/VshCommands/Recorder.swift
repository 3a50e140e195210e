import Foundation
import VshCore
import VshStore
import VshVoice

/// Records a note: audio to a draft in the store as it arrives, dictation of what is
/// said, and a status line (elapsed time, level, the words so far) while it runs. Ends
/// when the input ends, `shouldStop` says so (Enter, Ctrl-C, `stop`), or the person
/// says "stop recording".
package final class Recorder {
    /// What the status line shows.
    package struct Status: Equatable {
        package var elapsed: Double
        /// The length of the file being recorded (seconds); nil for the microphone.
        package var length: Double? = nil
        /// The loudness of the last 100 ms, dBFS (−∞…0).
        package var level: Double
        package var words: String
    }

    /// Why recording ended.
    package enum Ending: Equatable {
        case inputEnded
        case stopped(String)
        case spokenStop
        /// The input failed midway (device unplugged or stalled, disk full); what was
        /// recorded until then is in the draft.
        case failed(String)
    }

    package struct Result {
        package var draft: TranscriptStore.Draft
        package var ending: Ending
        /// Overruns of the device: short gaps in the audio.
        package var overruns: Int
        /// Warnings for the person (the spoken stop does not work in this recording).
        package var notes: [String] = []
    }

    /// The phrase that ends a recording by voice; it is not kept in the transcript.
    package static let stopPhrase = ["stop", "recording"]
    /// What the stop phrase is heard against (`SpokenStop`): the stop command's spoken
    /// forms ("stop", "stop recording"), of which only the phrase stops a recording.
    package static let stopGrammar = VoiceGrammar(command: StopCommand.info.name, forms: StopCommand.info.spokenForms)

    let store: TranscriptStore
    let voice: AudioServices

    package init(store: TranscriptStore, voice: AudioServices) {
        self.store = store
        self.voice = voice
    }

    /// Records from the microphone (`file` nil) or a file at `quality`.
    /// `started` runs once the input is open and being written, before any audio.
    package func record(
        file: String?, quality: Quality, shouldStop: () -> String?, started: () -> Void = {}, status: (Status) -> Void
    ) throws -> Result {
        // The audio goes to the draft from the first moment; the recognisers load after
        // (the input keeps what arrives meanwhile), so a slow model loses nothing.
        let input = try voice.recordingInput(file: file, rate: quality.sampleRate)
        var draft = try store.beginDraft(quality: quality, sampleRate: input.sampleRate, source: input.description)
        let dictation: StreamingRecognizer
        do {
            input.startWriting(to: try store.draftWriter(for: draft))
            started()
            dictation = try voice.dictation()
        } catch {
            // A recording that cannot start (the store encrypts and its key is missing, no
            // model to transcribe with) leaves no draft behind to be offered at every start.
            try? input.finish()
            try? store.abandon(draft)
            throw error
        }
        // Without the stop's recogniser (a model whose dictionary lacks the words) a
        // recording still works; the phrase stops it only where dictation writes it down,
        // and the result says so.
        var notes: [String] = []
        var stop = SpokenStop(phrase: Self.stopPhrase)
        do {
            if let recognizer = try voice.stopRecognizer(for: Self.stopGrammar) {
                stop = SpokenStop(recognizer: recognizer, phrase: Self.stopPhrase, gate: voice.factory.gate(for: recognizer))
            }
        } catch {
            notes.append("saying \"\(Self.stopPhrase.joined(separator: " "))\" will not stop this recording (\(error)); press Enter")
        }
        // The words so far are shown while the microphone records; a file is read as fast
        // as it decodes, and a second, live decode of each utterance would only double the
        // time (record --from took twice transcribe's).
        let pipeline = voice.factory.dictationPipeline(source: input, recognizer: dictation, interim: file == nil)
        pipeline.stop = stop
        var partial = ""
        var ending = Ending.inputEnded
        var meter = LevelMeter()
        var lastStatus = -1.0
        /// The draft already holds the audio up to a failure (the writer appends every
        /// read, 30 ms): keep it, with the words so far, and say what happened.
        func failed(_ error: Error) -> Result {
            try? input.finish()
            draft = (try? store.updateDraft(draft, duration: input.writtenSeconds)) ?? draft
            draft.duration = input.writtenSeconds
            return Result(draft: draft, ending: .failed("\(error)"), overruns: input.overruns, notes: notes)
        }
        func text() -> String { [draft.transcript, partial].filter { !$0.isEmpty }.joined(separator: " ") }
        do {
            try pipeline.run(onAudio: { samples in
                meter.add(samples)
                let elapsed = input.writtenSeconds
                if elapsed - lastStatus >= 0.1 {
                    lastStatus = elapsed
                    status(Status(elapsed: elapsed, length: input.length, level: meter.level, words: text()))
                }
                if let reason = shouldStop() {
                    ending = .stopped(reason)
                    return false
                }
                return true
            }) { event in
                switch event {
                case .speechStarted:
                    partial = ""
                case .partial(let text):
                    partial = text
                case .transcribing(let seconds):
                    // Decoding a long utterance whole holds up the status line: say why.
                    if seconds >= 2 {
                        status(Status(elapsed: input.writtenSeconds, length: input.length, level: meter.level,
                                      words: text() + String(format: " (transcribing the last %.0f s…)", seconds)))
                    }
                case .stopPhrase:
                    partial = ""
                    if ending == .inputEnded { ending = .spokenStop }
                    return false
                case .utterance(let recognition, _, _):
                    partial = ""
                    draft.append(recognition.words)
                    draft = (try? store.updateDraft(draft, duration: input.writtenSeconds)) ?? draft
                }
                return true
            }
        } catch {
            return failed(error)
        }
        do {
            try input.finish()
            draft = try store.updateDraft(draft, duration: input.writtenSeconds)
        } catch {
            return failed(error)
        }
        return Result(draft: draft, ending: ending, overruns: input.overruns, notes: notes)
    }
}

extension Recorder {
    /// Writes down the audio a draft holds past its words, after them: for a recording cut
    /// short (vsh killed mid-sentence), whose audio runs on past the words it kept
    /// (`Draft.hasUntranscribedAudio`). The words it had stay; the audio is read as
    /// `transcribe` reads a file.
    package func transcribeRest(of draft: TranscriptStore.Draft) throws -> TranscriptStore.Draft {
        let input = try voice.recordingInput(file: draft.audioPath, rate: AudioFormat.sampleRate)
        defer { try? input.finish() }
        let skip = Int(draft.transcribedSeconds * Double(AudioFormat.sampleRate))
        let rest = Skipping(input, samples: skip)
        let pipeline = voice.factory.dictationPipeline(source: rest, recognizer: try voice.dictation(), interim: false)
        var added: [RecognizedWord] = []
        try pipeline.run { event in
            if case .utterance(let recognition, _, _) = event {
                added += recognition.words.map { word in
                    var word = word
                    word.start += draft.transcribedSeconds
                    word.end += draft.transcribedSeconds
                    return word
                }
            }
            return true
        }
        let said = ([draft.transcript] + added.map(\.word)).filter { !$0.isEmpty }.joined(separator: " ")
        return try store.updateDraft(draft, transcript: said, words: draft.words + added, duration: draft.duration)
    }

    /// An audio source less its first `samples`.
    private final class Skipping: AudioSource {
        let inner: AudioSource
        var left: Int
        var name: String { inner.name }
        init(_ inner: AudioSource, samples: Int) {
            self.inner = inner
            left = samples
        }
        func read(into buffer: inout [Int16]) throws -> Int {
            while left > 0 {
                var scratch = [Int16](repeating: 0, count: min(left, buffer.count))
                let n = try inner.read(into: &scratch)
                if n == 0 { return 0 }
                left -= n
            }
            return try inner.read(into: &buffer)
        }
    }
}

extension Session {
    private enum StopRequestKey: SessionKey { typealias Value = () -> String? }

    /// Asks whether the person wants a long-running command (record, play, train) to stop:
    /// returns what they did ("Enter", "Ctrl-C"), or nil to go on. Set by the app (the
    /// keyboard at an interactive prompt); until then it always answers nil.
    package var stopRequest: () -> String? {
        get { self[StopRequestKey.self] ?? { nil } }
        set { self[StopRequestKey.self] = newValue }
    }
}
