import Foundation
import VshVoice

/// The speaker check's threshold (`voice.speaker_check`, off by default), set so that it
/// keeps the person's own speech however it reaches vsh, or left off where it cannot.
///
/// The score (`SpeakerScorer`) follows the recording as well as the voice: the adapted
/// model learnt the takes' room, level and microphone with the person. A threshold under
/// the takes as recorded stopped a third and more of the same person's commands recorded
/// another way (issue 34, fsdd speakers: 43-48% as recorded), while other people on the
/// same kind of microphone passed 41-87% of the time (research/attention/SPEAKER.md). So
/// each take, heard by a model not adapted on it (`HeldOut`), is scored as said and
/// changed the ways a person's set-up changes (`Variant`), the threshold is set under all
/// of them, and it is kept only when, set without one of the ways, it still keeps
/// `keep` of the takes changed that way: a check that would stop the person when their
/// set-up changes is left off, and `train` says why.
package enum SpeakerCalibration {
    /// How far under the 5th percentile of the takes' scores, in standard deviations of
    /// them: the smallest with which every fold-0 fsdd speaker kept 95% of their own new
    /// digits, however recorded (research/attention/SPEAKER.md, "Since issue 34").
    package static let margin = 0.75
    /// Fewer takes say nothing about a 5th percentile.
    package static let fewestTakes = 10
    /// The share of the person's own speech the check must keep.
    package static let keep = 0.95

    /// The ways a take is changed before it is scored: what changes between the day of
    /// `train` and the day a command is said.
    package enum Variant: CaseIterable, Sendable {
        /// The take as recorded.
        case asSaid
        /// A quarter of the level: a microphone further away or turned down.
        case softer
        /// After a second of the room's quiet: another lead-in.
        case afterQuiet
        /// Through a narrow-band microphone (nothing over 3.6 kHz, as an 8 kHz recording).
        case narrowBand
        /// Cut tight to the voice, without the room around it.
        case cutTight

        package var description: String {
            switch self {
            case .asSaid: "as recorded"
            case .softer: "at a quarter of the level"
            case .afterQuiet: "after a second of quiet"
            case .narrowBand: "through a narrow-band microphone"
            case .cutTight: "cut tight to the voice"
            }
        }

        /// `samples` (16 kHz) changed this way.
        package func apply(_ samples: [Int16]) -> [Int16] {
            switch self {
            case .asSaid: samples
            case .softer: samples.map { Int16(Double($0) * 0.25) }
            case .afterQuiet: Array(Array(repeating: SpeakerCalibration.quietest(samples), count: 10).joined()) + samples
            case .narrowBand: SpeakerCalibration.lowPass(samples)
            case .cutTight: SpeakerCalibration.voice(samples)
            }
        }
    }

    /// What the calibration found.
    package struct Result: Equatable, Sendable {
        /// The speaker score a command needs; nil: the check stays off.
        package var threshold: Double?
        /// The least share of the takes changed one way that a threshold set on the others
        /// kept.
        package var kept: Double
        /// Why the check stays off, for the person.
        package var why: String?
    }

    /// The threshold for takes whose scores are `scores[take][variant]` (nil where a
    /// variant had no speech), in `Variant.allCases` order.
    package static func calibrate(_ scores: [[Double?]]) -> Result {
        let variants = Variant.allCases
        let byVariant = variants.indices.map { v in scores.compactMap { v < $0.count ? $0[v] : nil } }
        guard byVariant.allSatisfy({ $0.count >= fewestTakes }) else {
            return Result(threshold: nil, kept: 0, why: "too few takes to calibrate it on")
        }
        var worst = (kept: 1.0, variant: variants[0])
        for (v, variant) in variants.enumerated() {
            let others = byVariant.indices.filter { $0 != v }.flatMap { byVariant[$0] }
            guard let floor = threshold(others) else { continue }
            let kept = Double(byVariant[v].filter { $0 >= floor }.count) / Double(byVariant[v].count)
            if kept < worst.kept { worst = (kept, variant) }
        }
        guard worst.kept >= keep else {
            return Result(threshold: nil, kept: worst.kept, why: String(
                format: "with a threshold set on your other takes, %.0f%% of your own takes %@ would have been stopped as another voice",
                100 * (1 - worst.kept), worst.variant.description))
        }
        return Result(threshold: threshold(byVariant.flatMap { $0 }), kept: worst.kept, why: nil)
    }

    /// The 5th percentile of `scores` less `margin` standard deviations of them, rounded
    /// to thousandths; nil with fewer than `fewestTakes`.
    package static func threshold(_ scores: [Double]) -> Double? {
        guard scores.count >= fewestTakes else { return nil }
        let sorted = scores.sorted()
        let place = 0.05 * Double(sorted.count - 1)
        let low = Int(place.rounded(.down)), high = min(low + 1, sorted.count - 1)
        let fifth = sorted[low] + (sorted[high] - sorted[low]) * (place - Double(low))
        let mean = scores.reduce(0, +) / Double(scores.count)
        let sd = (scores.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(scores.count)).squareRoot()
        return ((fifth - margin * sd) * 1000).rounded() / 1000
    }

    /// 10 ms frames of 16 kHz audio.
    static let frame = 160

    /// The quietest 100 ms of `samples` (the room between words), or digital quiet.
    static func quietest(_ samples: [Int16]) -> [Int16] {
        let length = 10 * frame
        guard samples.count >= length else { return [Int16](repeating: 0, count: length) }
        var best = 0, least = Double.infinity
        for start in stride(from: 0, through: samples.count - length, by: frame) {
            let energy = samples[start..<start + length].reduce(0.0) { $0 + Double($1) * Double($1) }
            if energy < least { (best, least) = (start, energy) }
        }
        return Array(samples[best..<best + length])
    }

    /// `samples` with nothing over about 3.6 kHz: a 65-tap windowed-sinc low-pass.
    static func lowPass(_ samples: [Int16]) -> [Int16] {
        let taps = 65, cutoff = 3_600.0 / 16_000
        let half = taps / 2
        let h = (0..<taps).map { n -> Double in
            let x = Double(n - half)
            let sinc = x == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * x) / (.pi * x)
            return sinc * (0.54 - 0.46 * cos(2 * .pi * Double(n) / Double(taps - 1)))
        }
        return samples.indices.map { i in
            var sum = 0.0
            for k in 0..<taps {
                let j = i + k - half
                if j >= 0 && j < samples.count { sum += h[k] * Double(samples[j]) }
            }
            return Int16(clamping: Int(sum.rounded()))
        }
    }

    /// `samples` from the first to the last 10 ms frame within 30 dB of the loudest.
    static func voice(_ samples: [Int16]) -> [Int16] {
        let energy = FrameLevels.of(samples)
        guard !energy.isEmpty else { return samples }
        let loud = energy.max()! - 30
        guard let first = energy.firstIndex(where: { $0 >= loud }), let last = energy.lastIndex(where: { $0 >= loud }) else {
            return samples
        }
        return Array(samples[(first * frame)..<((last + 1) * frame)])
    }
}
