import CALSA
import Foundation
import VshCore

/// Plays 16-bit mono audio through an ALSA PCM ("default", "hw:0", or any name an ALSA
/// configuration defines) at the rate the device agreed to (`rate`: the requested one, or
/// the nearest it offers). A device that only plays two or more channels gets each sample
/// on every channel.
///
/// Playback starts once the device's buffer is full or on `drain()`, keeps going through
/// underruns (counted in `underruns`) and system suspends, and throws when the device goes
/// away. The `snd_pcm_t` belongs to the `AlsaPCM` this class holds: it closes on `close()`
/// or when this object goes. Not thread-safe: write, drain and stop from one thread.
package final class AlsaPlayback {
    /// The device name as given.
    package let name: String
    /// The rate the device agreed to, in samples per second; `write` expects this rate.
    package let rate: Int
    /// How many channels the device plays (1 unless it offers no mono).
    package let channels: Int
    /// How many times the device ran dry (the writer was too slow: a click or a gap).
    package private(set) var underruns = 0

    private let pcm: AlsaPCM
    /// Samples copied to every channel for a multi-channel device.
    private var interleaved: [Int16] = []

    /// Opens `device` for playback near `rate` Hz. Throws an `AudioError` naming the device,
    /// ALSA's reason and what to try when it cannot be opened or set up.
    package convenience init(device: String = "default", rate: Int = AudioFormat.sampleRate) throws {
        try self.init(device: device, rate: rate, configText: nil)
    }

    /// Opens `device` as defined in `configText`, a complete ALSA configuration used in
    /// place of the system's (nil: the system's). Tests define `file` PCMs this way.
    init(device: String, rate: Int, configText: String?) throws {
        pcm = try AlsaPCM(name: device, direction: .playback, rate: rate,
                          bufferMicroseconds: 200_000, configText: configText)
        name = device
        self.rate = pcm.rate
        channels = pcm.channels
        try pcm.setStartThreshold(pcm.bufferFrames)
    }

    /// Queues `samples` (mono, at `rate`), blocking while the device's buffer is full.
    /// Writing after `close()` is a programmer error.
    package func write(_ samples: [Int16]) throws {
        guard !samples.isEmpty else { return }
        if channels == 1 {
            try samples.withUnsafeBufferPointer { try writeFrames($0.baseAddress!, count: samples.count) }
            return
        }
        if interleaved.count < samples.count * channels {
            interleaved = [Int16](repeating: 0, count: samples.count * channels)
        }
        for (frame, sample) in samples.enumerated() {
            for channel in 0..<channels { interleaved[frame * channels + channel] = sample }
        }
        try interleaved.withUnsafeBufferPointer { try writeFrames($0.baseAddress!, count: samples.count) }
    }

    /// Writes `count` whole frames, recovering from underruns and suspends.
    private func writeFrames(_ frames: UnsafePointer<Int16>, count: Int) throws {
        guard let handle = pcm.handle else { preconditionFailure("AlsaPlayback.write after close()") }
        var done = 0
        while done < count {
            let wrote = snd_pcm_writei(handle, frames + done * channels, snd_pcm_uframes_t(count - done))
            if wrote >= 0 {
                done += wrote
            } else if try pcm.recover(from: Int32(wrote)) {
                underruns += 1
            }
        }
    }

    /// Blocks until everything queued has played, then readies the device for more.
    package func drain() throws {
        guard let handle = pcm.handle else { return }
        var err = snd_pcm_drain(handle)
        while err == -EINTR { err = snd_pcm_drain(handle) }  // a signal, not a request to stop
        if err < 0 {
            // Whatever could not drain (an underrun, a suspend) is lost; carry on if we can.
            _ = try pcm.recover(from: err)
        }
        err = snd_pcm_prepare(handle)
        if err < 0 { throw pcm.wentAway(err) }
    }

    /// Drops everything queued, silencing the device at once (for Ctrl-C), and readies it
    /// for more. Failures are left for the next `write` to report.
    package func stop() {
        guard let handle = pcm.handle else { return }
        _ = snd_pcm_drop(handle)
        _ = snd_pcm_prepare(handle)
    }

    /// Closes the device, dropping anything still queued. Safe to call twice.
    package func close() { pcm.close() }
}
