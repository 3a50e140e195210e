import Foundation
import VshCore

/// The power of each 10 ms frame of an utterance in the bands the acoustic checks read
/// (`Hiss`, `Syllables`, `Voicing.longestHiss`), from the spectrum of the 25 ms from it
/// (Hann window, 512-point FFT), and the room's: each band's mean over the quietest tenth
/// of a second (`FrameLevels.quietest`), and the samples it was made from, for the checks
/// that read the waveform too (`Voicing`'s YIN). Worked out once an utterance, for the
/// checks that apply to it.
package struct Spectrum: Sendable {
    /// A frame's power in the units of a sample's square.
    package struct Bands: Sendable {
        /// From 100 Hz up.
        var all = 0.0
        /// Above 3.5 kHz: where an S lies.
        var s = 0.0
        /// Above 2.5 kHz: where an SH lies.
        var sh = 0.0
        /// Above 4.3 kHz: what 8 kHz audio lacks.
        var high = 0.0
        /// From 300 Hz to 2.5 kHz: where a vowel is loud and a closure or a fricative is not.
        var voice = 0.0
    }

    static let frame = AudioFormat.sampleRate / 100
    static let window = 400  // 25 ms
    static let size = 512

    package let frames: [Bands]
    package let room: Bands
    /// The audio the frames were made from, one value a sample.
    let samples: [Double]

    package init(_ audio: [Int16]) {
        samples = audio.map(Double.init)
        frames = Self.bands(of: audio)
        let span = min(10, frames.count)
        guard let at = FrameLevels.quietest(frames.map(\.all), span: span)?.start else {
            room = Bands()
            return
        }
        let quiet = frames[at..<(at + span)], n = Double(span)
        func mean(_ band: KeyPath<Bands, Double>) -> Double { quiet.reduce(0) { $0 + $1[keyPath: band] } / n }
        room = Bands(all: mean(\.all), s: mean(\.s), sh: mean(\.sh), high: mean(\.high), voice: mean(\.voice))
    }

    static func bands(of audio: [Int16]) -> [Bands] {
        guard audio.count >= window else { return [] }
        let hz = Double(AudioFormat.sampleRate) / Double(size), top = size / 2
        func bin(_ frequency: Double) -> Int { Int((frequency / hz).rounded(.up)) }
        let from = bin(100), highFrom = bin(4_300), sFrom = bin(3_500), shFrom = bin(2_500)
        let voice = bin(300)...bin(2_500)
        let hann = (0..<window).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(window - 1)) }
        let fft = FFT(size: size)
        var re = [Double](repeating: 0, count: size), im = re
        return (0..<((audio.count - window) / frame + 1)).map { f in
            for i in 0..<size {
                re[i] = i < window ? Double(audio[f * frame + i]) * hann[i] : 0
                im[i] = 0
            }
            fft.transform(&re, &im)
            var power = Bands()
            for k in from...top {
                let p = (re[k] * re[k] + im[k] * im[k]) / Double(window)
                power.all += p
                if k >= shFrom { power.sh += p }
                if k >= sFrom { power.s += p }
                if k >= highFrom { power.high += p }
                if voice.contains(k) { power.voice += p }
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
