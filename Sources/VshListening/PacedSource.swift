import Foundation
import VshCore
import VshVoice

/// Audio delivered at the pace of real time, as a microphone would: each read returns
/// once its audio "has been said" (give or take `lead` seconds). When nobody read for
/// longer than `slack` (a command ran), the input waited too; its clock moves on from
/// where it was. A real device is never ahead of real time, so pacing one changes nothing;
/// it tames devices that are not (ALSA's `file` plugin, which tests use, reads a file as
/// fast as it is asked).
package final class PacedSource: AudioSource {
    let inner: AudioSource
    package var name: String { inner.name }
    static let slack = 0.5
    /// How far ahead of real time a device may run before it is held back.
    package static let deviceLead = 0.5
    let lead: Double
    private var start: Double?
    private var delivered = 0

    package init(_ inner: AudioSource, lead: Double = 0) {
        self.inner = inner
        self.lead = lead
    }

    package func read(into buffer: inout [Int16]) throws -> Int {
        let n = try inner.read(into: &buffer)
        guard n > 0 else { return 0 }
        let rate = Double(AudioFormat.sampleRate)
        let now = VoicePrompt.monotonic()
        if start == nil || now - (start! + Double(delivered) / rate) > Self.slack {
            start = now - Double(delivered) / rate
        }
        delivered += n
        let due = start! + Double(delivered) / rate - lead
        if due > now { Thread.sleep(forTimeInterval: due - now) }
        return n
    }

    /// How far into the input real time has got now (seconds): what a person listening
    /// to it would have heard by now.
    package var now: Double { start.map { VoicePrompt.monotonic() - $0 } ?? 0 }

    /// The monotonic time the last sample handed out was "captured".
    var captureClock: Double {
        (start ?? VoicePrompt.monotonic()) + Double(delivered) / Double(AudioFormat.sampleRate)
    }
}
