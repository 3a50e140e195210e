import Foundation
import Testing
import VshCore
import VshTestSupport

/// Recording through faults of the sound card and the disk, with the built binary: an
/// ALSA `file` PCM stands in for the microphone, and libVshAlsaFaults.so (preloaded,
/// Sources/CAlsaFaults) makes it overrun, stall or vanish at a chosen frame, the way
/// real devices fail. After each fault vsh says what happened, and the draft holds the
/// audio up to it (all but the last 0.5 s at worst), sample for sample.
@Suite(.tags(.slow)) struct DeviceFaultTests {
    /// The preloaded fault library, built beside the binary under test.
    static var faultLibrary: String {
        (VshBinary.path as NSString).deletingLastPathComponent + "/libVshAlsaFaults.so"
    }

    /// Half a second at 16 kHz: the most a fault may lose of what the device delivered.
    static let halfSecond = 8_000

    struct Run {
        var status: Int32
        var stderr: String
        /// The one draft's samples (after the 44-byte header); nil when there is no draft.
        var draft: [Int16]?
        var draftID: String?
        /// Frames the device had delivered when vsh stopped reading (VSH_ALSA_FRAMES).
        var delivered: Int
    }

    /// Runs `vsh -c record` from the `vshin` microphone (the librivox sentence as raw
    /// 16 kHz audio) with the ALSA `faults` (e.g. "vanish@48000") and, when given, a
    /// file-size limit of `fileBlocks` 512-byte blocks.
    func record(_ vsh: VshBinary, _ dir: TempDirectory, faults: String?, fileBlocks: Int? = nil) throws -> Run {
        let raw = try RecordTests.microphoneInput(dir)
        var env = RecordTests.alsa(dir, input: raw, output: "/dev/null")
        env["LD_PRELOAD"] = Self.faultLibrary
        env["VSH_ALSA_FRAMES"] = dir.file("frames")
        if let faults { env["VSH_ALSA_FAULT"] = faults }
        let store = vsh.home.file("store")
        let process = Process()
        let arguments = ["--store", store, "--audio-in", "vshin", "-c", "record"]
        if let fileBlocks {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -f \(fileBlocks) && exec \"$0\" \"$@\"", VshBinary.path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: VshBinary.path)
            process.arguments = arguments
        }
        process.environment = vsh.environment(env)
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readToEndRetrying(), as: UTF8.self)
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stderr: stderr, draft: Self.draftSamples(store).samples,
                   draftID: Self.draftSamples(store).id, delivered: Self.delivered(dir))
    }

    static func delivered(_ dir: TempDirectory) -> Int {
        Int((try? String(contentsOfFile: dir.file("frames"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
    }

    /// The samples of the one draft's WAV in `store`, as its header describes them.
    static func draftSamples(_ store: String) -> (id: String?, samples: [Int16]?) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store + "/drafts")) ?? []
        guard let wav = names.first(where: { $0.hasSuffix(".wav") }),
              let data = FileManager.default.contents(atPath: store + "/drafts/" + wav), data.count >= 44
        else { return (nil, nil) }
        let dataBytes = data[40..<44].withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
        let body = data.dropFirst(44).prefix(dataBytes)
        let samples = body.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
        return (String(wav.dropLast(4)), samples)
    }

    /// Where `samples` first differs from the input (from input offset `from`), or nil
    /// when it is the input sample for sample; keeps failures short.
    static func firstDifference(_ samples: ArraySlice<Int16>, from: Int = 0) throws -> Int? {
        let input = try Self.input()
        for (i, sample) in zip(samples.indices, samples) {
            let j = from + i - samples.startIndex
            if j >= input.count || input[j] != sample { return i }
        }
        return nil
    }

    /// The input's samples: what the microphone delivered, in order.
    static func input() throws -> [Int16] {
        let data = try RecordTests.wavData(RecordTests.sentence.path)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
    }

    @Test func anUnpluggedMicrophoneEndsTheRecordingAndKeepsItsAudio() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let dir = TempDirectory()
        defer { dir.remove() }
        let run = try record(vsh, dir, faults: "vanish@48000")
        #expect(run.status == 1)
        #expect(run.stderr.contains("recording stopped early: audio capture device 'vshin' went away"), "\(run.stderr)")
        #expect(run.stderr.contains("recorded until then are kept: 'save [TITLE]' keeps them"), "\(run.stderr)")
        // The device fails at the first read past frame 48,000.
        #expect(run.delivered >= 48_000 && run.delivered < 48_000 + 2_000)
        let samples = try #require(run.draft)
        #expect(samples.count >= run.delivered - Self.halfSecond && samples.count <= run.delivered)
        #expect(try Self.firstDifference(samples[...]) == nil)
        // What was kept can be saved.
        let id = try #require(run.draftID)
        let saved = try vsh.run(["--store", vsh.home.file("store"), "-c", "save --draft \(id) unplugged"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.contains("saved \(id): unplugged"))
    }

    @Test func aStalledMicrophoneEndsTheRecordingAndKeepsItsAudio() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let dir = TempDirectory()
        defer { dir.remove() }
        let run = try record(vsh, dir, faults: "stall@32000")
        #expect(run.status == 1)
        #expect(run.stderr.contains("audio capture device 'vshin' stopped sending audio (nothing for 2 s)"), "\(run.stderr)")
        #expect(run.stderr.contains("are kept"), "\(run.stderr)")
        #expect(run.delivered >= 32_000 && run.delivered < 32_000 + 2_000)
        let samples = try #require(run.draft)
        #expect(samples.count >= run.delivered - Self.halfSecond && samples.count <= run.delivered)
        #expect(try Self.firstDifference(samples[...]) == nil)
    }

    /// An overrun loses the audio that arrived while nobody read (the fault drops 100 ms);
    /// recording goes on after it, and the person is told there is a gap.
    @Test func anOverrunLeavesAGapAndRecordingGoesOn() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let dir = TempDirectory()
        defer { dir.remove() }
        let run = try record(vsh, dir, faults: "overrun@16000,vanish@64000")
        #expect(run.stderr.contains("warning: the microphone overran 1 time"), "\(run.stderr)")
        let samples = try #require(run.draft)
        #expect(samples.count > 48_000, "recording did not go on after the overrun")
        // Identical up to the overrun (at the first read past frame 16,000), then 100 ms
        // (1,600 samples) of the input are missing, then identical again.
        let gap = try #require(try Self.firstDifference(samples[...]), "no gap in the recording")
        #expect(gap >= 16_000 && gap < 16_000 + 2_000)
        #expect(try Self.firstDifference(samples[gap..<min(samples.count, gap + 30_000)], from: gap + 1_600) == nil)
    }

    /// At a file-size limit (a full disk, as far as the recording can tell) the recording
    /// ends with a message, the draft keeps all the audio that fitted, and once there is
    /// room again it can be saved.
    @Test func aFullDiskEndsTheRecordingAndKeepsWhatFitted() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let dir = TempDirectory()
        defer { dir.remove() }
        let run = try record(vsh, dir, faults: nil, fileBlocks: 200)
        #expect(run.status == 1)
        #expect(run.stderr.contains("recording stopped early: cannot write audio file"), "\(run.stderr)")
        #expect(run.stderr.contains("are kept"), "\(run.stderr)")
        let samples = try #require(run.draft)
        let fitted = (200 * 512 - 44) / 2
        #expect(samples.count >= fitted - Self.halfSecond && samples.count <= fitted)
        #expect(try Self.firstDifference(samples[...]) == nil)
        let id = try #require(run.draftID)
        let saved = try vsh.run(["--store", vsh.home.file("store"), "-c", "save --draft \(id) full disk"])
        #expect(saved.status == 0, "\(saved.stderr)")
    }

    /// kill -9 at random moments while recording: the draft holds everything the device
    /// had delivered but the last 0.5 s at most (the writer appends every 30 ms read).
    @Test func killedWhileRecordingLosesAtMostHalfASecond() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<3 {
            let vsh = VshBinary()
            defer { vsh.remove() }
            let dir = TempDirectory()
            defer { dir.remove() }
            let store = vsh.home.file("store")
            let process = try RecordTests.startMicrophoneRecording(
                vsh, dir, store: store,
                environment: ["LD_PRELOAD": Self.faultLibrary, "VSH_ALSA_FRAMES": dir.file("frames")])
            let target = Int.random(in: 8_000...80_000, using: &random)
            let deadline = Date().addingTimeInterval(20)
            while Self.delivered(dir) < target && Date() < deadline { usleep(2_000) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let delivered = Self.delivered(dir)
            let samples = try #require(Self.draftSamples(store).samples, "no draft after kill -9")
            #expect(delivered >= target)
            #expect(samples.count >= delivered - Self.halfSecond && samples.count <= delivered,
                    "kept \(samples.count) of \(delivered) samples delivered")
            #expect(try Self.firstDifference(samples[...]) == nil)
        }
    }
}
