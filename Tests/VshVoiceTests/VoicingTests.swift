import Foundation
import Testing
@testable import VshVoice

/// Voicing tells a vowel from noise, whatever the level.
@Suite struct VoicingTests {
    /// A vowel-like sound: a 120 Hz fundamental and its first harmonics, falling off.
    static func vowel(seconds: Double, amplitude: Double) -> [Int16] {
        (0..<Int(seconds * 16_000)).map { i in
            let t = Double(i) / 16_000
            let v = (1...6).reduce(0.0) { $0 + sin(2 * .pi * 120 * Double($1) * t) / Double($1) }
            return Int16(clamping: Int((amplitude * v / 2).rounded()))
        }
    }

    /// Uniform noise from a fixed seed, so the test is the same every run.
    static func noise(seconds: Double, amplitude: Double) -> [Int16] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        return (0..<Int(seconds * 16_000)).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int16(clamping: Int((Double(state % 2_001) / 1_000 - 1) * amplitude))
        }
    }

    @Test func aVowelIsVoicedAndNoiseIsNot() {
        let span = [(5, 40)]
        let vowel = Voicing.best(in: span, of: Self.vowel(seconds: 0.5, amplitude: 8_000))
        let noise = Voicing.best(in: span, of: Self.noise(seconds: 0.5, amplitude: 8_000))
        #expect(vowel[0] < 0.1)
        #expect(noise[0] > 0.5)
    }

    /// The measure is a ratio of the audio to itself: 12 dB up or down, or 30 dB, gives the
    /// same value (to rounding).
    @Test func theLevelDoesNotMoveIt() {
        let span = [(5, 40)]
        for make in [Self.vowel, Self.noise] {
            let values = [500.0, 2_000, 8_000, 31_000].map { Voicing.best(in: span, of: make(0.5, $0))[0] }
            #expect(values.max()! - values.min()! < 0.02, "\(values)")
        }
    }

    /// A word's value is its best frame within the span; quiet frames (silence between
    /// words) do not count, and a span with none left is unvoiced.
    @Test func eachWordIsJudgedOnItsOwnLoudFrames() {
        let audio = Self.noise(seconds: 0.3, amplitude: 6_000) + Self.vowel(seconds: 0.3, amplitude: 6_000)
            + Self.vowel(seconds: 0.3, amplitude: 20)
        let values = Voicing.best(in: [(2, 25), (32, 55), (62, 85)], of: audio)
        #expect(values[0] > 0.5)   // noise
        #expect(values[1] < 0.1)   // the vowel
        #expect(values[2] == 1)    // 50 dB below the loudest: no frame is judged
    }

    /// The confidence holds a command with a word at or above `voiced` to be noise, and
    /// leaves one just below it as the runner-up gap says.
    @Test func anUnvoicedWordIsNoCommand() {
        var features = Confidence.Features(frames: 100, wordFrames: 40, phones: 3, weakestVoicing: 0.39)
        #expect(Confidence.probability(features) > 0.99)
        features.weakestVoicing = Confidence.model.voiced
        #expect(Confidence.probability(features) == 0)
    }

    /// Audio shorter than one window and its lags (39 ms) has no frame to judge.
    @Test(arguments: [0, 320, 500, 629])
    func tooShortAudioIsUnvoiced(samples: Int) {
        let audio = Array(Self.vowel(seconds: 0.05, amplitude: 8_000).prefix(samples))
        #expect(Voicing.best(in: [(0, 3)], of: audio) == [1])
    }
}
