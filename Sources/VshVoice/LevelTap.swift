import Foundation
import VshCore

/// Passes audio through and reports its level (dBFS, RMS) every `interval` seconds of
/// audio, for a meter another program draws (`vsh listen --json --levels`).
public final class LevelTap: AudioSource {
    let inner: AudioSource
    public var name: String { inner.name }
    let window: Int
    let report: (_ level: Double, _ time: Double) -> Void
    private var sum = 0.0, count = 0, read = 0

    /// `report` gets the level of each window and the stream time at its end.
    public init(_ inner: AudioSource, interval: Double = 0.025, report: @escaping (_ level: Double, _ time: Double) -> Void) {
        self.inner = inner
        window = max(1, Int(interval * Double(AudioFormat.sampleRate)))
        self.report = report
    }

    public func read(into buffer: inout [Int16]) throws -> Int {
        let n = try inner.read(into: &buffer)
        for s in buffer[0..<n] {
            let v = Double(s) / 32768
            sum += v * v
            count += 1
            read += 1
            if count == window {
                report(Self.decibels(sum / Double(count)), Double(read) / Double(AudioFormat.sampleRate))
                sum = 0
                count = 0
            }
        }
        return n
    }

    /// 10·log10 of a mean square, floored at −120 dB (digital silence).
    static func decibels(_ meanSquare: Double) -> Double {
        meanSquare > 1e-12 ? max(-120, 10 * log10(meanSquare)) : -120
    }
}
