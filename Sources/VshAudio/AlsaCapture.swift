import CALSA
import Foundation
import VshCore

/// Records 16-bit mono audio from an ALSA PCM ("default", "hw:0", "plughw:CARD=Mic", or
/// any name an ALSA configuration defines), at the requested rate or, when the device
/// cannot, the nearest rate it offers (`rate` says which). A device that only records
/// two or more channels is opened that way and averaged down to mono.
///
/// Keeps going through overruns (counted in `overruns`) and system suspends; throws when
/// the device goes away or stalls (delivers nothing for `stallSeconds`). Reads wait with a
/// timeout and then take what is there (the stream is non-blocking), so a device that
/// stops delivering cannot hang vsh in a read. The `snd_pcm_t` belongs to the `AlsaPCM`
/// this class holds: it closes on `close()` or when this object goes. Not thread-safe:
/// read and close from one thread.
package final class AlsaCapture {
    /// The device name as given.
    package let name: String
    /// The rate the device agreed to, in samples per second; `read` returns this rate.
    package let rate: Int
    /// How many channels the device records (1 unless it offers no mono).
    package let channels: Int
    /// Frames per ALSA period (10–20 ms when the device allows): a good read size.
    package let periodFrames: Int
    /// How many times the device overran (the reader was too slow and audio was lost).
    package private(set) var overruns = 0
    /// How long the device may deliver nothing before a read gives up: a working device
    /// delivers a period every 10–20 ms.
    package static let stallSeconds = 2.0

    private let pcm: AlsaPCM
    /// Interleaved frames read from a multi-channel device, before averaging.
    private var interleaved: [Int16] = []

    /// Opens `device` for capture near `rate` Hz. Throws an `AudioError` naming the device,
    /// ALSA's reason and what to try when it cannot be opened or set up.
    package convenience init(device: String = "default", rate: Int = AudioFormat.sampleRate) throws {
        try self.init(device: device, rate: rate, configText: nil)
    }

    /// Opens `device` as defined in `configText`, a complete ALSA configuration used in
    /// place of the system's (nil: the system's). Tests define `file` PCMs this way.
    init(device: String, rate: Int, configText: String?) throws {
        pcm = try AlsaPCM(name: device, direction: .capture, rate: rate, configText: configText)
        name = device
        self.rate = pcm.rate
        channels = pcm.channels
        periodFrames = pcm.periodFrames
        if let handle = pcm.handle, snd_pcm_nonblock(handle, 1) < 0 {
            throw AudioError("audio capture device '\(device)' cannot be read without blocking; try 'default' with --audio-in, or run with --no-voice to type only")
        }
    }

    /// Fills `buffer` with mono samples at `rate`, blocking until it is full, and returns
    /// how many it wrote: `buffer.count`, or 0 once closed.
    package func read(into buffer: inout [Int16]) throws -> Int {
        try buffer.withUnsafeMutableBufferPointer { try read(into: $0) }
    }

    /// As `read(into:)`, into memory the caller owns.
    func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        if channels == 1 { return try readFrames(into: base, count: buffer.count) }
        if interleaved.count < buffer.count * channels {
            interleaved = [Int16](repeating: 0, count: buffer.count * channels)
        }
        let frames = try interleaved.withUnsafeMutableBufferPointer {
            try readFrames(into: $0.baseAddress!, count: buffer.count)
        }
        for frame in 0..<frames {
            var sum = 0
            for channel in 0..<channels { sum += Int(interleaved[frame * channels + channel]) }
            buffer[frame] = Int16(sum / channels)
        }
        return frames
    }

    /// Reads `count` whole frames into `frames`, recovering from overruns and suspends.
    /// Asks for at most one buffer's worth per call: plugins such as `file` cannot serve
    /// more in one go (it then skips its input file and returns silence). Waits at most
    /// `stallSeconds` for audio that does not come, then throws.
    private func readFrames(into frames: UnsafeMutablePointer<Int16>, count: Int) throws -> Int {
        var done = 0
        var lastAudio = DispatchTime.now().uptimeNanoseconds
        func stalling() -> Bool {
            Double(DispatchTime.now().uptimeNanoseconds - lastAudio) / 1e9 >= Self.stallSeconds
        }
        while done < count {
            guard let handle = pcm.handle else { return done }
            // A capture stream runs from its first read; waiting on one that has not
            // started (or was re-prepared after an overrun) would wait for nothing.
            if snd_pcm_state(handle) == SND_PCM_STATE_PREPARED {
                let err = snd_pcm_start(handle)
                if err < 0, try pcm.recover(from: err) { overruns += 1 }
            }
            let ready = snd_pcm_wait(handle, 250)
            if ready == 0 {
                if stalling() { throw stalled() }
                continue
            }
            if ready < 0 {
                if try pcm.recover(from: ready) { overruns += 1 }
                continue
            }
            let ask = min(count - done, pcm.bufferFrames)
            let got = snd_pcm_readi(handle, frames + done * channels, snd_pcm_uframes_t(ask))
            if got > 0 {
                done += got
                lastAudio = DispatchTime.now().uptimeNanoseconds
            } else if got < 0, try pcm.recover(from: Int32(got)) {
                overruns += 1
            } else if stalling() {
                throw stalled()
            }
        }
        return done
    }

    /// The error for a device that stopped delivering audio.
    private func stalled() -> AudioError {
        AudioError(String(format: "audio capture device '%@' stopped sending audio (nothing for %.0f s). ", name, Self.stallSeconds)
            + "Check that it is still plugged in and not in use by another program, then try again; "
            + "or give an audio file instead ('record --from FILE', or --audio-in FILE at the prompt).")
    }

    /// Stops recording and closes the device; later reads return 0. Safe to call twice.
    package func close() { pcm.close() }
}
