import Foundation
import VshCore

/// Whether a word that begins with a hiss (the phones S and SH: "stop", "show", "seven")
/// began with one. A hiss is noise high in the spectrum, where the voice has little of its
/// energy: above 3.5 kHz for S, above 2.5 kHz for SH. In the frames of a hiss most of the
/// energy lies there, in a vowel a few percent. "up" or "off" heard as `stop` has no such
/// frame before its vowel. Measured as a share of each 10 ms frame's energy over the
/// room's (a ratio, so the level does not move it; the room's spectrum taken off, so a
/// fan's hum or a hiss of its own does not either), from the spectrum of 25 ms of it (Hann
/// window, 512-point FFT).
///
/// Audio that carries nothing above 4 kHz (8 kHz audio brought to 16 kHz, a telephone, a
/// headset on a Bluetooth call) cannot show an S: for an S there is no measure there, so
/// the answer is the one the words would get without the check. An SH lies from 2.5 kHz,
/// under the 4 kHz such audio keeps, so it is measured there as well: the share of the
/// energy under 4 kHz that lies from 2.5 kHz. A real "sheila" brought to 8 kHz keeps most
/// of it; a "two" heard as `show one` has none. (An S keeps its lowest part there: a
/// "seven" heard as `show ten` can pass.)
package enum Hiss {
    /// A hiss, by where its energy lies.
    package enum Kind: Sendable {
        /// S: above 3.5 kHz.
        case s
        /// SH: from 2.5 kHz up.
        case sh

        func band(_ bands: Spectrum.Bands) -> Double { self == .s ? bands.s : bands.sh }
    }

    /// Frames more than this many dB below the utterance's loudest do not show that the
    /// audio has a high band. In the onset, every frame 3 dB over the room counts, however
    /// far under the vowel: a real "stop" (Speech Commands 7add4c5f) has its S 45 dB under
    /// its vowel.
    static let quietBelow = 35.0
    /// How far, in dB, the band above 4.3 kHz must rise over its own quietest tenth of a
    /// second somewhere in the utterance: in 16 kHz speech every fricative and release
    /// lifts it by far more; in 8 kHz audio it holds only the room laid over it after, or
    /// nothing (a quantisation step's power, 1, stands for nothing).
    static let highBandRise = 12.0
    /// In this many frames in a row at least: a click (8 kHz recordings cut and joined, a
    /// tap) lifts it in the three frames whose windows hold it, any speech at 16 kHz in far
    /// more.
    static let highBandFrames = 5
    /// How many frames in a row the hiss must hold in the onset: the least share among
    /// them is the onset's. A click lies in the windows of three frames at most, and mouth
    /// clicks before a word are broadband (a real "up" after a quiet room scored 0.81 on its
    /// clicks alone); an S lasts 60 to 200 ms. Chosen on fold 0 of bench/attention.py
    /// (research/recognition/HISS.md, "Clicks").
    static let holdFrames = 4

    /// For each word that begins with a hiss (its span of 10 ms frames and the kind), the
    /// highest share of energy in the hiss's band that `holdFrames` frames in a row of its
    /// onset all reach: from five frames before the span to two fifths into it (at least
    /// ten frames), the room's power in each band taken off; a frame that does not rise 3 dB
    /// over the room has none. When the audio has no high band, only the SH words, in their
    /// order; nil when that leaves none. From the utterance's `Spectrum`, worked out once for
    /// every check.
    package static func onsets(of words: [(span: (Int, Int), kind: Kind)], in spectrum: Spectrum) -> [Double]? {
        let frames = spectrum.frames, room = spectrum.room
        guard !frames.isEmpty else { return nil }
        let level = frames.map { 10 * log10($0.all + 1) }
        let loud = (level.max() ?? 0) - quietBelow
        var run = 0, longest = 0
        for f in frames.indices {
            let risen = level[f] >= loud && 10 * log10((frames[f].high + 1) / (room.high + 1)) >= highBandRise
            run = risen ? run + 1 : 0
            longest = max(longest, run)
        }
        let measured = longest >= highBandFrames ? words : words.filter { $0.kind == .sh }
        guard !measured.isEmpty else { return nil }
        return measured.map { word in
            let (start, end) = word.span
            let first = max(0, start - 5), last = min(frames.count - 1, start + max(10, (end - start + 1) * 2 / 5))
            guard first <= last else { return 0 }
            let shares = (first...last).map { f -> Double in
                let over = frames[f].all - room.all
                guard over >= room.all, over > 0 else { return 0 }
                return max(0, word.kind.band(frames[f]) - word.kind.band(room)) / over
            }
            let hold = min(holdFrames, shares.count)
            return (0...(shares.count - hold)).map { shares[$0..<($0 + hold)].min() ?? 0 }.max() ?? 0
        }
    }
}
