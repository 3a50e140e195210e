import Foundation
import VshAudioFiles
import VshCore
import VshStore

/// The audio of spoken commands, kept beside the history: one 16 kHz mono WAV per
/// command in `directory`, named by the time it was heard, the newest `limit` kept.
/// While the store encrypts audio (`sealing` gives a key), clips are sealed too.
package struct ClipStore: Sendable {
    package let directory: String
    package let limit: Int
    /// The key to seal clips with, asked at each save (nil: plain). When it throws (the
    /// store encrypts but the key is missing), no clip is written rather than a plain one.
    package var sealing: @Sendable () throws -> AudioKey? = { nil }

    package init(directory: String, limit: Int) {
        self.directory = directory
        self.limit = max(0, limit)
    }

    /// Writes `samples` as a new clip and drops the oldest beyond the limit. Returns the
    /// clip's path, or nil when clips are off or it could not be written (the command
    /// still runs; it only has no clip).
    package func save(_ samples: [Int16], rate: Int = AudioFormat.sampleRate, at time: Date = Date()) -> String? {
        guard limit > 0, !samples.isEmpty else { return nil }
        let path = directory + "/" + Self.name(for: time)
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let wav = WavWriter.bytes(samples, rate: rate)
            let bytes = try sealing().map { Data(SealedAudio.seal(Array(wav), key: $0)) } ?? wav
            try AtomicFile.write(bytes, to: path)
        } catch {
            return nil
        }
        prune()
        return path
    }

    /// `20260512-142501-123.wav`: sorts by time.
    static func name(for time: Date) -> String {
        let seconds = time.timeIntervalSince1970
        var whole = time_t(seconds)
        var parts = tm()
        gmtime_r(&whole, &parts)
        let millis = Int((seconds - Double(whole)) * 1000)
        return String(format: "%04d%02d%02d-%02d%02d%02d-%03d.wav", parts.tm_year + 1900, parts.tm_mon + 1,
                      parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec, millis)
    }

    private func prune() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let clips = names.filter { $0.hasSuffix(".wav") }.sorted()
        for name in clips.dropLast(limit) {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }
}
