import Foundation
import VshStore
import VshCore

/// A store over a temporary directory with a clock the test moves, in a fixed zone
/// (UTC+1, no daylight saving) so day boundaries do not depend on the machine.
package final class StoreFixture {
    package let directory = TempDirectory("vsh-store")
    package let zone = TimeZone(secondsFromGMT: 3600)!
    package lazy var store = makeStore()

    /// The stores' clock, shared by every store of the fixture.
    package final class Clock: @unchecked Sendable {
        package var now: Date
        package init(_ now: Date) { self.now = now }
    }
    package let clock: Clock
    package var now: Date {
        get { clock.now }
        set { clock.now = newValue }
    }

    /// `now` as local time in the fixture's zone.
    package init(_ local: String = "2026-11-21T15:00:00") {
        clock = Clock(StoreFixture.date(local))
    }

    package static func date(_ local: String) -> Date {
        StoreDate(iso: local + "+01:00")!.date
    }

    /// Another store instance over the same directory (as another process would have).
    package func makeStore() -> TranscriptStore {
        TranscriptStore(directory: directory.file("store"), clock: { [clock] in clock.now }, timeZone: zone)
    }

    package var path: String { directory.file("store") }

    /// Records a draft at local time `at` with a WAV of `seconds`, and saves it.
    @discardableResult
    package func save(_ transcript: String, at local: String, seconds: Double = 1, title: String? = nil) throws -> TranscriptStore.Item {
        now = Self.date(local)
        let draft = try store.beginDraft(quality: .medium, sampleRate: 16000, source: "microphone default")
        WaveFixture.write(draft.audioPath, seconds: seconds)
        let updated = try store.updateDraft(draft, transcript: transcript, words: [], duration: seconds)
        return try store.save(updated, title: title)
    }

    /// A shell whose session uses this store.
    package func harness() -> ShellHarness {
        let harness = ShellHarness()
        harness.session.store = store
        return harness
    }

    deinit { directory.remove() }
}

/// 16-bit mono WAV files for tests: a rising tone, so the sparkline has a shape.
package enum WaveFixture {
    package static func bytes(seconds: Double, rate: Int = 16000, declaredDataSize: Int? = nil) -> [UInt8] {
        let count = Int(seconds * Double(rate))
        var data: [UInt8] = []
        data.reserveCapacity(count * 2)
        for i in 0..<count {
            let level = Double(i) / Double(max(1, count)) * 20000
            let sample = Int16(level * sin(Double(i) / 8))
            data += [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)]
        }
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func u16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let size = declaredDataSize ?? data.count
        return Array("RIFF".utf8) + u32(36 + size) + Array("WAVEfmt ".utf8) + u32(16) + u16(1) + u16(1)
            + u32(rate) + u32(rate * 2) + u16(2) + u16(16) + Array("data".utf8) + u32(size) + data
    }

    package static func write(_ path: String, seconds: Double, rate: Int = 16000, declaredDataSize: Int? = nil) {
        let written = FileManager.default.createFile(
            atPath: path, contents: Data(bytes(seconds: seconds, rate: rate, declaredDataSize: declaredDataSize)))
        precondition(written, "cannot write the test WAV \(path)")
    }
}
