import Foundation
import Testing
@testable import VshAudio

@Suite struct ResamplerTests {
    /// A 1 kHz tone at 48 kHz becomes a 1 kHz tone at 16 kHz: a third of the samples,
    /// the same loudness, the same number of zero crossings per second.
    @Test func toneKeepsItsPitchAndLevel() throws {
        let resampler = try Resampler(from: 48_000, to: 16_000)
        let tone = (0..<48_000).map { Int16(10_000 * sin(2 * Double.pi * 1_000 * Double($0) / 48_000)) }
        var out: [Int16] = []
        for chunk in stride(from: 0, to: tone.count, by: 480) {
            out += resampler.process(Array(tone[chunk..<min(chunk + 480, tone.count)]))
        }
        #expect(abs(out.count - 16_000) < 100)
        let steady = out.dropFirst(1_000)
        let crossings = zip(steady, steady.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        let seconds = Double(steady.count) / 16_000
        #expect(abs(Double(crossings) / seconds - 2_000) < 20)
        let rms = sqrt(steady.map { Double($0) * Double($0) }.reduce(0, +) / Double(steady.count))
        #expect(abs(rms - 10_000 / 2.0.squareRoot()) < 300)
    }

    /// A click at 0.1 s comes out at 0.1 s: no filter delay, which would move every
    /// 10 ms analysis frame and make 44.1/48 kHz input decode unlike the 16 kHz original.
    @Test func aClickStaysWhereItWas() throws {
        for rate in [48_000, 44_100, 8_000] {
            let resampler = try Resampler(from: rate, to: 16_000)
            var input = [Int16](repeating: 0, count: rate / 2)
            input[rate / 10] = 20_000
            let out = resampler.process(input)
            let peak = out.indices.max { abs(Int(out[$0])) < abs(Int(out[$1])) }!
            #expect(abs(peak - 1_600) <= 1, "\(rate) Hz: the click moved to sample \(peak)")
        }
    }

    @Test func sameRateIsUntouched() throws {
        let resampler = try Resampler(from: 16_000, to: 16_000)
        #expect(resampler.process([1, 2, 3]) == [1, 2, 3])
    }

    @Test func impossibleRateIsAnError() {
        #expect(throws: (any Error).self) { try Resampler(from: 0, to: 16_000) }
    }
}
