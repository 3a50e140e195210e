import Foundation
import VshAudio
import VshCore

/// The voice services while the prompt listens: `record` takes the input from the
/// listener (one reader at a time). A device is closed for it; a file continues where
/// the listener was, so a spoken "record" in a file records what the file says next.
final class ListenerVoice: VoiceServices {
    let base: VoiceServices
    let audio: ListenerAudio

    init(base: VoiceServices, audio: ListenerAudio) {
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
            return try StreamRecording(stream: stream, name: audio.name, rate: rate)
        }
    }

    func dictation() throws -> StreamingRecognizer { try base.dictation() }
    func frontEnd() -> Preprocessor? { base.frontEnd() }
    func endpointer() -> Endpointer { base.endpointer() }
    func play(path: String, progress: (Double, Double) -> Bool) throws {
        try base.play(path: path, progress: progress)
    }
}

/// A recording of the listener's file stream: 16 kHz as it reads, written at the
/// quality's rate. Finishing it leaves the stream open for the listener.
final class StreamRecording: RecordingInput {
    let stream: AudioSource
    let name: String
    let description: String
    let sampleRate: Int
    private let toFileRate: Resampler?
    private var writer: WavWriter?

    init(stream: AudioSource, name: String, rate: Int) throws {
        self.stream = stream
        self.name = name
        description = "file \(name) (as the microphone)"
        sampleRate = rate
        toFileRate = rate == FileAudioSource.outputRate ? nil : try Resampler(from: FileAudioSource.outputRate, to: rate)
    }

    func startWriting(to path: String) throws {
        writer = try WavWriter(path: path, sampleRate: sampleRate)
    }

    var writtenSeconds: Double { writer?.duration ?? 0 }

    func read(into buffer: inout [Int16]) throws -> Int {
        let n = try stream.read(into: &buffer)
        if n > 0, let writer {
            let samples = Array(buffer[0..<n])
            try writer.append(toFileRate?.process(samples) ?? samples)
        }
        return n
    }

    func finish() throws { try writer?.finish() }
}
