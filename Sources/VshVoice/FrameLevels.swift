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
}
