import Foundation
import VshAudio
import VshCore
import VshStore
import VshVoice
import VshCommandFiles
import VshCommands

/// The prompt listener's audio: a capture device, or a file played in as if it were one.
/// The prompt pauses it while a command runs (only one reader of the input at a time):
/// a paused listener waits in `read`. When `record` needs the input, a device is closed
/// until the listener reads again, and a file is handed over at the point the listener
/// reached, so the recording goes on with the same stream.
final class ListenerAudio: AudioSource, @unchecked Sendable {
    enum Input: Sendable, Equatable {
        case device(String)
        case file(String)

        /// An existing file, or a name that looks like a path, is a file; else an ALSA device.
        static func resolve(_ name: String) -> Input {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory), !isDirectory.boolValue {
                return .file(name)
            }
            let audio = ["wav", "flac", "ogg", "raw"].contains((name as NSString).pathExtension.lowercased())
            return name.contains("/") || audio ? .file(name) : .device(name)
        }
    }

    let input: Input
    /// Files play at real-time pace unless this is false (`--fast`).
    let paced: Bool
    var name: String {
        switch input {
        case .device(let device): device
        case .file(let path): (path as NSString).lastPathComponent
        }
    }
    /// How the prompt names the input: `microphone default`, `file s2.wav`.
    var description: String {
        switch input {
        case .device(let device): "microphone \(device)"
        case .file: "file \(name)" + (paced ? "" : ", fast")
        }
    }

    private let condition = NSCondition()
    private var paused = true
    private var parked = false
    private var reading = false
    private var stopped = false
    /// The device was closed for another reader; the listener reopens it.
    private var released = false
    private var microphone: MicrophoneSource?
    private var stream: AudioSource?
    /// The file's pacer, whose clock says when its audio was "captured".
    private var pacer: PacedSource?
    /// Samples the listener has read, and the monotonic time the last one was captured.
    private var seen = 0
    private var lastClock = 0.0

    init(input: Input, paced: Bool) {
        self.input = input
        self.paced = paced
    }

    /// Opens the input; on the listener thread, before it reads.
    func open() throws {
        switch input {
        case .device(let device):
            let microphone = try MicrophoneSource(device: device)
            self.microphone = microphone
            stream = PacedSource(microphone, lead: PacedSource.deviceLead)
        case .file(let path):
            let file = try FileAudioSource(path: path)
            if paced {
                let pacer = PacedSource(file)
                self.pacer = pacer
                stream = pacer
            } else {
                stream = file
            }
        }
        condition.lock()
        reading = true
        condition.unlock()
    }

    /// Closes the input; the listener thread is done with it.
    func close() {
        condition.lock()
        reading = false
        condition.broadcast()
        condition.unlock()
        microphone?.close()
    }

    func read(into buffer: inout [Int16]) throws -> Int {
        condition.lock()
        if paused && !stopped {
            parked = true
            condition.broadcast()
            while paused && !stopped { condition.wait() }
            parked = false
        }
        let reopen = released
        released = false
        let stopped = self.stopped
        condition.unlock()
        if stopped { return 0 }
        if reopen, case .device(let device) = input {
            let microphone = try MicrophoneSource(device: device)
            self.microphone = microphone
            stream = PacedSource(microphone, lead: PacedSource.deviceLead)
        }
        guard let stream else { return 0 }
        let n = try stream.read(into: &buffer)
        seen += n
        lastClock = pacer?.captureClock ?? VoicePrompt.monotonic()
        return n
    }

    /// The monotonic time at which the audio at `time` (seconds of what the listener
    /// read) was captured. Good for times since the listener's last stretch of reading.
    func clock(at time: Double) -> Double {
        lastClock - (Double(seen) / Double(MicrophoneSource.outputRate) - time)
    }

    func pause() {
        condition.lock()
        paused = true
        condition.unlock()
    }

    func resume() {
        condition.lock()
        paused = false
        condition.broadcast()
        condition.unlock()
    }

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Ends the listener: a waiting read returns 0.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Pauses and waits until the listener is parked in `read` (or not reading at all), so
    /// that another reader may use the input. False when it did not park in time.
    private func parkListener(timeout: Double = 5) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        paused = true
        let deadline = Date().addingTimeInterval(timeout)
        while reading && !parked {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// For `record` from a device: closes it until the listener reads again.
    func releaseDevice() {
        guard parkListener(), let microphone else { return }
        microphone.close()
        self.microphone = nil
        stream = nil
        condition.lock()
        released = true
        condition.unlock()
    }

    /// For `record` from a file: the stream where the listener left it, while the
    /// listener waits; nil when it is not open or the listener did not stop.
    func sharedStream() -> AudioSource? {
        guard parkListener() else { return nil }
        return stream
    }
}

/// Audio delivered at the pace of real time, as a microphone would: each read returns
/// once its audio "has been said" (give or take `lead` seconds). When nobody read for
/// longer than `slack` (a command ran), the input waited too; its clock moves on from
/// where it was. A real device is never ahead of real time, so pacing one changes nothing;
/// it tames devices that are not (ALSA's `file` plugin, which tests use, reads a file as
/// fast as it is asked).
final class PacedSource: AudioSource {
    let inner: AudioSource
    var name: String { inner.name }
    static let slack = 0.5
    /// How far ahead of real time a device may run before it is held back.
    static let deviceLead = 0.5
    let lead: Double
    private var start: Double?
    private var delivered = 0

    init(_ inner: AudioSource, lead: Double = 0) {
        self.inner = inner
        self.lead = lead
    }

    func read(into buffer: inout [Int16]) throws -> Int {
        let n = try inner.read(into: &buffer)
        guard n > 0 else { return 0 }
        let rate = Double(FileAudioSource.outputRate)
        let now = VoicePrompt.monotonic()
        if start == nil || now - (start! + Double(delivered) / rate) > Self.slack {
            start = now - Double(delivered) / rate
        }
        delivered += n
        let due = start! + Double(delivered) / rate - lead
        if due > now { Thread.sleep(forTimeInterval: due - now) }
        return n
    }

    /// The monotonic time the last sample handed out was "captured".
    var captureClock: Double {
        (start ?? VoicePrompt.monotonic()) + Double(delivered) / Double(FileAudioSource.outputRate)
    }
}
