import Foundation
import VshCore

/// What a recording writes its audio through: a plain WAV (`WavWriter`) or, while the
/// store encrypts audio, a sealed one (`SealedWavWriter`). The store picks
/// (`TranscriptStore.draftWriter(for:)`), so no recorder can write plain audio into a
/// store that encrypts.
package protocol DraftWriter: AnyObject {
    var path: String { get }
    var sampleRate: Int { get }
    /// Samples appended so far.
    var sampleCount: Int { get }
    /// Seconds appended so far.
    var duration: Double { get }
    func append(_ samples: [Int16]) throws
    func finish() throws
}

extension WavWriter: DraftWriter {}

/// Writes a recording as it goes, encrypted (`encrypt on`): the same 16-bit mono WAV as
/// `WavWriter`, as the bytes of a sealed file (`SealedAudio`, FORMAT.md) whose chunks
/// hold a quarter of a second each.
///
/// Crash safety: every quarter second of audio is sealed and written as soon as it is
/// complete, so a recorder killed mid-way loses less than half a second (the quarter
/// being gathered, and one being written) and leaves a draft that reads as cut short. The
/// WAV header inside is sealed first, with zero sizes; readers (`AudioBytes`) take the
/// length from the chunks, as they do for a plain WAV whose recorder was killed.
///
/// Owns the `SealedAudioWriter` (and through it the descriptor). Not thread-safe.
package final class SealedWavWriter: DraftWriter {
    package let path: String
    package let sampleRate: Int
    package private(set) var sampleCount = 0
    package var duration: Double { Double(sampleCount) / Double(sampleRate) }

    private let sealed: SealedAudioWriter

    /// Creates (or truncates) `path` with mode 0600, sealed with `key`.
    package init(path: String, sampleRate: Int = AudioFormat.sampleRate, key: AudioKey) throws {
        precondition(sampleRate > 0 && sampleRate <= 1_000_000, "sample rate \(sampleRate) Hz")
        self.path = path
        self.sampleRate = sampleRate
        sealed = try SealedAudioWriter(path: path, key: key, chunkSize: max(2, sampleRate / 4 * 2))
        try sealed.append(WavWriter.header(sampleRate: sampleRate, dataBytes: 0))
    }

    package func append(_ samples: [Int16]) throws {
        if samples.isEmpty { return }
        guard (sampleCount + samples.count) * 2 <= WavWriter.maximumDataBytes else {
            throw WavWriter.error(path, "a WAV file holds at most 4 GB; start a new recording")
        }
        let little = samples.map { $0.littleEndian }
        sampleCount += samples.count
        try little.withUnsafeBytes { try sealed.append($0) }
    }

    /// Seals the last part, flushes the file to disk and closes it.
    package func finish() throws {
        try sealed.finish()
    }
}
