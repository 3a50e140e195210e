import Foundation
import VshCore

/// The level of 10 ms frames of 16 kHz audio, in dB: 10·log10 of the mean square, plus one
/// so that digital silence is 0 dB. The one loop behind every check that compares frames
/// by how loud they are (speech outside the words, the voice in a take, the pause after
/// the wake phrase).
package enum FrameLevels {
    /// For each whole 10 ms frame of `samples`, the level over `span` frames from it
    /// (fewer at the end).
    package static func of(_ samples: [Int16], span: Int = 1) -> [Double] {
        let frame = AudioFormat.sampleRate / 100
        return (0..<(samples.count / frame)).map { f in
            let from = f * frame, to = min(samples.count, from + span * frame)
            var sum = 0.0
            for i in from..<to { sum += Double(samples[i]) * Double(samples[i]) }
            return 10 * log10(sum / Double(to - from) + 1)
        }
    }

    /// Where the quietest `span` frames in a row begin, by per-frame `power` (a mean square,
    /// not dB), the first of equals, and their summed power: the room under an utterance.
    /// Nil under `span` frames.
    package static func quietest(_ power: [Double], span: Int = 10) -> (start: Int, sum: Double)? {
        guard span > 0, power.count >= span else { return nil }
        var sum = power[..<span].reduce(0, +), least = sum, start = 0
        for f in span..<power.count {
            sum += power[f] - power[f - span]
            if sum < least { (least, start) = (sum, f - span + 1) }
        }
        return (start, least)
    }
}
