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
/// Audio that carries nothing above 4 kHz (8 kHz audio brought to 16 kHz, a telephone)
/// cannot show a hiss at all: for it there is no measure, so the answer is the one the
/// words would get without the check.
package enum Hiss {
    /// A hiss, by where its energy lies.
    package enum Kind: Sendable {
        /// S: from 4 to 8 kHz.
        case s
        /// SH: from 2.5 kHz up.
        case sh

        var above: Double { self == .s ? 3_500 : 2_500 }
    }

    static let frame = AudioFormat.sampleRate / 100
    static let window = 400  // 25 ms
    static let size = 512
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

    /// For each word that begins with a hiss (its span of 10 ms frames and the kind), the
    /// highest share of energy in the hiss's band among the frames of its onset that rise
    /// 3 dB over the room: from five frames before the span to two fifths into it (at least
    /// ten frames), the room's power in each band taken off. 0 when no frame of the onset rises
    /// over the room. Nil when the audio has no high band.
    package static func onsets(of words: [(span: (Int, Int), kind: Kind)], in audio: [Int16]) -> [Double]? {
        guard audio.count >= window else { return nil }
        let frames = powers(of: audio)
        let room = Power.room(frames)
        let level = frames.map { 10 * log10($0.all + 1) }
        let loud = (level.max() ?? 0) - quietBelow
        var run = 0, longest = 0
        for f in frames.indices {
            let risen = level[f] >= loud && 10 * log10((frames[f].high + 1) / (room.high + 1)) >= highBandRise
            run = risen ? run + 1 : 0
            longest = max(longest, run)
        }
        guard longest >= highBandFrames else { return nil }
        return words.map { word in
            let (start, end) = word.span
            let first = max(0, start - 5), last = min(frames.count - 1, start + max(10, (end - start + 1) * 2 / 5))
            guard first <= last else { return 0 }
            return (first...last).compactMap { f -> Double? in
                let over = frames[f].all - room.all
                guard over >= room.all, over > 0 else { return nil }
                return max(0, frames[f].band(word.kind) - room.band(word.kind)) / over
            }.max() ?? 0
        }
    }

    /// A frame's power from 100 Hz up (`all`), above 3.5 kHz (`s`), above 2.5 kHz (`sh`)
    /// and above 4.3 kHz (`high`), in the units of a sample's square.
    struct Power {
        var all = 0.0, s = 0.0, sh = 0.0, high = 0.0

        func band(_ kind: Kind) -> Double { kind == .s ? s : sh }

        /// The room: each band's mean over the quietest ten frames in a row.
        static func room(_ frames: [Power]) -> Power {
            let span = min(10, frames.count)
            guard let at = FrameLevels.quietest(frames.map(\.all), span: span)?.start else { return Power() }
            let quiet = frames[at..<(at + span)], n = Double(span)
            return Power(all: quiet.reduce(0) { $0 + $1.all } / n, s: quiet.reduce(0) { $0 + $1.s } / n,
                         sh: quiet.reduce(0) { $0 + $1.sh } / n, high: quiet.reduce(0) { $0 + $1.high } / n)
        }
    }

    /// Each 10 ms frame's `Power`, from the spectrum of the 25 ms from it.
    static func powers(of audio: [Int16]) -> [Power] {
        let hz = Double(AudioFormat.sampleRate) / Double(size), top = size / 2
        let from = Int((100 / hz).rounded(.up)), highFrom = Int((4_300 / hz).rounded(.up))
        let sFrom = Int((Kind.s.above / hz).rounded(.up)), shFrom = Int((Kind.sh.above / hz).rounded(.up))
        let hann = (0..<window).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(window - 1)) }
        let fft = FFT(size: size)
        var re = [Double](repeating: 0, count: size), im = re
        return (0..<((audio.count - window) / frame + 1)).map { f in
            for i in 0..<size {
                re[i] = i < window ? Double(audio[f * frame + i]) * hann[i] : 0
                im[i] = 0
            }
            fft.transform(&re, &im)
            var power = Power()
            for k in from...top {
                let p = (re[k] * re[k] + im[k] * im[k]) / Double(window)
                power.all += p
                if k >= shFrom { power.sh += p }
                if k >= sFrom { power.s += p }
                if k >= highFrom { power.high += p }
            }
            return power
        }
    }
}

/// An in-place radix-2 complex FFT of a fixed power-of-two size.
struct FFT {
    let size: Int
    private let cosines: [Double], sines: [Double]

    init(size: Int) {
        self.size = size
        cosines = (0..<size / 2).map { cos(-2 * Double.pi * Double($0) / Double(size)) }
        sines = (0..<size / 2).map { sin(-2 * Double.pi * Double($0) / Double(size)) }
    }

    func transform(_ re: inout [Double], _ im: inout [Double]) {
        var j = 0
        for i in 1..<size {
            var bit = size >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var length = 2
        while length <= size {
            let step = size / length
            for start in stride(from: 0, to: size, by: length) {
                for k in 0..<length / 2 {
                    let c = cosines[k * step], s = sines[k * step]
                    let a = start + k, b = a + length / 2
                    let tr = re[b] * c - im[b] * s, ti = re[b] * s + im[b] * c
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                }
            }
            length <<= 1
        }
    }
}
