import CSpeexDSP
import Foundation
import VshCore

/// Sample-rate conversion of mono 16-bit audio with SpeexDSP's resampler.
/// Owns the SpeexResamplerState; destroyed in deinit. Not thread-safe.
package final class Resampler {
    /// Owned: speex_resampler_destroy in deinit.
    private let state: OpaquePointer
    package let inputRate: Int
    package let outputRate: Int
    private var output: [Int16] = []

    /// `quality` 0…10 (SpeexDSP's scale; 5 is its default, 3 is cheap and fine for speech).
    package init(from inputRate: Int, to outputRate: Int, quality: Int32 = 5) throws {
        var err: Int32 = 0
        guard inputRate > 0, outputRate > 0,
              let state = speex_resampler_init(1, UInt32(inputRate), UInt32(outputRate), quality, &err),
              err == 0 else {
            throw AudioError("cannot resample from \(inputRate) Hz to \(outputRate) Hz (SpeexDSP error \(err))")
        }
        // Without this the output lags the input by the filter's delay (about 1.5 ms at
        // 48 kHz, quality 5): enough to move every 10 ms analysis frame, and the same words
        // at 44.1 or 48 kHz decoded differently from the 16 kHz original (9% flipped
        // decisions in bench/invariance.py, against 1% for sox's delay-free round trip).
        speex_resampler_skip_zeros(state)
        self.state = state
        self.inputRate = inputRate
        self.outputRate = outputRate
    }

    deinit { speex_resampler_destroy(state) }

    /// Converts `input`, returning all the output it produced (the resampler keeps a
    /// few samples of history between calls, so a stream converts in pieces seamlessly).
    package func process(_ input: [Int16]) -> [Int16] {
        if inputRate == outputRate { return input }
        let capacity = input.count * outputRate / inputRate + 64
        if output.count < capacity { output = [Int16](repeating: 0, count: capacity) }
        var produced: [Int16] = []
        produced.reserveCapacity(capacity)
        var offset = 0
        while offset < input.count {
            var inLength = UInt32(input.count - offset)
            var outLength = UInt32(output.count)
            input.withUnsafeBufferPointer { inBuf in
                output.withUnsafeMutableBufferPointer { outBuf in
                    _ = speex_resampler_process_int(
                        state, 0, inBuf.baseAddress! + offset, &inLength, outBuf.baseAddress!, &outLength)
                }
            }
            produced.append(contentsOf: output[0..<Int(outLength)])
            if inLength == 0 && outLength == 0 { break }
            offset += Int(inLength)
        }
        return produced
    }

    /// How many samples `inputLength` input samples make at the output rate, rounded.
    package func outputLength(forInput inputLength: Int64) -> Int64 {
        let rate = Int64(inputRate)
        return (inputLength * Int64(outputRate) + rate / 2) / rate
    }

    /// The end of a stream: pushes silence through the filter until `produced` samples
    /// (given out so far) reach `expected` (`outputLength`), and returns the tail, cut
    /// so that the total is `expected` where the output had not passed it already.
    package func flush(produced: Int64, expected: Int64) -> [Int16] {
        let silence = [Int16](repeating: 0, count: 256)
        var tail: [Int16] = []
        // Any SpeexDSP filter is far shorter than 64 × 256 input samples; the bound only
        // guards against a resampler that stops producing.
        var rounds = 0
        while produced + Int64(tail.count) < expected && rounds < 64 {
            tail += process(silence)
            rounds += 1
        }
        return Array(tail.prefix(max(0, Int(expected - produced))))
    }
}
