import Foundation
import Testing
@testable import VshAudio
@testable import VshVoice
@testable import VshCore

/// The ALSA adapters against real ALSA, with no sound card: ALSA's `file` PCM plugin reads
/// capture input from a raw file (`infile`) and writes everything played to a file, over
/// a `null` PCM that stands in for the hardware.
///
/// How the tests point ALSA at those PCMs: each test hands its own configuration text to
/// the adapters' internal `configText:` initialisers, which open the PCM with
/// `snd_pcm_open_lconf` over a configuration parsed from that string. The alternatives,
/// ALSA_CONFIG_PATH or a HOME with an .asoundrc, are process-wide environment that ALSA
/// reads once and caches, so tests running in parallel in one process would race on them.
///
/// Two quirks of the `file` PCM shape the tests: it is not paced in real time (reads and
/// writes return at once), and once `infile` is used up capture returns old data forever
/// instead of an error, so every capture test bounds how much it reads.
@Suite struct AlsaTests {
    /// A PCM named `vshtest`: capture reads `input`, playback writes to `output`. With
    /// `stereoOnly` the null device under it accepts exactly two channels (a `multi` PCM
    /// with two bindings), like a stereo-only USB microphone.
    static func config(input: URL? = nil, output: URL? = nil, stereoOnly: Bool = false) -> String {
        let slave = stereoOnly ? "nullstereo" : "nullmono"
        return """
            pcm.nullmono { type null }
            pcm.nullstereo {
                type multi
                slaves.a { pcm nullmono channels 2 }
                bindings.0 { slave a channel 0 }
                bindings.1 { slave a channel 1 }
            }
            pcm.vshtest {
                type file
                slave.pcm \(slave)
                file "\(output?.path ?? "/dev/null")"
                \(input.map { "infile \"\($0.path)\"" } ?? "")
                format "raw"
            }
            """
    }

    /// A fresh path in the temporary directory, removed by the caller.
    static func temporaryFile(_ suffix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("vsh-alsa-\(UUID().uuidString)\(suffix)")
    }

    static func writeRaw(_ samples: [Int16], to url: URL) throws {
        let data = samples.withUnsafeBufferPointer { Data(buffer: $0) }  // x86/ARM: little-endian
        try data.write(to: url)
    }

    static func readRaw(_ url: URL) throws -> [Int16] {
        let data = try Data(contentsOf: url)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Speech-like test audio: a tone plus deterministic noise, so every sample differs.
    static func signal(count: Int, rate: Double) -> [Int16] {
        var seed: UInt32 = 12_345
        return (0..<count).map { index in
            seed = seed &* 1_103_515_245 &+ 12_345
            let noise = Double(Int(seed >> 16) % 2_001 - 1_000)
            return Int16(8_000 * sin(2 * Double.pi * 440 * Double(index) / rate) + noise)
        }
    }

    static func tone(hertz: Double, rate: Double, seconds: Double) -> [Int16] {
        (0..<Int(rate * seconds)).map { Int16(10_000 * sin(2 * Double.pi * hertz * Double($0) / rate)) }
    }

    /// Where `actual` first differs from `expected` (nil: equal), so a failure prints an
    /// index rather than two arrays of thousands of samples.
    static func firstDifference(_ actual: some Collection<Int16>, _ expected: some Collection<Int16>) -> Int? {
        if let index = zip(actual, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return index
        }
        return actual.count == expected.count ? nil : min(actual.count, expected.count)
    }

    static func zeroCrossingsPerSecond(_ samples: ArraySlice<Int16>, rate: Double) -> Double {
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / (Double(samples.count) / rate)
    }

    /// Reads `source` to its end in pieces of `chunk` samples.
    static func readAll(_ source: AudioSource, chunk: Int) throws -> [Int16] {
        var all: [Int16] = []
        var buffer = [Int16](repeating: 0, count: chunk)
        while case let count = try source.read(into: &buffer), count > 0 {
            all += buffer[..<count]
        }
        return all
    }

    @Test func captureAt16kHzReturnsTheFileSamples() throws {
        let input = Self.temporaryFile(".raw")
        defer { try? FileManager.default.removeItem(at: input) }
        let samples = Self.signal(count: 40_000, rate: 16_000)
        try Self.writeRaw(samples, to: input)

        let capture = try AlsaCapture(device: "vshtest", rate: 16_000, configText: Self.config(input: input))
        #expect(capture.name == "vshtest")
        #expect(capture.rate == 16_000)
        #expect(capture.channels == 1)
        #expect(capture.periodFrames > 0 && capture.periodFrames <= 16_000 / 50)
        var read: [Int16] = []
        var buffer = [Int16](repeating: 0, count: 320)
        while read.count < samples.count {
            let count = try capture.read(into: &buffer)
            #expect(count == buffer.count)
            read += buffer[..<count]
        }
        #expect(Self.firstDifference(read[..<samples.count], samples) == nil)
        #expect(capture.overruns == 0)
        capture.close()
        #expect(try capture.read(into: &buffer) == 0)
    }

    @Test func microphoneAt16kHzPassesSamplesThroughAndStopsAtItsBound() throws {
        let input = Self.temporaryFile(".raw")
        defer { try? FileManager.default.removeItem(at: input) }
        let samples = Self.signal(count: 24_000, rate: 16_000)
        try Self.writeRaw(samples, to: input)

        let capture = try AlsaCapture(device: "vshtest", rate: 16_000, configText: Self.config(input: input))
        let microphone = try MicrophoneSource(capture: capture, maxSeconds: 1.5)
        #expect(microphone.name == "vshtest")
        #expect(Self.firstDifference(try Self.readAll(microphone, chunk: 1_000), samples) == nil)
        var buffer = [Int16](repeating: 0, count: 10)
        #expect(try microphone.read(into: &buffer) == 0)
    }

    /// A device asked for 48 kHz delivers 48 kHz; the microphone source resamples it to
    /// 16 kHz: a third as many samples, and a 1 kHz tone still crosses zero 2,000 times a second.
    @Test func microphoneResamples48kHzTo16kHz() throws {
        let input = Self.temporaryFile(".raw")
        defer { try? FileManager.default.removeItem(at: input) }
        try Self.writeRaw(Self.tone(hertz: 1_000, rate: 48_000, seconds: 2), to: input)

        let capture = try AlsaCapture(device: "vshtest", rate: 48_000, configText: Self.config(input: input))
        #expect(capture.rate == 48_000)
        let microphone = try MicrophoneSource(capture: capture, maxSeconds: 1.5)
        let out = try Self.readAll(microphone, chunk: 512)
        #expect(out.count == 24_000)
        let steady = out[1_000...]
        #expect(abs(Self.zeroCrossingsPerSecond(steady, rate: 16_000) - 2_000) < 20)
        let peak = steady.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 9_000 && peak < 11_000)
    }

    /// A device that records only in stereo is opened in stereo and averaged to mono.
    @Test func stereoOnlyCaptureIsAveragedToMono() throws {
        let input = Self.temporaryFile(".raw")
        defer { try? FileManager.default.removeItem(at: input) }
        let left = Self.signal(count: 8_000, rate: 16_000)
        let right = left.map { $0 / 2 }
        try Self.writeRaw(zip(left, right).flatMap { [$0, $1] }, to: input)

        let capture = try AlsaCapture(
            device: "vshtest", rate: 16_000, configText: Self.config(input: input, stereoOnly: true))
        #expect(capture.channels == 2)
        var mono = [Int16](repeating: 0, count: left.count)
        #expect(try capture.read(into: &mono) == left.count)
        #expect(Self.firstDifference(mono, zip(left, right).map { Int16((Int($0) + Int($1)) / 2) }) == nil)
    }

    @Test func playbackWritesExactlyTheSamplesPlayed() throws {
        let output = Self.temporaryFile(".raw")
        defer { try? FileManager.default.removeItem(at: output) }
        let samples = Self.signal(count: 20_000, rate: 16_000)

        let playback = try AlsaPlayback(device: "vshtest", rate: 16_000, configText: Self.config(output: output))
        #expect(playback.rate == 16_000)
        #expect(playback.channels == 1)
        for start in stride(from: 0, to: samples.count, by: 700) {
            try playback.write(Array(samples[start..<min(start + 700, samples.count)]))
        }
        try playback.drain()
        playback.close()
        #expect(Self.firstDifference(try Self.readRaw(output), samples) == nil)
    }

    /// A device that plays only in stereo gets every sample on both channels.
    @Test func stereoOnlyPlaybackDuplicatesEachSample() throws {
        let output = Self.temporaryFile(".raw")
        defer { try? FileManager.default.removeItem(at: output) }
        let samples = Self.signal(count: 5_000, rate: 16_000)

        let playback = try AlsaPlayback(
            device: "vshtest", rate: 16_000, configText: Self.config(output: output, stereoOnly: true))
        #expect(playback.channels == 2)
        try playback.write(samples)
        try playback.drain()
        playback.close()
        #expect(Self.firstDifference(try Self.readRaw(output), samples.flatMap { [$0, $0] }) == nil)
    }

    /// `play` reports the level (dBFS RMS) of each 100 ms block it writes, the last, short
    /// block included, and how far it has played; what it plays is the file's samples.
    @Test func playerReportsEachBlocksLevelAndPosition() throws {
        let input = Self.temporaryFile(".raw")
        let output = Self.temporaryFile(".raw")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        // Half, a quarter and a tenth of full scale: −6.02, −12.04 and −20 dBFS.
        let samples = [Int16](repeating: 16_384, count: 1_600) + [Int16](repeating: -8_192, count: 1_600)
            + [Int16](repeating: 3_277, count: 800)
        try Self.writeRaw(samples, to: input)
        var reports: [(level: Double, position: Double)] = []
        try AudioPlayer.play(path: input.path, device: "vshtest", configText: Self.config(output: output)) {
            reports.append(($0, $1))
            return true
        }
        #expect(reports.map(\.position) == [0.1, 0.2, 0.25])
        let expected = [20 * log10(0.5), 20 * log10(0.25), 20 * log10(3_277.0 / 32_768)]
        for (report, level) in zip(reports, expected) {
            #expect(abs(report.level - level) < 0.001, "\(reports)")
        }
        #expect(Self.firstDifference(try Self.readRaw(output), samples) == nil)
    }

    /// `stop()` drops what is queued but leaves the device usable.
    @Test func playbackCarriesOnAfterStop() throws {
        let output = Self.temporaryFile(".raw")
        defer { try? FileManager.default.removeItem(at: output) }
        let playback = try AlsaPlayback(device: "vshtest", rate: 16_000, configText: Self.config(output: output))
        try playback.write([Int16](repeating: 1, count: 100))
        playback.stop()
        let after = Self.signal(count: 3_200, rate: 16_000)
        try playback.write(after)
        try playback.drain()
        playback.close()
        #expect(Self.firstDifference(try Self.readRaw(output).suffix(after.count), after) == nil)
    }

    /// Opening errors name the device, give ALSA's reason (and its own first message), and
    /// say what to try. These go through the system's ALSA configuration, as vsh does.
    @Test func unknownDevicesSayWhatToTry() {
        let name = "vsh-no-such-device"
        #expect(throws: AudioError(
            "cannot open audio capture device '\(name)': No such file or directory (Unknown PCM \(name)). "
                + "Try --audio-in DEVICE with a name from 'arecord -L', check that you are in the 'audio' "
                + "group, or give an audio file instead ('record --from FILE', or --audio-in FILE at the prompt).")) {
            try AlsaCapture(device: name)
        }
        #expect(throws: AudioError(
            "cannot open audio capture device '\(name)': No such file or directory (Unknown PCM \(name)). "
                + "Try --audio-in DEVICE with a name from 'arecord -L', check that you are in the 'audio' "
                + "group, or give an audio file instead ('record --from FILE', or --audio-in FILE at the prompt).")) {
            try MicrophoneSource(device: name)
        }
        #expect(throws: AudioError(
            "cannot open audio output device '\(name)': No such file or directory (Unknown PCM \(name)). "
                + "Try --audio-out DEVICE with a name from 'aplay -L', check that you are in the 'audio' "
                + "group, or play the recording's WAV file elsewhere ('show N' names it).")) {
            try AlsaPlayback(device: name)
        }
    }
}
