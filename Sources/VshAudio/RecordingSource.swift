import Foundation
import VshAudioFiles
import VshStore
import VshVoice

/// The microphone or a file as a recording: audio read is written to a WAV file at the
/// recording's rate, and handed on at 16 kHz for recognition.
package final class RecordingSource: RecordingInput {
    package let name: String
    package let description: String
    package let sampleRate: Int
    package let length: Double?
    private let read16k: (inout [Int16]) throws -> Int
    private var writer: DraftWriter?
    /// Converts what recognition gets (16 kHz) to the recording's rate, for a stream
    /// (the listener's file); the microphone and files write their own audio instead.
    private let toFileRate: Resampler?
    private var close: () -> Void = {}
    /// A stream writes what recognition reads; the microphone writes in its capture tap,
    /// a file in its tap of the file's own rate.
    private let writesOnRead: Bool
    /// The first failure to write the file (disk full): the next read throws it, so the
    /// recording ends with what was written rather than going on unrecorded.
    private var writeFailure: Error?
    /// The microphone's overruns so far (0 for files).
    private let overrunCount: () -> Int
    package var overruns: Int { overrunCount() }

    /// The microphone: `device` opened at `rate` (or the nearest rate it offers).
    package static func microphone(device: String, rate: Int) throws -> RecordingSource {
        let capture = try AlsaCapture(device: device, rate: rate)
        return try RecordingSource(capture: capture)
    }

    init(capture: AlsaCapture, maxSeconds: Double? = nil) throws {
        name = capture.name
        description = "microphone \(capture.name)"
        sampleRate = capture.rate
        length = nil
        toFileRate = nil
        writesOnRead = false
        let tap = TapBox()
        let mic = try MicrophoneSource(capture: capture, maxSeconds: maxSeconds, tap: { tap.write?($0) })
        read16k = { try mic.read(into: &$0) }
        overrunCount = { capture.overruns }
        close = { mic.close() }
        tap.write = { [unowned self] samples in
            guard writeFailure == nil else { return }
            do { try writer?.append(samples) } catch { writeFailure = error }
        }
    }

    /// A file, recorded until it ends, written at `rate` from the file's own audio (not
    /// from the 16 kHz that recognition reads), so a 48 kHz note of a 48 kHz file keeps
    /// its bandwidth.
    package init(file path: String, rate: Int) throws {
        let file = try FileAudioSource(path: path)
        name = file.name
        description = "file \((path as NSString).lastPathComponent)"
        sampleRate = rate
        length = file.duration
        let toRate = file.sampleRate == rate ? nil : try Resampler(from: file.sampleRate, to: rate)
        toFileRate = nil
        writesOnRead = false
        read16k = { try file.read(into: &$0) }
        overrunCount = { 0 }
        var written: Int64 = 0
        close = { [unowned self] in
            // The filter's tail, so the note is as long as the file.
            guard let toRate, writeFailure == nil, let writer else { return }
            let tail = toRate.flush(produced: written, expected: toRate.outputLength(forInput: file.framesRead))
            do { try writer.append(tail) } catch { writeFailure = error }
        }
        file.nativeTap = { [unowned self] samples in
            guard writeFailure == nil, let writer else { return }
            let converted = toRate?.process(samples) ?? samples
            written += Int64(converted.count)
            do { try writer.append(converted) } catch { writeFailure = error }
        }
    }

    /// Any 16 kHz stream (a file, or the file the prompt's listener is reading), written
    /// at `rate`. Finishing the recording leaves the stream open.
    package init(stream: AudioSource, name: String, description: String, rate: Int) throws {
        self.name = name
        self.description = description
        sampleRate = rate
        length = nil
        toFileRate = rate == FileAudioSource.outputRate ? nil : try Resampler(from: FileAudioSource.outputRate, to: rate)
        read16k = { try stream.read(into: &$0) }
        writesOnRead = true
        overrunCount = { 0 }
    }

    package func startWriting(to writer: DraftWriter) {
        precondition(writer.sampleRate == sampleRate, "a \(sampleRate) Hz recording written at \(writer.sampleRate) Hz")
        self.writer = writer
    }

    package var writtenSeconds: Double { writer?.duration ?? 0 }

    package func read(into buffer: inout [Int16]) throws -> Int {
        let n = try read16k(&buffer)
        if let writeFailure { throw writeFailure }
        if n > 0, writesOnRead, let writer {
            let samples = Array(buffer[0..<n])
            try writer.append(toFileRate?.process(samples) ?? samples)
        }
        return n
    }

    package func finish() throws {
        close()
        if let writeFailure { throw writeFailure }
        try writer?.finish()
    }
}

/// Lets the capture tap reach the writer that is created after it.
private final class TapBox {
    var write: (([Int16]) -> Void)?
}
