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

    /// Whether each 10 ms frame from `from` to `to` is voiced: YIN's difference at or under
    /// `aperiodic` once the room's share of the frame is taken off. A steady noise that is a
    /// share r of a frame's power raises the difference of a periodic sound by about that
    /// share (to d(1 − r) + r), so a vowel near the room's level is judged as it would be
    /// in quiet: voiced where the difference is at most `aperiodic` + (1 − `aperiodic`) r.
    /// Of the audio `spectrum` was made from; a frame the audio does not hold whole is not
    /// voiced, nor one `judged` leaves out (YIN costs about a tenth of a millisecond a
    /// frame: the caller says which frames it reads).
    static func periodic(in spectrum: Spectrum, from: Int, to: Int, judged: (Int) -> Bool) -> [Bool] {
        let x = spectrum.samples
        return (from...to).map { f in
            guard judged(f), f >= 0, f < spectrum.frames.count, f * hop + window + longestLag <= x.count else { return false }
            let share = min(1, spectrum.room.all / max(spectrum.frames[f].all, 1))
            return difference(x, at: f * hop) <= aperiodic + (1 - aperiodic) * share
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

extension Voicing {
    /// The phones said without voice, or often so: where a word has one, a stretch of hiss
    /// or breath within it is the word's own. A Z or a ZH is voiced in the dictionary but
    /// is often said as an S at a word's edge (fsdd's lucas says "zero" as "sero").
    static let voiceless: Set<Substring> = ["P", "T", "K", "F", "TH", "S", "SH", "CH", "HH", "Z", "ZH"]
    /// The phones said with voice and no frication or burst: a word that begins with one
    /// begins with no hiss.
    package static let voicedOnsets: Set<Substring> = [
        "AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW",
        "R", "L", "W", "Y", "M", "N", "NG",
    ]
    /// How many 10 ms frames before a word its onset reaches, for a hiss before a word
    /// that begins with voice (`Confidence.Features.hissBefore`): an S is 60 to 200 ms,
    /// and where the words lie (`SphinxCommandRecognizer.located`) may put a word after it.
    static let onsetReach = 20
    /// How far under the utterance's loudest frame, in dB, a frame before a word that
    /// begins with voice may lie and be an S of its words (`hissBefore`): an S before its
    /// vowel lay 20 to 35 dB under it (fsdd's "six", 8 kHz), the noise or breath at the
    /// start of real people's "alexa" recordings 40 dB and more
    /// (research/recognition/HISS_BEFORE.md). A word that begins with an S has its own
    /// check (`Hiss`), where an S can lie 45 dB under its vowel.
    static let sBelowLoudest = 35.0
    /// A frame louder than the room by this many dB or more is sound, not the room.
    static let hissAboveRoom = 20.0
    /// A frame whose YIN difference is over this is not voiced.
    static let aperiodic = 0.5
    /// A frame hisses when its power above 2.5 kHz is this share of its power in the
    /// voice's band or more: a vowel's is a tenth and less, an S's (at 8 kHz too, where it
    /// lies between 2.5 and 4 kHz) more than its voice band's.
    static let hissShare = 0.3

    /// Whether the words' phones (each word's, in order) are all voiced: "reload",
    /// "marvin", "undo", "play one" no ("P"). No words, or a word without phones: no.
    package static func claimedThroughout(_ words: [[Substring]]) -> Bool {
        !words.isEmpty && words.allSatisfy { !$0.isEmpty } && !words.joined().contains(where: voiceless.contains)
    }

    /// The longest run of 10 ms frames from `from` to `to` that hiss (`hissing`). An S, an
    /// SH, an F or a T's breath lasts 5 to 20 frames; a voiced word has none but a stop's
    /// release. Of the audio `spectrum` was made from.
    package static func longestHiss(in spectrum: Spectrum, from: Int, to: Int) -> Int {
        var run = 0, longest = 0
        for hisses in hissing(in: spectrum, from: from, to: to).frames {
            run = hisses ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// Whether each 10 ms frame from `from` to `to` (those the audio has) hisses: not voiced
    /// (YIN's difference over `aperiodic`), louder than the room by `hissAboveRoom` or more,
    /// with `hissShare` of the voice band's power or more above 2.5 kHz (`Spectrum`), and
    /// the first frame's index. `room`: the room's power, when not the spectrum's own
    /// (`Spectrum.room`); `within`: how far under the utterance's loudest frame, in dB, a
    /// frame may be and hiss (any, when nil).
    static func hissing(in spectrum: Spectrum, from: Int, to: Int,
                        room: Double? = nil, within: Double? = nil) -> (first: Int, frames: [Bool]) {
        let x = spectrum.samples
        let first = max(0, from)
        guard x.count >= window + longestLag else { return (first, []) }
        let last = min(to, spectrum.frames.count - 1, (x.count - window - longestLag) / hop)
        guard first <= last else { return (first, []) }
        let roomLevel = 10 * log10((room ?? spectrum.room.all) + 1)
        let floor = within.map { 10 * log10((spectrum.frames.map(\.all).max() ?? 0) + 1) - $0 } ?? -.infinity
        return (first, (first...last).map { f in
            let bands = spectrum.frames[f]
            let level = 10 * log10(bands.all + 1)
            return level >= roomLevel + hissAboveRoom && level >= floor && bands.sh >= hissShare * bands.voice
                && difference(x, at: f * hop) > aperiodic
        })
    }

    /// The run of frames that hiss (`hissing`) up to the onset of a word whose span of
    /// 10 ms frames is `word`, where a word that begins with voice has none: the longest
    /// run from `onsetReach` frames before the word to a quarter into it (three frames at
    /// least) that goes on to three frames before the word or later. An S runs into the
    /// vowel after it; a breath or a click before a word said after it ends before a
    /// pause. The room is the loudest of the utterance's quietest tenth of a second and the
    /// quietest tenth of the half second before the word and of the half second after the
    /// words (which end at frame `wordsEnd`): a recording's own noise around its words is
    /// its room where the audio beyond it is quieter (a clip padded with silence, a
    /// microphone that gates its noise between words), and an S is a sound of its own (in
    /// the half second before the word it can only raise that room, so miss an S, never
    /// find one). A frame more than `sBelowLoudest` dB under the utterance's loudest is no
    /// S of its words.
    package static func hissBefore(_ word: (Int, Int), wordsEnd: Int, in spectrum: Spectrum) -> Int {
        let count = spectrum.frames.count
        func quietest(_ from: Int, _ to: Int) -> Double {
            let power = spectrum.frames[max(0, min(count, from))..<max(0, min(count, to))].map(\.all)
            return FrameLevels.quietest(power, span: 10).map { $0.sum / 10 } ?? 0
        }
        let room = max(spectrum.room.all, quietest(word.0 - 50, word.0), quietest(wordsEnd + 1, wordsEnd + 51))
        let (first, frames) = hissing(in: spectrum, from: word.0 - onsetReach,
                                      to: word.0 + max(3, (word.1 - word.0 + 1) / 4), room: room,
                                      within: sBelowLoudest)
        var run = 0, longest = 0
        for (offset, hisses) in frames.enumerated() {
            run = hisses ? run + 1 : 0
            if first + offset >= word.0 - 3 { longest = max(longest, run) }
        }
        return longest
    }
}
