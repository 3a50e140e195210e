import Foundation
import VshAudio
import VshCore

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
        if let file { return try RecordingSource(file: file, rate: rate) }
        // `--audio-in` may name a file that stands in for the microphone.
        if FileManager.default.fileExists(atPath: input) { return try RecordingSource(file: input, rate: rate) }
        return try RecordingSource.microphone(device: input, rate: rate)
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
