import VshAudioFiles

/// What commands that touch audio (record, play) need from the audio side. VshApp
/// provides it with ALSA, libsndfile, SpeexDSP and PocketSphinx; tests with fakes; it is
/// nil with `--no-voice`.
package protocol AudioServices: AnyObject {
    /// Audio to record: the microphone, or `file` (recorded until it ends). `rate` is
    /// what the quality asks for; the input reports the rate it really records at.
    func recordingInput(file: String?, rate: Int) throws -> RecordingInput
    /// The dictation recogniser (loaded on first use, then kept).
    func dictation() throws -> StreamingRecognizer
    /// The recogniser of `grammar`, the phrase that ends a recording by voice (loaded on
    /// first use, then kept), or nil when there is none.
    func stopRecognizer(for grammar: CommandGrammar) throws -> CommandRecognizer?
    /// The voice pipeline as the settings make it: a fresh front end and endpointer per stream.
    var factory: VoiceFactory { get }
    /// Plays a WAV file; `progress` gets the level (dBFS) and position (seconds) and
    /// returns false to stop.
    func play(path: String, progress: (_ level: Double, _ position: Double) -> Bool) throws
}

/// Audio being recorded: reading it delivers 16 kHz for recognition, and everything
/// read is also written, at the recording's own rate, to the writer `startWriting` gets
/// (the store's: `TranscriptStore.draftWriter(for:)`, sealed while it encrypts).
package protocol RecordingInput: AudioSource {
    /// The rate the audio is written at (the device's, or the quality's for files).
    var sampleRate: Int { get }
    /// `microphone default`, `file notes.wav`: how the recording was made.
    var description: String { get }
    func startWriting(to writer: DraftWriter)
    /// Seconds written so far.
    var writtenSeconds: Double { get }
    /// How long the input is (seconds), when it is a file; nil for a microphone or stream.
    var length: Double? { get }
    /// How often the device overran (audio arrived faster than it was read, and some was
    /// lost): each is a short gap in the recording.
    var overruns: Int { get }
    /// Flushes the file to disk and closes the input.
    func finish() throws
}

extension RecordingInput {
    package var length: Double? { nil }
}

extension AudioServices {
    /// No recogniser for the stop phrase: it ends a recording only where dictation writes
    /// it down (`SpokenStop.ends`); else Enter, Ctrl-C or the end of its input do.
    package func stopRecognizer(for grammar: CommandGrammar) throws -> CommandRecognizer? { nil }
}
