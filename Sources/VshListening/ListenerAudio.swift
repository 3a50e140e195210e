import Foundation
import VshCore
import VshVoice

/// The prompt listener's audio: a capture device, or a file played in as if it were one.
/// The prompt pauses it while a command runs and while it decides an utterance (only one
/// reader of the input at a time): a paused listener waits in `read`. When `record` needs the input, a device is closed
/// until the listener reads again, and a file is handed over at the point the listener
/// reached, so the recording goes on with the same stream.
package final class ListenerAudio: AudioSource, @unchecked Sendable {
    package let input: AudioInput
    /// Files play at real-time pace unless this is false (`--fast`).
    let paced: Bool
    let openers: AudioOpeners

    package var name: String {
        switch input {
        case .device(let device): device
        case .file(let path): (path as NSString).lastPathComponent
        }
    }
    /// How the prompt names the input: `microphone default`, `file s2.wav`.
    package var description: String {
        switch input {
        case .device(let device): "microphone \(device)"
        case .file: "file \(name)" + (paced ? "" : ", fast")
        }
    }

    /// Who may read: the prompt pauses and resumes the listener (`VoicePrompt`), `record`
    /// waits until a paused listener is parked.
    private struct Flow {
        var paused = true
        /// The listener waits in `read`.
        var parked = false
        /// The input is open on the listener thread.
        var reading = false
        var stopped = false
        /// The device was closed for another reader; the listener reopens it.
        var released = false
    }
    private let flow = Locked(Flow())

    // The listener thread's own, touched by another thread only while it is parked.
    private var microphone: AudioDevice?
    private var stream: AudioSource?
    /// The file's pacer, whose clock says when its audio was "captured".
    private var pacer: PacedSource?
    /// Samples the listener has read, and the monotonic time the last one was captured.
    private var seen = 0
    private var lastClock = 0.0

    package init(input: AudioInput, paced: Bool, openers: AudioOpeners) {
        self.input = input
        self.paced = paced
        self.openers = openers
    }

    /// Opens the input; on the listener thread, before it reads.
    func open() throws {
        switch input {
        case .device(let device):
            try openDevice(device)
        case .file(let path):
            let file = try openers.file(path)
            if paced {
                let pacer = PacedSource(file)
                self.pacer = pacer
                stream = pacer
            } else {
                stream = file
            }
        }
        flow.withLock { $0.reading = true }
    }

    private func openDevice(_ device: String) throws {
        let microphone = try openers.device(device)
        self.microphone = microphone
        stream = PacedSource(microphone, lead: PacedSource.deviceLead)
    }

    /// Closes the input; the listener thread is done with it.
    func close() {
        flow.withLock { $0.reading = false }
        microphone?.close()
    }

    package func read(into buffer: inout [Int16]) throws -> Int {
        // One hold of the lock from the check to the wait: a pause that lands in between
        // would leave `record` waiting for a listener that never says it is parked.
        let (reopen, stopped) = flow.wait(
            until: { !$0.paused || $0.stopped }, prepare: { if $0.paused && !$0.stopped { $0.parked = true } }
        ) { flow in
            flow.parked = false
            defer { flow.released = false }
            return (flow.released, flow.stopped)
        }!
        if stopped { return 0 }
        if reopen, case .device(let device) = input { try openDevice(device) }
        guard let stream else { return 0 }
        let n = try stream.read(into: &buffer)
        seen += n
        lastClock = pacer?.captureClock ?? VoicePrompt.monotonic()
        return n
    }

    /// The monotonic time at which the audio at `time` (seconds of what the listener
    /// read) was captured. Good for times since the listener's last stretch of reading.
    func clock(at time: Double) -> Double {
        lastClock - (Double(seen) / Double(AudioFormat.sampleRate) - time)
    }

    package func pause() { flow.withLock { $0.paused = true } }

    package func resume() { flow.withLock { $0.paused = false } }

    package var isStopped: Bool { flow.withLock { $0.stopped } }

    /// Ends the listener: a waiting read returns 0.
    package func stop() { flow.withLock { $0.stopped = true } }

    /// Waits until the listener is parked in `read` (or not reading at all), so that
    /// another reader may use the input. The prompt paused it while the command that asks
    /// runs (`VoicePrompt.promptIsBusy`); a listener that was not paused never parks, and
    /// this says false after `timeout`.
    func waitUntilParked(timeout: Double = 5) -> Bool {
        flow.wait(until: { !$0.reading || ($0.paused && $0.parked) }, deadline: Date().addingTimeInterval(timeout)) { _ in true }
            ?? false
    }

    /// For `record` from a device: closes it until the listener reads again.
    package func releaseDevice() {
        guard waitUntilParked(), let microphone else { return }
        microphone.close()
        self.microphone = nil
        stream = nil
        flow.withLock { $0.released = true }
    }

    /// For `record` from a file: the stream where the listener left it, while the
    /// listener waits; nil when it is not open or the listener did not stop.
    package func sharedStream() -> AudioSource? {
        guard waitUntilParked() else { return nil }
        return stream
    }
}
