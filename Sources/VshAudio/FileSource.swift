import Foundation
import VshCore
import VshVoice

/// Audio from a file, as the voice pipeline wants it: 16 kHz mono 16-bit, a block at a time.
///
/// Reads WAV (8/16/24/32-bit integer or 32-bit float PCM, any rate, any number of
/// channels), FLAC and Ogg/Vorbis through libsndfile (see `AudioFile`), and headerless
/// `.raw` files as 16 kHz 16-bit little-endian mono. Channels are averaged to mono. Other
/// rates go through `Resampler`; at the end of the file its tail is flushed with silence and
/// the output trimmed, so a file of `duration` seconds gives `duration × 16000` samples
/// (rounded). The resampler's filter delays the sound by about half its length (2–5 ms at
/// quality 5); 16 kHz files pass through untouched, sample for sample.
///
/// Streams: holds one block of the file (4096 frames) and what the caller has not yet
/// taken, never the whole file. Not thread-safe.
package final class FileAudioSource: AudioSource {
    /// The rate of what `read(into:)` produces.
    package static let outputRate = AudioFormat.sampleRate

    /// The path as given; messages name the file this way.
    package let name: String
    /// The file's own rate in Hz (16000 for `.raw`).
    package let sampleRate: Int
    /// The file's own number of channels (1 for `.raw`).
    package let channels: Int
    /// Length in seconds, as the file states.
    package let duration: Double

    private let file: AudioFile
    /// Nil when the file is already at 16 kHz.
    private let resampler: Resampler?
    /// One block of interleaved frames from the file.
    private var block: [Float]
    /// Converted samples not yet handed out: `pending[pendingStart...]`.
    private var pending: [Int16] = []
    private var pendingStart = 0
    /// Frames of the file read so far (at its own rate).
    private(set) var framesRead: Int64 = 0
    private var produced: Int64 = 0
    private var ended = false
    /// Sees each block as it is read, downmixed to mono at the file's own rate, before
    /// any conversion: what `record --from` writes, so the note keeps the file's bandwidth.
    var nativeTap: (([Int16]) -> Void)?

    static let blockFrames = 4096

    /// Opens `path`. Throws `AudioError` naming the file and the reason when it is
    /// missing, unreadable, a directory, empty, holds no audio, or is in a format libsndfile
    /// does not read.
    package init(path: String) throws {
        file = try AudioFile(path: path)
        name = path
        sampleRate = file.sampleRate
        channels = file.channels
        duration = Double(file.frames) / Double(file.sampleRate)
        do {
            resampler = file.sampleRate == Self.outputRate ? nil :
                try Resampler(from: file.sampleRate, to: Self.outputRate)
        } catch let error as AudioError {
            // A damaged header can claim any rate (found by AudioFuzzTests).
            throw AudioFile.error(path, "its sample rate of \(file.sampleRate) Hz is not one vsh can convert (\(error.message))")
        }
        block = [Float](repeating: 0, count: Self.blockFrames * file.channels)
    }

    /// Fills `buffer` with up to `buffer.count` samples of 16 kHz mono audio and returns
    /// how many; 0 once the file is exhausted. Throws when the file fails mid-way.
    package func read(into buffer: inout [Int16]) throws -> Int {
        while pending.count - pendingStart < buffer.count && !ended {
            try refill()
        }
        let count = min(buffer.count, pending.count - pendingStart)
        for i in 0..<count {
            buffer[i] = pending[pendingStart + i]
        }
        pendingStart += count
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        } else if pendingStart >= 4 * Self.blockFrames {
            pending.removeSubrange(0..<pendingStart)
            pendingStart = 0
        }
        return count
    }

    /// The whole file as 16 kHz mono samples: for tests and tools, not for long recordings.
    package static func readAll(path: String) throws -> [Int16] {
        try FileAudioSource(path: path).readToEnd()
    }

    /// Reads, downmixes and converts one block; at the end of the file, flushes.
    private func refill() throws {
        let frames = try block.withUnsafeMutableBufferPointer { buffer in
            try file.read(into: buffer.baseAddress!, frames: Self.blockFrames)
        }
        guard frames > 0 else {
            ended = true
            flushResampler()
            return
        }
        framesRead += Int64(frames)
        let mono = Self.downmix(block, frames: frames, channels: channels)
        nativeTap?(mono)
        let converted = resampler?.process(mono) ?? mono
        pending += converted
        produced += Int64(converted.count)
    }

    /// Pushes silence through the resampler until it has given out everything the file's
    /// frames account for, then drops the excess, so the length matches the file's.
    private func flushResampler() {
        guard let resampler else { return }
        let expected = resampler.outputLength(forInput: framesRead)
        let tail = resampler.flush(produced: produced, expected: expected)
        pending += tail
        produced += Int64(tail.count)
        let excess = min(Int(produced - expected), pending.count - pendingStart)
        if excess > 0 {
            pending.removeLast(excess)
            produced -= Int64(excess)
        }
    }

    /// Averages `channels` interleaved float channels (−1…1) into 16-bit mono, rounding and
    /// clipping. 16-bit input comes back exactly: libsndfile divides by 32768, this multiplies.
    static func downmix(_ interleaved: [Float], frames: Int, channels: Int) -> [Int16] {
        var out = [Int16](repeating: 0, count: frames)
        let scale = 32_768 / Float(channels)
        interleaved.withUnsafeBufferPointer { input in
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<channels {
                    sum += input[frame * channels + channel]
                }
                out[frame] = sample(sum * scale)
            }
        }
        return out
    }

    /// `value` rounded and clipped to 16 bits; NaN (a corrupt float file) becomes 0.
    static func sample(_ value: Float) -> Int16 {
        if value.isNaN { return 0 }
        let rounded = value.rounded()
        if rounded >= 32_767 { return .max }
        if rounded <= -32_768 { return .min }
        return Int16(rounded)
    }
}
