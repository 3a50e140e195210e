import Foundation
import VshCore

/// Passes audio through and reports its level (dBFS, RMS) every `interval` seconds of
/// audio, for a meter another program draws (`vsh listen --json --levels`).
package final class LevelTap: AudioSource {
    let inner: AudioSource
    package var name: String { inner.name }
    let report: (_ level: Double, _ time: Double) -> Void
    private var meter: LevelMeter
    /// Windows measured so far.
    private var windows = 0

    /// `report` gets the level of each window and the stream time at its end.
    package init(_ inner: AudioSource, interval: Double = 0.025, report: @escaping (_ level: Double, _ time: Double) -> Void) {
        self.inner = inner
        meter = LevelMeter(window: Int(interval * Double(AudioFormat.sampleRate)))
        self.report = report
    }

    package func read(into buffer: inout [Int16]) throws -> Int {
        let n = try inner.read(into: &buffer)
        let window = meter.window
        meter.add(buffer[0..<n]) { level in
            windows += 1
            report(level, Double(windows * window) / Double(AudioFormat.sampleRate))
        }
        return n
    }
}
