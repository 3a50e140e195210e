import Foundation
import VshCore
import VshVoice

/// Whether a recorded phrase is fit to adapt the model on. A take the model cannot
/// align to its words (too quiet, drowned in noise, clipped, cut short) teaches it
/// the wrong sounds, so `train` asks for it again.
package enum TakeCheck {
    /// Below this the loudest 100 ms of a take is too quiet to carry the voice (dBFS).
    package static let quietest = -42.0
    /// dB between the loudest and the quietest 100 ms of a take (its padding holds the
    /// room's noise) below which noise drowns the words.
    package static let lowestSNR = 15.0
    /// Share of samples at full scale above which the take is clipped.
    package static let clippedShare = 0.002
    /// Seconds of speech a phrase needs at least, per word.
    package static let secondsPerWord = 0.15

    /// Below this the loudest 100 ms holds no voice to level (dBFS): silence, or a dead
    /// microphone.
    package static let silent = -70.0
    /// Where `levelled` brings the loudest 100 ms of a quiet recording (dBFS).
    package static let speakingLevel = -20.0

    /// A recording quieter than `quietest` at its loudest but not silent, raised so that
    /// its loudest 100 ms is at `speakingLevel`, as recognition levels every utterance
    /// before decoding: a quiet microphone is no fault of the speech (`train --from`).
    /// Anything else is returned as it is.
    package static func levelled(_ samples: [Int16]) -> [Int16] {
        var meter = LevelMeter()
        var loudest = -Double.infinity
        meter.add(samples) { loudest = max(loudest, $0) }
        guard loudest.isFinite, loudest < quietest, loudest >= silent else { return samples }
        let gain = pow(10, (speakingLevel - loudest) / 20)
        return samples.map { Int16(clamping: Int((Double($0) * gain).rounded())) }
    }

    /// What is wrong with a take of `words` words, or nil when it is fit. `speech` is how
    /// long the endpointer heard speech, and `padded` says the take has the room's sound
    /// around it, to measure the noise by; a file given whole (`train --from`) may be cut
    /// tight and is not judged for noise.
    package static func problem(_ samples: [Int16], words: Int, speech: Double? = nil, padded: Bool = false) -> String? {
        var meter = LevelMeter()
        var loudest = -Double.infinity, floor = Double.infinity
        meter.add(samples) {
            loudest = max(loudest, $0)
            floor = min(floor, $0)
        }
        if !loudest.isFinite || loudest < quietest {
            return String(format: "too quiet (%.0f dBFS at its loudest): speak up or move closer to the microphone",
                          loudest.isFinite ? loudest : -99)
        }
        let clipped = samples.reduce(0) { $0 + (abs(Int($1)) >= 32_700 ? 1 : 0) }
        if Double(clipped) > clippedShare * Double(samples.count) {
            return "too loud (the sound clipped): speak more softly or move back from the microphone"
        }
        let snr = loudest - floor
        if padded, snr < lowestSNR {
            return String(format: "drowned in noise (the voice is only %.0f dB over it): find a quieter place or move closer", snr)
        }
        let needed = secondsPerWord * Double(max(1, words))
        let heard = speech ?? Double(samples.count) / Double(AudioFormat.sampleRate)
        if heard < needed {
            return String(format: "too short (%.1f s for %d words): say the whole phrase", heard, words)
        }
        return nil
    }
}
