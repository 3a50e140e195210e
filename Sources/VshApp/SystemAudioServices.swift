import Foundation
import VshAudio
import VshCore
import VshStore
import VshVoice
import VshCommandFiles
import VshCommands

/// The real audio side of record and play: ALSA, libsndfile, SpeexDSP, PocketSphinx.
final class SystemAudioServices: AudioServices {
    let settings: Settings
    let paths: Paths
    /// The capture device or audio file `--audio-in` named (default: voice.device).
    let input: AudioInput
    let output: String
    /// False with `--no-voice`: files are recorded and transcribed, no device is opened.
    let devices: Bool
    private var loadedDictation: SphinxDictation?
    private var loadedSpotter: SphinxDictation?

    init(settings: Settings, paths: Paths, input: String?, output: String?, devices: Bool = true) {
        self.settings = settings
        self.paths = paths
        self.devices = devices
        self.input = AudioInput.resolve(input ?? settings.audioDevice)
        self.output = output ?? "default"
    }

    func recordingInput(file: String?, rate: Int) throws -> RecordingInput {
        let key = try sealingKey()
        let source: RecordingSource
        switch (file, input) {
        case (let file?, _), (nil, .file(let file)):
            // `--audio-in` may name a file that stands in for the microphone.
            source = try RecordingSource(file: file, rate: rate)
        case (nil, .device(let device)):
            guard devices else {
                throw CommandError("vsh was started with --no-voice, so it opens no microphone; 'record --from FILE' records an audio file")
            }
            source = try RecordingSource.microphone(device: device, rate: rate)
        }
        source.sealingKey = key
        return source
    }

    /// The key recordings are sealed with while the store encrypts audio (`encrypt on`);
    /// throws, before anything is recorded, when the store encrypts but the key is missing.
    func sealingKey() throws -> AudioKey? {
        try TranscriptStore(directory: paths.store).recordingKey(keyFile: KeyFile(path: paths.keyFile))
    }

    func dictation() throws -> StreamingRecognizer {
        if let loadedDictation { return loadedDictation }
        PocketSphinxLog.send(to: paths.recognizerLog)
        let dictation = try SphinxDictation(modelDirectory: settings.modelDirectory)
        loadedDictation = dictation
        return dictation
    }

    var path: VoicePath { .system(settings: settings, paths: paths) }

    /// Keyword spotting for "stop recording". The threshold, 1e-30, spotted the phrase
    /// said on its own and nothing in the librivox sentences (1e-20 missed it).
    func stopSpotter() throws -> StreamingRecognizer? {
        if let loadedSpotter { return loadedSpotter }
        PocketSphinxLog.send(to: paths.recognizerLog)
        let spotter = try SphinxDictation(
            modelDirectory: settings.modelDirectory, keyphrases: [Recorder.stopPhrase.joined(separator: " ")],
            threshold: 1e-30, workDirectory: paths.state)
        loadedSpotter = spotter
        return spotter
    }

    func play(path: String, progress: (Double, Double) -> Bool) throws {
        guard devices else {
            throw CommandError("vsh was started with --no-voice, so it opens no sound device; start it without --no-voice to play \(path)")
        }
        try AudioPlayer.play(path: path, device: output, progress: progress)
    }
}
