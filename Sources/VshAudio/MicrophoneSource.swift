import Foundation
import VshCore
import VshStore
import VshVoice

/// The microphone as an `AudioSource`: an `AlsaCapture` converted to the 16 kHz mono the
/// recogniser wants, with SpeexDSP's resampler when the device runs at another rate.
/// Not thread-safe: read and close from one thread.
package final class MicrophoneSource: AudioDevice {
    /// The rate every `read` delivers.
    package static let outputRate = AudioFormat.sampleRate

    /// The capture device underneath (its `rate`, `overruns`).
    package let capture: AlsaCapture
    /// The most audio this source delivers before it reports the end of the stream; nil
    /// for no end. A bound is also how a test reads a `file` PCM: once its input file is
    /// used up, ALSA keeps returning old data rather than an error.
    package let maxSeconds: Double?
    package var name: String { capture.name }

    /// nil when the device already runs at 16 kHz.
    private let resampler: Resampler?
    private let limit: Int?
    private var delivered = 0
    /// One period read from the device, at its rate.
    private var deviceChunk: [Int16]
    /// Converted samples not yet handed out: `pending[pendingStart...]`.
    private var pending: [Int16] = []
    private var pendingStart = 0

    /// Opens `device` (an ALSA PCM name), asking it for `deviceRate` Hz (it may pick the
    /// nearest rate it offers), and delivers 16 kHz. Throws an `AudioError` that says what
    /// to try when the device cannot be opened.
    package convenience init(device: String = "default", deviceRate: Int = MicrophoneSource.outputRate,
                            maxSeconds: Double? = nil) throws {
        try self.init(capture: AlsaCapture(device: device, rate: deviceRate), maxSeconds: maxSeconds)
    }

    /// Sees every piece of audio as the device delivered it, at its rate (recording).
    private let tap: (([Int16]) -> Void)?

    /// Delivers `capture`'s audio at 16 kHz, ending after `maxSeconds` when given.
    package init(capture: AlsaCapture, maxSeconds: Double? = nil, tap: (([Int16]) -> Void)? = nil) throws {
        self.capture = capture
        self.tap = tap
        self.maxSeconds = maxSeconds
        limit = maxSeconds.map { max(0, Int(($0 * Double(MicrophoneSource.outputRate)).rounded())) }
        resampler = capture.rate == MicrophoneSource.outputRate
            ? nil : try Resampler(from: capture.rate, to: MicrophoneSource.outputRate)
        deviceChunk = [Int16](repeating: 0, count: capture.periodFrames)
    }

    /// Fills `buffer` with up to `buffer.count` samples at 16 kHz and returns how many:
    /// at least one, blocking until the device has them; 0 once `maxSeconds` of audio has
    /// been delivered or the source is closed.
    package func read(into buffer: inout [Int16]) throws -> Int {
        let wanted = min(buffer.count, limit.map { $0 - delivered } ?? Int.max)
        guard wanted > 0 else { return 0 }
        let count: Int
        if let resampler {
            while pendingStart == pending.count {
                let got = try capture.read(into: &deviceChunk)
                guard got > 0 else { return 0 }
                let chunk = got == deviceChunk.count ? deviceChunk : Array(deviceChunk[..<got])
                tap?(chunk)
                pending = resampler.process(chunk)
                pendingStart = 0
            }
            count = min(wanted, pending.count - pendingStart)
            buffer.replaceSubrange(0..<count, with: pending[pendingStart..<(pendingStart + count)])
            pendingStart += count
        } else {
            count = try buffer.withUnsafeMutableBufferPointer {
                try capture.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<wanted]))
            }
            tap?(Array(buffer[0..<count]))
        }
        delivered += count
        return count
    }

    /// Closes the device; later reads return 0.
    package func close() { capture.close() }
}
