import Foundation
import VshCore
import VshStore
import VshVoice

/// The microphone or a file as a recording: audio read is written to a WAV file at the
/// recording's rate, and handed on at 16 kHz for recognition.
public final class RecordingSource: RecordingInput {
    public let name: String
    public let description: String
    public let sampleRate: Int
    private let read16k: (inout [Int16]) throws -> Int
    private var writer: RecordingWriter?
    /// Set while the store encrypts audio: the file is then written sealed with it.
    public var sealingKey: AudioKey?
    /// Converts what recognition gets (16 kHz) to the file's rate, for file inputs; the
    /// microphone writes the device's own audio instead.
    private let toFileRate: Resampler?
    private let close: () -> Void
    /// Files write what recognition reads; the microphone writes in its capture tap.
    private let writesOnRead: Bool
    /// The first failure to write the file (disk full): the next read throws it, so the
    /// recording ends with what was written rather than going on unrecorded.
    private var writeFailure: Error?
    /// The microphone's overruns so far (0 for files).
    private let overrunCount: () -> Int
    public var overruns: Int { overrunCount() }

    /// The microphone: `device` opened at `rate` (or the nearest rate it offers).
    public static func microphone(device: String, rate: Int) throws -> RecordingSource {
        let capture = try AlsaCapture(device: device, rate: rate)
        return try RecordingSource(capture: capture)
    }

    init(capture: AlsaCapture, maxSeconds: Double? = nil) throws {
        name = capture.name
        description = "microphone \(capture.name)"
        sampleRate = capture.rate
        toFileRate = nil
        writesOnRead = false
        let tap = TapBox()
        let mic = try MicrophoneSource(capture: capture, maxSeconds: maxSeconds, tap: { tap.write?($0) })
        read16k = { try mic.read(into: &$0) }
        close = { mic.close() }
        overrunCount = { capture.overruns }
        tap.write = { [unowned self] samples in
            guard writeFailure == nil else { return }
            do { try writer?.append(samples) } catch { writeFailure = error }
        }
    }

    /// A file, recorded until it ends, written at `rate`.
    public convenience init(file: String, rate: Int) throws {
        let source = try FileAudioSource(path: file)
        try self.init(stream: source, name: source.name,
                      description: "file \((file as NSString).lastPathComponent)", rate: rate)
    }

    /// Any 16 kHz stream (a file, or the file the prompt's listener is reading), written
    /// at `rate`. Finishing the recording leaves the stream open.
    public init(stream: AudioSource, name: String, description: String, rate: Int) throws {
        self.name = name
        self.description = description
        sampleRate = rate
        toFileRate = rate == FileAudioSource.outputRate ? nil : try Resampler(from: FileAudioSource.outputRate, to: rate)
        read16k = { try stream.read(into: &$0) }
        close = {}
        writesOnRead = true
        overrunCount = { 0 }
    }

    public func startWriting(to path: String) throws {
        writer = try sealingKey.map { try SealedWavWriter(path: path, sampleRate: sampleRate, key: $0) }
            ?? WavWriter(path: path, sampleRate: sampleRate)
    }

    public var writtenSeconds: Double { writer?.duration ?? 0 }

    public func read(into buffer: inout [Int16]) throws -> Int {
        let n = try read16k(&buffer)
        if let writeFailure { throw writeFailure }
        if n > 0, writesOnRead, let writer {
            let samples = Array(buffer[0..<n])
            try writer.append(toFileRate?.process(samples) ?? samples)
        }
        return n
    }

    public func finish() throws {
        close()
        try writer?.finish()
    }
}

/// Lets the capture tap reach the writer that is created after it.
private final class TapBox {
    var write: (([Int16]) -> Void)?
}
