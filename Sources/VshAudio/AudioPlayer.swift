import Foundation
import VshVoice

/// Plays an audio file through ALSA at the file's own rate (so a recording comes out
/// sample for sample), reporting the level and position as it goes.
package enum AudioPlayer {
    /// Blocks until the file has played, or `progress` returns false (then it stops at
    /// once, dropping what is queued).
    package static func play(
        path: String, device: String, configText: String? = nil,
        progress: (_ level: Double, _ position: Double) -> Bool
    ) throws {
        let file = try AudioFile(path: path)
        let playback = try AlsaPlayback(device: device, rate: file.sampleRate, configText: configText)
        defer { playback.close() }
        let frames = max(1, file.sampleRate / 10)  // 100 ms: the meter's pace
        var floats = [Float](repeating: 0, count: frames * file.channels)
        var played = 0
        while true {
            let got = try floats.withUnsafeMutableBufferPointer { try file.read(into: $0.baseAddress!, frames: frames) }
            if got == 0 { break }
            var samples = [Int16](repeating: 0, count: got)
            for i in 0..<got {
                var mixed: Float = 0
                for c in 0..<file.channels { mixed += floats[i * file.channels + c] }
                samples[i] = Int16(clamping: Int((mixed / Float(file.channels) * 32_768).rounded()))
            }
            try playback.write(samples)
            played += got
            // Each block is one window of the meter: the last, short one too.
            var meter = LevelMeter(window: got)
            meter.add(samples)
            if !progress(meter.level, Double(played) / Double(file.sampleRate)) {
                playback.stop()
                return
            }
        }
        try playback.drain()
    }
}
