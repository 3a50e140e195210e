import Foundation
import VshCore

/// The loudness of audio as it goes by (dBFS, RMS), one value per window of samples:
/// the level bar of `record` and `play` (100 ms windows), and the `--levels` of
/// `vsh listen` (25 ms).
package struct LevelMeter {
    /// Samples per window.
    package let window: Int
    private var sum = 0.0
    private var count = 0
    /// The level of the last whole window; −∞ before the first.
    package private(set) var level = -Double.infinity

    package init(window: Int = AudioFormat.sampleRate / 10) {
        self.window = max(1, window)
    }

    /// Adds samples; `each` gets the level of every window they complete.
    package mutating func add(_ samples: some Collection<Int16>, each: (Double) -> Void = { _ in }) {
        for s in samples {
            sum += Double(s) * Double(s)
            count += 1
            if count == window {
                level = 10 * log10(sum / Double(count) / (32_768.0 * 32_768.0) + 1e-12)
                each(level)
                sum = 0
                count = 0
            }
        }
    }

    /// A bar of `width` cells for −60…0 dBFS.
    package static func bar(_ level: Double, width: Int = 20) -> String {
        let fraction = level.isFinite ? max(0, min(1, (level + 60) / 60)) : 0
        let filled = Int((fraction * Double(width)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
    }
}
