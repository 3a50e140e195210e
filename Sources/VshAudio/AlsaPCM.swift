import CALSA
import CVshShims
import Foundation
import VshCore
import VshStore

/// Which way audio flows through an `AlsaPCM`, and the words its messages use.
enum AlsaDirection {
    case capture, playback

    var stream: snd_pcm_stream_t { self == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK }
    /// "capture" or "output", as in "audio capture device 'default'".
    var noun: String { self == .capture ? "capture" : "output" }
    /// The vsh option that picks another device.
    var option: String { self == .capture ? "--audio-in" : "--audio-out" }
    /// The command that lists device names for this direction.
    var lister: String { self == .capture ? "arecord -L" : "aplay -L" }
    /// The advice that ends every message: how to carry on without this device (a file
    /// stands in for a microphone; a recording's WAV file plays anywhere).
    var fallback: String {
        self == .capture
            ? "give an audio file instead ('record --from FILE', or --audio-in FILE at the prompt)"
            : "play the recording's WAV file elsewhere ('show N' names it)"
    }
}

/// An open ALSA PCM set up for interleaved signed 16-bit little-endian samples: the one
/// owner of the `snd_pcm_t`, closed by `close()` or `deinit`. `AlsaCapture` and
/// `AlsaPlayback` build on it. Not thread-safe: one thread uses it at a time.
///
/// Opening also routes ALSA's own error messages away from stderr (they would garble the
/// prompt) into a per-thread buffer (see `vsh_alsa_capture_errors`), so a failure can quote
/// ALSA's first message, which usually names the cause ("cannot find card '0'").
final class AlsaPCM {
    /// The PCM name as given: "default", "hw:0", "plughw:CARD=Mic", or one from a config.
    let name: String
    let direction: AlsaDirection
    /// Owned `snd_pcm_t *`; nil once closed.
    private(set) var handle: OpaquePointer?
    /// What the device agreed to: frames per second, channels per frame, and the sizes in
    /// frames of one period (ALSA's unit of wake-ups) and of the whole ring buffer.
    let rate: Int
    let channels: Int
    let periodFrames: Int
    let bufferFrames: Int

    /// Opens `name` and sets it up: 16-bit samples, `rate` Hz or the nearest the device
    /// offers, one channel or the fewest the device offers, periods and buffer near the
    /// given durations. `configText`, when given, is a complete ALSA configuration in which
    /// `name` is looked up instead of the system's (tests use it to define `file` PCMs).
    init(name: String, direction: AlsaDirection, rate: Int,
         periodMicroseconds: UInt32 = 20_000, bufferMicroseconds: UInt32 = 400_000,
         configText: String? = nil) throws {
        self.name = name
        self.direction = direction
        vsh_alsa_capture_errors()
        vsh_alsa_clear_error()
        // Open non-blocking, so a device another program holds fails at once with EBUSY
        // instead of hanging vsh until it is free; then block in reads and writes as usual.
        var pcm: OpaquePointer?
        var err = configText.map { AlsaPCM.open(&pcm, name, direction.stream, configText: $0) }
            ?? snd_pcm_open(&pcm, name, direction.stream, SND_PCM_NONBLOCK)
        guard err >= 0, let pcm else { throw AlsaPCM.openError(name, direction, err) }
        err = snd_pcm_nonblock(pcm, 0)
        do throws(SetupFailure) {
            if err < 0 { throw SetupFailure(what: "cannot be switched to blocking reads and writes", code: err) }
            let setup = try AlsaPCM.configure(
                pcm, rate: rate, periodMicroseconds: periodMicroseconds, bufferMicroseconds: bufferMicroseconds)
            (self.rate, self.channels, self.periodFrames, self.bufferFrames) = setup
        } catch {
            snd_pcm_close(pcm)
            throw AlsaPCM.setupError(name, direction, error)
        }
        handle = pcm
    }

    /// A step of `configure` that the device refused, and ALSA's error code.
    private struct SetupFailure: Error {
        var what: String
        var code: Int32
    }

    /// Negotiates the hardware parameters; returns rate, channels, period and buffer frames.
    private static func configure(_ pcm: OpaquePointer, rate: Int, periodMicroseconds: UInt32,
                                  bufferMicroseconds: UInt32) throws(SetupFailure) -> (Int, Int, Int, Int) {
        var hw: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hw) >= 0, let hw else { fatalError("out of memory for ALSA hw params") }
        defer { snd_pcm_hw_params_free(hw) }
        func check(_ code: Int32, _ what: @autoclosure () -> String) throws(SetupFailure) {
            if code < 0 { throw SetupFailure(what: what(), code: code) }
        }
        try check(snd_pcm_hw_params_any(pcm, hw), "reports no usable configuration")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED),
                  "does not offer interleaved read/write access")
        try check(snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE), "does not take 16-bit samples")
        var channels: UInt32 = 1
        try check(snd_pcm_hw_params_set_channels_near(pcm, hw, &channels), "offers no channel count")
        var rateNear = UInt32(clamping: rate)
        var dir: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rateNear, &dir), "does not run at or near \(rate) Hz")
        // Best effort: a device that cannot come near these keeps its own sizes, still usable.
        var period = periodMicroseconds, buffer = bufferMicroseconds
        _ = snd_pcm_hw_params_set_period_time_near(pcm, hw, &period, &dir)
        _ = snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &buffer, &dir)
        try check(snd_pcm_hw_params(pcm, hw),
                  "cannot be set up for \(channels)-channel 16-bit audio at \(rateNear) Hz")
        var periodSize: snd_pcm_uframes_t = 0, bufferSize: snd_pcm_uframes_t = 0
        _ = snd_pcm_hw_params_get_period_size(hw, &periodSize, &dir)
        _ = snd_pcm_hw_params_get_buffer_size(hw, &bufferSize)
        return (Int(rateNear), Int(channels), max(1, Int(periodSize)), max(1, Int(bufferSize)))
    }

    deinit { close() }

    /// Closes the device at once (queued output is dropped). Safe to call twice.
    func close() {
        if let handle { snd_pcm_close(handle) }
        handle = nil
    }

    /// Sets how many frames must be queued before playback starts (ALSA's default, one
    /// frame, starts at the first write and underruns while the writer is still filling).
    func setStartThreshold(_ frames: Int) throws {
        guard let handle else { return }
        var sw: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&sw) >= 0, let sw else { fatalError("out of memory for ALSA sw params") }
        defer { snd_pcm_sw_params_free(sw) }
        var err = snd_pcm_sw_params_current(handle, sw)
        if err >= 0 { err = snd_pcm_sw_params_set_start_threshold(handle, sw, snd_pcm_uframes_t(frames)) }
        if err >= 0 { err = snd_pcm_sw_params(handle, sw) }
        if err < 0 {
            let failure = SetupFailure(what: "does not accept a start threshold of \(frames) frames", code: err)
            throw AlsaPCM.setupError(name, direction, failure)
        }
    }

    /// Brings the stream back after a failed transfer returned `code`, and says whether it
    /// was an xrun (overrun or underrun) worth counting. An xrun (-EPIPE) re-prepares the
    /// stream; a suspend (-ESTRPIPE) resumes it, waiting while the system wakes, else
    /// re-prepares; an interrupted call (-EINTR) needs nothing. Anything else, -ENODEV
    /// (unplugged) above all, means the device went away: that throws.
    func recover(from code: Int32) throws -> Bool {
        guard let handle else { throw wentAway(-EBADFD) }
        switch code {
        case -EINTR, -EAGAIN:
            return false
        case -EPIPE:
            let err = snd_pcm_prepare(handle)
            if err < 0 { throw wentAway(err) }
            return true
        case -ESTRPIPE:
            var err = snd_pcm_resume(handle)
            var waited = 0
            while err == -EAGAIN && waited < 100 {  // up to 10 s for the system to resume
                usleep(100_000)
                waited += 1
                err = snd_pcm_resume(handle)
            }
            if err < 0 { err = snd_pcm_prepare(handle) }
            if err < 0 { throw wentAway(err) }
            return false
        default:
            throw wentAway(code)
        }
    }

    /// ALSA's words for an error code ("No such device").
    static func reason(_ code: Int32) -> String { String(cString: snd_strerror(code)) }

    /// The error for a device that failed mid-stream.
    func wentAway(_ code: Int32) -> AudioError {
        AudioError("audio \(direction.noun) device '\(name)' went away: \(AlsaPCM.reason(code)). "
            + "Check that it is still plugged in and restart vsh, or \(direction.fallback).")
    }

    /// The error for a device that opened but cannot be set up the way vsh needs.
    private static func setupError(_ name: String, _ direction: AlsaDirection, _ failure: SetupFailure) -> AudioError {
        AudioError("audio \(direction.noun) device '\(name)' \(failure.what): \(reason(failure.code)). "
            + "Try it through ALSA's converter (for 'hw:0' use 'plughw:0'), or 'default', with "
            + "\(direction.option) DEVICE, or \(direction.fallback).")
    }

    /// The error for a device that would not open, quoting ALSA's own first message.
    static func openError(_ name: String, _ direction: AlsaDirection, _ code: Int32) -> AudioError {
        let reason = AlsaPCM.reason(code)
        let alsa = String(cString: vsh_alsa_first_error())
        let detail = alsa.isEmpty || alsa == reason ? "" : " (\(alsa))"
        let advice = code == -EBUSY
            ? "Close the program that is using it, try \(direction.option) DEVICE with a name from "
                + "'\(direction.lister)', or \(direction.fallback)."
            : "Try \(direction.option) DEVICE with a name from '\(direction.lister)', check that you "
                + "are in the 'audio' group, or \(direction.fallback)."
        return AudioError("cannot open audio \(direction.noun) device '\(name)': \(reason)\(detail). \(advice)")
    }

    /// Opens `name` as defined in `configText` rather than the system configuration.
    /// The parsed configuration is freed on return: an open PCM keeps no reference to it
    /// (snd_pcm_open itself releases the global configuration right after opening).
    private static func open(_ pcm: inout OpaquePointer?, _ name: String, _ stream: snd_pcm_stream_t,
                             configText: String) -> Int32 {
        var top: OpaquePointer?
        var err = snd_config_top(&top)
        guard err >= 0, let top else { return err }
        defer { snd_config_delete(top) }
        err = configText.withCString { text -> Int32 in
            var input: OpaquePointer?
            let opened = snd_input_buffer_open(&input, text, strlen(text))
            guard opened >= 0, let input else { return opened }
            defer { snd_input_close(input) }
            return snd_config_load(top, input)
        }
        guard err >= 0 else { return err }
        return snd_pcm_open_lconf(&pcm, name, stream, SND_PCM_NONBLOCK, top)
    }
}
