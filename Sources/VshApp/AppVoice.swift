import Foundation
import VshAudio
import VshCore
import VshStore
import VshVoice
import VshCommandFiles
import VshCommands

/// The real audio side of record and play: ALSA, libsndfile, SpeexDSP, PocketSphinx.
final class AppVoice: VoiceServices {
    let settings: Settings
    let paths: Paths
    /// The capture device or audio file `--audio-in` named (default: voice.device).
    let input: String
    let output: String
    private var loadedDictation: SphinxDictation?

    init(settings: Settings, paths: Paths, input: String?, output: String?) {
        self.settings = settings
        self.paths = paths
        self.input = input ?? settings.audioDevice
        self.output = output ?? "default"
    }

    func recordingInput(file: String?, rate: Int) throws -> RecordingInput {
        let key = try sealingKey()
        let source: RecordingSource
        if let file {
            source = try RecordingSource(file: file, rate: rate)
        } else if FileManager.default.fileExists(atPath: input) {
            // `--audio-in` may name a file that stands in for the microphone.
            source = try RecordingSource(file: input, rate: rate)
        } else {
            source = try RecordingSource.microphone(device: input, rate: rate)
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
        PocketSphinxLog.send(to: paths.state + "/pocketsphinx.log")
        let dictation = try SphinxDictation(modelDirectory: settings.modelDirectory)
        loadedDictation = dictation
        return dictation
    }

    func frontEnd() -> Preprocessor? { VoiceSetup.frontEnd(settings) }

    func endpointer() -> Endpointer { VoiceSetup.endpointer(settings) }

    func play(path: String, progress: (Double, Double) -> Bool) throws {
        try AudioPlayer.play(path: path, device: output, progress: progress)
    }
}
