import Foundation
import Testing
import VshVoice

/// Whether a word that begins with S or SH began with a hiss (`Hiss`), on made sounds: a
/// vowel (harmonics of 120 Hz falling as 1/k, as a voice's do), a hiss (white noise's
/// second difference, most of it above 3.5 kHz), a room (white noise).
@Suite struct HissTests {
    static let rate = 16_000

    /// Deterministic noise in -1…1.
    static func noise(_ count: Int, seed: UInt64) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 52) - 1
        }
    }

    /// Harmonics up to `top` (7.9 kHz: every one a voice has at 16 kHz).
    static func vowel(seconds: Double, top: Int = 65) -> [Double] {
        (0..<Int(seconds * Double(rate))).map { i in
            let t = Double(i) / Double(rate)
            var sum = 0.0
            for k in 1...top { sum += sin(2 * Double.pi * 120 * Double(k) * t) / Double(k) }
            return sum
        }.faded
    }

    static func hiss(seconds: Double) -> [Double] {
        let n = noise(Int(seconds * Double(rate)) + 2, seed: 7)
        return (2..<n.count).map { i -> Double in
            let second: Double = n[i] - 2 * n[i - 1]
            return second + n[i - 2]
        }.faded
    }

    /// Noise from 2.5 to 3.9 kHz alone (141 tones 10 Hz apart, their phases at random): an
    /// SH as 8 kHz audio keeps it.
    static func narrowHiss(seconds: Double) -> [Double] {
        let phases = noise(141, seed: 11)
        return (0..<Int(seconds * Double(rate))).map { i in
            let t = Double(i) / Double(rate)
            var sum = 0.0
            for (k, phase) in phases.enumerated() { sum += sin(2 * Double.pi * (2_500 + 10 * Double(k)) * t + Double.pi * phase) }
            return sum
        }.faded
    }

    /// `parts` one after another at `peak`, over a room `roomBelow` dB under it.
    static func audio(_ parts: [[Double]], peak: Double = 8_000, roomBelow: Double = 50) -> [Int16] {
        let joined = parts.flatMap { $0 }
        let most = joined.map(abs).max() ?? 1
        let gain: Double = peak * pow(10, -roomBelow / 20)
        let room = noise(joined.count, seed: 3).map { $0 * gain }
        return zip(joined, room).map { said, noise -> Int16 in
            let sample: Double = said / most * peak + noise
            return Int16(sample.rounded())
        }
    }

    /// Frames of a word spoken from `seconds` in, for `length` seconds.
    static func span(from seconds: Double, length: Double) -> (Int, Int) {
        (Int(seconds * 100), Int((seconds + length) * 100))
    }

    static let quiet = [Double](repeating: 0, count: rate / 2)

    @Test func aHissBeforeTheVowelIsFound() throws {
        let said = Self.audio([Self.quiet, Self.hiss(seconds: 0.12), Self.vowel(seconds: 0.3), Self.quiet])
        let onset = try #require(Hiss.onsets(of: [(Self.span(from: 0.5, length: 0.42), .s)], in: Spectrum(said))?.first)
        #expect(onset > 0.8, "\(onset)")
    }

    @Test func aVowelAloneHasNone() throws {
        let said = Self.audio([Self.quiet, Self.vowel(seconds: 0.4), Self.quiet])
        let onset = try #require(Hiss.onsets(of: [(Self.span(from: 0.5, length: 0.42), .s)], in: Spectrum(said))?.first)
        #expect(onset < 0.1, "\(onset)")
    }

    /// A click before a vowel is broadband, over half of its power above 3.5 kHz, but it
    /// lies in three frames' windows at most: no hiss, where a hiss as short as 60 ms is one.
    @Test func aClickIsNoHiss() throws {
        var clicked = Self.audio([Self.quiet, Self.quiet.prefix(960).map { $0 }, Self.vowel(seconds: 0.3), Self.quiet])
        for at in [Self.rate / 2 + 100, Self.rate / 2 + 500] { clicked[at] = 4_000 }
        let spans: [(span: (Int, Int), kind: Hiss.Kind)] = [(Self.span(from: 0.56, length: 0.3), .s)]
        let click = try #require(Hiss.onsets(of: spans, in: Spectrum(clicked))?.first)
        #expect(click < 0.1, "\(click)")
        let short = Self.audio([Self.quiet, Self.hiss(seconds: 0.06), Self.vowel(seconds: 0.3), Self.quiet])
        let hiss = try #require(Hiss.onsets(of: spans, in: Spectrum(short))?.first)
        #expect(hiss > 0.8, "\(hiss)")
    }

    /// The room before a word is flat noise, half of it above 3.5 kHz: in a noisy room (30
    /// dB under the words) it is not a hiss. Two words, each judged on its own onset.
    @Test func theRoomIsNoHiss() throws {
        let said = Self.audio([Self.quiet, Self.vowel(seconds: 0.4), Self.quiet, Self.hiss(seconds: 0.12),
                               Self.vowel(seconds: 0.3), Self.quiet], roomBelow: 30)
        let onsets = try #require(Hiss.onsets(of: [(Self.span(from: 0.5, length: 0.4), .s), (Self.span(from: 1.4, length: 0.42), .s)], in: Spectrum(said)))
        #expect(onsets[0] < 0.1, "\(onsets)")
        #expect(onsets[1] > 0.8, "\(onsets)")
    }

    @Test func theLevelDoesNotMoveIt() throws {
        let parts = [Self.quiet, Self.hiss(seconds: 0.08), Self.vowel(seconds: 0.3), Self.quiet]
        let spans: [(span: (Int, Int), kind: Hiss.Kind)] = [(Self.span(from: 0.5, length: 0.38), .s)]
        let loud = try #require(Hiss.onsets(of: spans, in: Spectrum(Self.audio(parts, peak: 20_000)))?.first)
        let soft = try #require(Hiss.onsets(of: spans, in: Spectrum(Self.audio(parts, peak: 1_000)))?.first)
        #expect(abs(loud - soft) < 0.02, "\(loud) against \(soft)")
    }

    /// Audio with nothing above 4 kHz (8 kHz audio brought to 16 kHz) cannot show a hiss:
    /// no measure, not a word without one.
    @Test func audioWithoutAHighBandHasNoMeasure() {
        let narrow = Self.audio([Self.quiet, Self.vowel(seconds: 0.4, top: 30), Self.quiet], roomBelow: 200)
        #expect(Hiss.onsets(of: [(Self.span(from: 0.5, length: 0.4), .s)], in: Spectrum(narrow)) == nil, "harmonics under 3.7 kHz")
        let roomAfter = Self.audio([Self.quiet, Self.vowel(seconds: 0.4, top: 30), Self.quiet], roomBelow: 50)
        #expect(Hiss.onsets(of: [(Self.span(from: 0.5, length: 0.4), .s)], in: Spectrum(roomAfter)) == nil,
                "a room laid over it at 16 kHz: the band above 4.3 kHz holds only the room")
        var clicked = roomAfter
        clicked[Self.rate * 4 / 10] = Int16.max
        #expect(Hiss.onsets(of: [(Self.span(from: 0.5, length: 0.4), .s)], in: Spectrum(clicked)) == nil,
                "a click lifts the high band in three frames: no speech at 16 kHz")
    }

    /// 8 kHz audio keeps an SH (from 2.5 kHz) and loses an S (above 3.5 kHz, most of it over
    /// 4): without a high band an SH word is still measured, on the band under 4 kHz, and an
    /// S word is not (the measures are the SH words', in their order).
    @Test func anSHIsMeasuredWithoutAHighBand() throws {
        let sh: [(span: (Int, Int), kind: Hiss.Kind)] = [(Self.span(from: 0.5, length: 0.42), .sh)]
        let said = Self.audio([Self.quiet, Self.narrowHiss(seconds: 0.12), Self.vowel(seconds: 0.3, top: 30), Self.quiet])
        let onset = try #require(Hiss.onsets(of: sh, in: Spectrum(said))?.first)
        #expect(onset > 0.8, "\(onset)")
        let bare = Self.audio([Self.quiet, Self.quiet.prefix(1_920).map { $0 }, Self.vowel(seconds: 0.3, top: 30), Self.quiet])
        let none = try #require(Hiss.onsets(of: sh, in: Spectrum(bare))?.first)
        #expect(none < 0.1, "\(none)")
        #expect(Hiss.onsets(of: [(Self.span(from: 0.5, length: 0.42), .s)], in: Spectrum(said)) == nil)
        let both = try #require(Hiss.onsets(of: [(Self.span(from: 0.5, length: 0.42), .s)] + sh, in: Spectrum(said)))
        #expect(both.count == 1 && both[0] == onset, "\(both)")
    }
}

extension Array where Element == Double {
    /// Faded in and out over 20 ms: a sound that starts at full strength is a click, and a
    /// click is a hiss.
    var faded: [Double] {
        let ramp = 320.0
        return indices.map { i in
            let edge = Swift.min(1, Double(Swift.min(i, count - 1 - i)) / ramp)
            return self[i] * (0.5 - 0.5 * cos(Double.pi * edge))
        }
    }
}
