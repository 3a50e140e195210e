import Foundation
import VshAudio
import VshCore
import VshStore
import VshVoice
import VshListening

/// The voice services while the prompt listens: `record` takes the input from the
/// listener (one reader at a time). A device is closed for it; a file continues where
/// the listener was, so a spoken "record" in a file records what the file says next.
final class ListenerAudioServices: AudioServices {
    let base: AudioServices
    let audio: ListenerAudio

    init(base: AudioServices, audio: ListenerAudio) {
        self.base = base
        self.audio = audio
    }

    func recordingInput(file: String?, rate: Int) throws -> RecordingInput {
        if file != nil { return try base.recordingInput(file: file, rate: rate) }
        switch audio.input {
        case .device:
            audio.releaseDevice()
            return try base.recordingInput(file: nil, rate: rate)
        case .file(let path):
            guard let stream = audio.sharedStream() else {
                throw AudioError("the audio input \(path) is busy or closed; record --from FILE records a file of its own")
            }
            return try RecordingSource(
                stream: stream, name: audio.name, description: "file \(audio.name) (as the microphone)", rate: rate)
        }
    }

    func dictation() throws -> StreamingRecognizer { try base.dictation() }
    func stopRecognizer(for grammar: CommandGrammar) throws -> CommandRecognizer? { try base.stopRecognizer(for: grammar) }
    var factory: VoiceFactory { base.factory }
    func play(path: String, progress: (Double, Double) -> Bool) throws {
        try base.play(path: path, progress: progress)
    }
}
