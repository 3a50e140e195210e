import Foundation
import VshCore

/// Whether words were voiced: every English word has a vowel, and a vowel is periodic at
/// the speaker's pitch; a tap running, a fan or a burst of noise is not. Measured with YIN
/// (de Cheveigné and Kawahara, 2002): per 10 ms frame, the lowest cumulative mean
/// normalised difference over the lags of a voice's pitch (70–400 Hz), 0 for a perfectly
/// periodic frame and about 1 for noise. It is a ratio of the frame to itself, so the
/// level, a DC offset (already removed upstream) and the sample rate the audio came at do
/// not move it.
package enum Voicing {
    static let window = 400          // 25 ms at 16 kHz
    static let shortestLag = 40      // 400 Hz
    static let longestLag = 230      // about 70 Hz
    static let hop = AudioFormat.sampleRate / 100
    /// Frames more than this many dB below the utterance's loudest are left out: silence
    /// between words may hold a hum, which is periodic and no voice.
    static let quietBelow = 25.0

    /// For each span of 10 ms frames (a word), the lowest YIN difference among its frames
    /// that are not quiet; 1 for a span with none. The most voiced frame of a word decides
    /// for it: one clear vowel is enough.
    package static func best(in spans: [(Int, Int)], of audio: [Int16]) -> [Double] {
        let x = audio.map(Double.init)
        guard x.count >= window + longestLag else { return spans.map { _ in 1 } }
        let frames = (x.count - window - longestLag) / hop + 1
        let energy = (0..<frames).map { f -> Double in
            var sum = 0.0
            for i in (f * hop)..<(f * hop + window) { sum += x[i] * x[i] }
            return 10 * log10(sum / Double(window) + 1)
        }
        let loud = (energy.max() ?? 0) - quietBelow
        return spans.map { start, end in
            let first = max(0, start), last = min(end, frames - 1)
            guard first <= last else { return 1 }
            var best = 1.0
            for f in first...last where energy[f] >= loud {
                best = min(best, difference(x, at: f * hop))
            }
            return best
        }
    }

    /// YIN's cumulative mean normalised difference at its lowest over the pitch lags, for
    /// the window starting at `start`.
    static func difference(_ x: [Double], at start: Int) -> Double {
        var best = 1.0
        var cumulative = 0.0
        x.withUnsafeBufferPointer { p in
            for lag in 1...longestLag {
                var d = 0.0
                for i in start..<(start + window) {
                    let e = p[i] - p[i + lag]
                    d += e * e
                }
                cumulative += d
                if lag >= shortestLag, cumulative > 0 {
                    best = min(best, d * Double(lag) / cumulative)
                }
            }
        }
        return best
    }
}
