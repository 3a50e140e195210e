import CSndFile
import Foundation
import Synchronization
import Testing
@testable import VshAudioFiles
import VshCore
import VshTestSupport
@testable import VshAudio
@testable import VshStore

/// FileAudioSource on real files that sox writes at test time, and WavWriter read back.
@Suite struct AudioFileTests {
    /// A file sox makes: its name (the extension picks the format) and sox's output options.
    struct Encoding: Sendable, CustomStringConvertible {
        var file: String
        var options: [String]
        var rate: Int
        var channels: Int
        var description: String { file }
    }

    static let encodings = [
        Encoding(file: "u8-22050-mono.wav", options: ["-b", "8", "-e", "unsigned-integer"], rate: 22_050, channels: 1),
        Encoding(file: "s16-48000-mono.wav", options: ["-b", "16"], rate: 48_000, channels: 1),
        Encoding(file: "s24-44100-stereo.wav", options: ["-b", "24"], rate: 44_100, channels: 2),
        Encoding(file: "s32-32000-mono.wav", options: ["-b", "32", "-e", "signed-integer"], rate: 32_000, channels: 1),
        Encoding(file: "f32-16000-mono.wav", options: ["-b", "32", "-e", "floating-point"], rate: 16_000, channels: 1),
        Encoding(file: "s16-44100-stereo.wav", options: ["-b", "16"], rate: 44_100, channels: 2),
        Encoding(file: "s16-8000-mono.wav", options: ["-b", "16"], rate: 8_000, channels: 1),
        Encoding(file: "s16-44100-stereo.flac", options: ["-b", "16"], rate: 44_100, channels: 2),
        Encoding(file: "vorbis-22050-stereo.ogg", options: [], rate: 22_050, channels: 2),
    ]

    /// One second of a 440 Hz sine at half scale becomes one second at 16 kHz, with 880
    /// zero crossings a second and the RMS of a half-scale sine, whatever the encoding.
    @Test(arguments: encodings)
    func sineKeepsItsLengthPitchAndLevel(_ encoding: Encoding) throws {
        let dir = TempDirectory("vsh-audiofile")
        defer { dir.remove() }
        let path = dir.file(encoding.file)
        try sox(["-n", "-r", "\(encoding.rate)", "-c", "\(encoding.channels)"] + encoding.options
            + [path, "synth", "1", "sine", "440", "vol", "0.5"])

        let source = try FileAudioSource(path: path)
        #expect(source.sampleRate == encoding.rate)
        #expect(source.channels == encoding.channels)
        #expect(abs(source.duration - 1) < 0.001)
        #expect(source.name == path)

        let samples = try FileAudioSource.readAll(path: path)
        #expect(abs(samples.count - 16_000) <= 16)
        let steady = Array(samples.dropFirst(800).dropLast(800))
        let perSecond = Double(zeroCrossings(steady)) * 16_000 / Double(steady.count)
        #expect(abs(perSecond - 880) < 880 * 0.02, "\(perSecond) crossings a second")
        let expected = 0.5 * 32_768 / 2.0.squareRoot()
        #expect(abs(rms(steady) - expected) < expected * 0.05, "RMS \(rms(steady))")
    }

    /// MP3 is read too (libsndfile with mpg123), as the README says: a second of a 440 Hz
    /// sine comes out at its pitch and level, its length within the encoder's padding.
    @Test func mp3IsRead() throws {
        let dir = TempDirectory("vsh-audiofile")
        defer { dir.remove() }
        let path = dir.file("sine.mp3")
        var info = SF_INFO()
        info.samplerate = 44_100
        info.channels = 1
        info.format = Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
        let file = try #require(sf_open(path, Int32(SFM_WRITE), &info), "libsndfile cannot write MP3: \(String(cString: sf_strerror(nil)))")
        let sine = (0..<44_100).map { Int16(16_384 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
        #expect(sf_write_short(file, sine, sf_count_t(sine.count)) == sf_count_t(sine.count))
        sf_close(file)

        let source = try FileAudioSource(path: path)
        #expect(source.sampleRate == 44_100)
        #expect(abs(source.duration - 1) < 0.1, "\(source.duration) s")
        let samples = try FileAudioSource.readAll(path: path)
        let steady = Array(samples.dropFirst(1_600).dropLast(1_600))
        let perSecond = Double(zeroCrossings(steady)) * 16_000 / Double(steady.count)
        #expect(abs(perSecond - 880) < 880 * 0.02, "\(perSecond) crossings a second")
        let expected = 0.5 * 32_768 / 2.0.squareRoot()
        #expect(abs(rms(steady) - expected) < expected * 0.1, "RMS \(rms(steady))")
    }

    /// Stereo is averaged: a sine on the left and silence on the right gives half the sine.
    @Test func channelsAreAveraged() throws {
        let dir = TempDirectory("vsh-audiofile")
        defer { dir.remove() }
        try sox(["-D", "-n", "-r", "16000", "-c", "1", "-b", "16", dir.file("mono.wav"), "synth", "0.5", "sine", "440"])
        try sox(["-D", dir.file("mono.wav"), dir.file("left.wav"), "remix", "1", "0"])
        let mono = try FileAudioSource.readAll(path: dir.file("mono.wav"))
        let left = try FileAudioSource.readAll(path: dir.file("left.wav"))
        #expect(try FileAudioSource(path: dir.file("left.wav")).channels == 2)
        #expect(left.count == mono.count)
        let worst = zip(mono, left).map { abs(Int($0) - 2 * Int($1)) }.max() ?? 0
        #expect(worst <= 1)
    }

    /// Reading in small pieces gives what readAll gives, and the stream then stays ended.
    @Test func smallReadsMatchReadAll() throws {
        let dir = TempDirectory("vsh-audiofile")
        defer { dir.remove() }
        let path = dir.file("in.wav")
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", "2.3", "sine", "300", "vol", "0.3"])
        let whole = try FileAudioSource.readAll(path: path)
        for size in [1, 160, 4_000, 100_000] {
            let source = try FileAudioSource(path: path)
            var buffer = [Int16](repeating: 0, count: size)
            var pieces: [Int16] = []
            while case let count = try source.read(into: &buffer), count > 0 {
                pieces += buffer[0..<count]
            }
            #expect(pieces == whole, "reads of \(size)")
            #expect(try source.read(into: &buffer) == 0)
        }
    }

    /// The resampler's tail is flushed: the output has the file's length at 16 kHz (to
    /// the sample), and it ends in sound, not in padding.
    @Test(arguments: [(44_100, "0.1234"), (8_000, "0.3"), (48_000, "1.2345"), (22_050, "0.01")])
    func resampledLengthIsExact(rate: Int, seconds: String) throws {
        let dir = TempDirectory("vsh-audiofile")
        defer { dir.remove() }
        let path = dir.file("in.wav")
        try sox(["-n", "-r", "\(rate)", "-c", "1", "-b", "16", path, "synth", seconds, "sine", "440", "vol", "0.5"])
        let source = try FileAudioSource(path: path)
        let frames = Int((source.duration * Double(rate)).rounded())
        let samples = try FileAudioSource.readAll(path: path)
        #expect(samples.count == (frames * 16_000 + rate / 2) / rate)
        #expect(rms(Array(samples.suffix(36))) > 0.5 * 0.5 * 32_768 / 2.0.squareRoot())
    }

    /// The resampler delays the sound by a few milliseconds at most.
    @Test func resamplerDelayIsAFewMilliseconds() throws {
        let dir = TempDirectory("vsh-audiofile")
        defer { dir.remove() }
        let path = dir.file("click.wav")
        // 100 ms of silence, then a 1 kHz burst.
        try sox(["-n", "-r", "44100", "-c", "1", "-b", "16", path, "synth", "0.2", "sine", "1000", "vol", "0.5",
                 "pad", "0.1@0"])
        let samples = try FileAudioSource.readAll(path: path)
        let onset = samples.firstIndex { abs(Int($0)) > 1_000 } ?? samples.count
        let delayMs = Double(onset - 1_600) / 16
        #expect(delayMs >= 0 && delayMs < 5, "delay \(delayMs) ms")
    }

    /// Headerless 16 kHz 16-bit little-endian audio comes back byte for byte.
    @Test func rawFileIsReadUntouched() throws {
        let path = EvalData.real + "/goforward.raw"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let source = try FileAudioSource(path: path)
        #expect(source.sampleRate == 16_000 && source.channels == 1)
        #expect(abs(source.duration - Double(bytes.count / 2) / 16_000) < 1e-9)
        let samples = try FileAudioSource.readAll(path: path)
        let back = samples.withUnsafeBytes { Data($0) }  // little-endian host
        #expect(back == bytes)
    }

    /// A 16 kHz mono 16-bit WAV gives exactly the samples of its data chunk.
    @Test func wavSamplesMatchTheDataChunk() throws {
        let path = EvalData.real + "/cards/001.wav"
        let expected = try dataChunkSamples(path)
        #expect(expected.count == 17_526)
        #expect(try FileAudioSource.readAll(path: path) == expected)
    }

    /// Every way a file can fail to be audio, with the message a person sees.
    @Test func errorsNameTheFileAndTheReason() throws {
        let dir = TempDirectory("vsh-audiofile")
        defer { dir.remove() }
        dir.write("buy milk\nand eggs\n", to: "notes.txt")
        dir.write("buy milk\nand eggs\n", to: "notes.wav")
        dir.write("", to: "empty.wav")
        dir.write("x", to: "one-byte.raw")
        try FileManager.default.createDirectory(atPath: dir.file("folder.wav"), withIntermediateDirectories: true)
        try WavWriter(path: dir.file("silent.wav")).finish()

        let formats = "vsh reads WAV, FLAC, Ogg, MP3 and headerless 16 kHz 16-bit .raw"
        let cases: [(String, String)] = [
            ("missing.wav", "no such file"),
            ("nodir/x.wav", "no such file"),
            ("notes.txt", "Format not recognised. \(formats)"),
            ("notes.wav", "Format not recognised. \(formats)"),
            ("empty.wav", "the file is empty"),
            ("folder.wav", "it is a directory; give the path of an audio file"),
            ("silent.wav", "it holds no audio (0 samples)"),
            ("one-byte.raw", "it holds no audio (0 samples)"),
        ]
        for (file, reason) in cases {
            let path = dir.file(file)
            #expect(throws: AudioError("cannot read audio file '\(path)': \(reason)")) {
                try FileAudioSource(path: path)
            }
        }
        #expect(AudioFile.reason(errno: EACCES) == "permission denied; make it readable (chmod u+r)")
        #expect(AudioFile.sentence("Error : flac decoder lost sync") == "Flac decoder lost sync.")
    }

    /// Files libsndfile recognises but cannot decode, at open or part-way through.
    @Test func damagedFilesSaySo() throws {
        let dir = TempDirectory("vsh-audiofile")
        defer { dir.remove() }
        let (wav, flac) = (dir.file("a.wav"), dir.file("a.flac"))
        let (head, half) = (dir.file("head.wav"), dir.file("half.flac"))
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "1", "sine", "440"])
        try sox([wav, flac])
        try Data(contentsOf: URL(fileURLWithPath: wav)).prefix(30).write(to: URL(fileURLWithPath: head))
        let whole = try Data(contentsOf: URL(fileURLWithPath: flac))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: half))

        #expect(throws: AudioError("cannot read audio file '\(head)': Error in WAV file. No 'data' chunk marker. "
            + "It may be truncated or damaged.")) { try FileAudioSource(path: head) }
        let source = try FileAudioSource(path: half)  // the header is intact, the data is not
        var buffer = [Int16](repeating: 0, count: 1_000)
        #expect(throws: AudioError("cannot read audio file '\(half)': Flac decoder lost sync. "
            + "It may be truncated or damaged.")) { while try source.read(into: &buffer) > 0 {} }
    }

    /// libsndfile keeps a failed open's error in one process-wide variable: files opened on
    /// several threads at once must each get their own reason, never a neighbour's. It also
    /// closes the descriptor of a failed open itself: closed again, the number could belong
    /// to another thread's file by then ("good.wav: Bad file descriptor").
    @Test func openingOnManyThreadsKeepsEachReason() throws {
        let dir = TempDirectory("vsh-audiofile")
        defer { dir.remove() }
        let (text, head, good) = (dir.file("notes.txt"), dir.file("head.wav"), dir.file("good.wav"))
        dir.write("buy milk\n", to: "notes.txt")
        try sox(["-n", "-r", "16000", "-b", "16", good, "synth", "0.1", "sine", "440"])
        try Data(contentsOf: URL(fileURLWithPath: good)).prefix(30).write(to: URL(fileURLWithPath: head))
        let expected = [
            text: "cannot read audio file '\(text)': Format not recognised. \(AudioFile.formats)",
            head: "cannot read audio file '\(head)': Error in WAV file. No 'data' chunk marker. \(AudioFile.damaged)",
            good: "",
        ]
        let paths = [text, head, good]
        let wrong = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: 600) { index in
            let path = paths[index % paths.count]
            var message = ""
            do { _ = try FileAudioSource(path: path) } catch { message = "\(error)" }
            if message != expected[path] { wrong.withLock { $0.append(message) } }
        }
        #expect(wrong.withLock { $0 } == [])
    }

    @Test func samplesRoundAndClip() {
        #expect(FileAudioSource.sample(40_000) == .max)
        #expect(FileAudioSource.sample(-40_000) == .min)
        #expect(FileAudioSource.sample(.nan) == 0)
        #expect(FileAudioSource.sample(-1.5) == -2)
        #expect(FileAudioSource.downmix([0.5, -0.5, 1, 1, -1, -1], frames: 3, channels: 2) == [0, .max, .min])
    }
}

// MARK: - Helpers

/// Runs sox with `arguments`; a failure records sox's own words.
private func sox(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readToEndRetrying(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw AudioError("sox \(arguments.joined(separator: " ")) failed: \(message)")
    }
}

private func zeroCrossings(_ samples: [Int16]) -> Int {
    zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
}

private func rms(_ samples: [Int16]) -> Double {
    guard !samples.isEmpty else { return 0 }
    return (samples.map { Double($0) * Double($0) }.reduce(0, +) / Double(samples.count)).squareRoot()
}

/// The little-endian 16-bit samples of a WAV file's `data` chunk, found by walking the chunks.
private func dataChunkSamples(_ path: String) throws -> [Int16] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var offset = 12
    while offset + 8 <= bytes.count {
        let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        let size = littleEndian32(bytes, at: offset + 4)
        if id == "data" {
            let end = min(offset + 8 + size, bytes.count)
            return stride(from: offset + 8, to: end - 1, by: 2).map {
                Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
            }
        }
        offset += 8 + size + (size & 1)
    }
    throw AudioError("\(path) has no data chunk")
}

/// WavWriter: the file is a valid WAV after every append, and private. Nested, so that
/// `--filter AudioFileTests` runs it too.
extension AudioFileTests {
    @Suite struct WavWriterTests {
        /// Three appends, each checked on disk before `finish()` (as a crash would leave it),
        /// then the whole recording read back through libsndfile.
        @Test func appendsAreOnDiskWithRightSizes() throws {
            let dir = TempDirectory("vsh-wavwriter")
            defer { dir.remove() }
            let path = dir.file("take.wav")
            let writer = try WavWriter(path: path, sampleRate: 16_000)
            let empty = Data(WavWriter.header(sampleRate: 16_000, dataBytes: 0))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == empty)

            let pieces: [[Int16]] = [
                (0..<1_600).map { Int16(8_000 * sin(Double($0) * 0.2)) },
                [.min, -1, 0, 1, .max],
                (0..<3_333).map { Int16(truncatingIfNeeded: $0 &* 7_919) },
            ]
            var written: [Int16] = []
            for piece in pieces {
                try writer.append(piece)
                written += piece
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                #expect(bytes.count == 44 + 2 * written.count)
                #expect(littleEndian32(bytes, at: 4) == 36 + 2 * written.count)
                #expect(littleEndian32(bytes, at: 40) == 2 * written.count)
                #expect(try dataChunkSamples(path) == written)
                #expect(try FileAudioSource.readAll(path: path) == written)
            }
            #expect(writer.sampleCount == written.count)
            try writer.finish()
            try writer.finish()

            let source = try FileAudioSource(path: path)
            #expect(source.sampleRate == 16_000 && source.channels == 1)
            #expect(abs(source.duration - Double(written.count) / 16_000) < 1e-9)
            #expect(try FileAudioSource.readAll(path: path) == written)
            #expect(try permissions(path) == 0o600)
        }

        /// Other rates are recorded as given; sox agrees the file is what it says.
        @Test func otherRatesAreValidWav() throws {
            let dir = TempDirectory("vsh-wavwriter")
            defer { dir.remove() }
            let path = dir.file("8k.wav")
            let writer = try WavWriter(path: path, sampleRate: 8_000)
            try writer.append((0..<8_000).map { Int16(10_000 * sin(2 * Double.pi * 440 * Double($0) / 8_000)) })
            try writer.finish()
            let source = try FileAudioSource(path: path)
            #expect(source.sampleRate == 8_000 && abs(source.duration - 1) < 1e-9)
            let samples = try FileAudioSource.readAll(path: path)
            #expect(samples.count == 16_000)
            try sox([path, dir.file("copy.flac")])
            #expect(try FileAudioSource(path: dir.file("copy.flac")).duration == 1)
        }

        /// An existing file is replaced, and made private even if it was not.
        @Test func replacesAnExistingFileAndMakesItPrivate() throws {
            let dir = TempDirectory("vsh-wavwriter")
            defer { dir.remove() }
            let path = dir.file("old.wav")
            dir.write(String(repeating: "old content ", count: 1_000), to: "old.wav")
            chmod(path, 0o644)
            let writer = try WavWriter(path: path)
            try writer.append([1, 2, 3])
            try writer.finish()
            #expect(try permissions(path) == 0o600)
            #expect(try FileAudioSource.readAll(path: path) == [1, 2, 3])
        }

        @Test func unwritablePlacesAreErrors() throws {
            let dir = TempDirectory("vsh-wavwriter")
            defer { dir.remove() }
            let missing = dir.file("no/such/dir/take.wav")
            #expect(throws: AudioError("cannot write audio file '\(missing)': its directory does not exist")) {
                try WavWriter(path: missing)
            }
            #expect(throws: AudioError("cannot write audio file '\(dir.path)': it is a directory; give a file name")) {
                try WavWriter(path: dir.path)
            }
        }
    }
}

private func littleEndian32(_ bytes: [UInt8], at offset: Int) -> Int {
    (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
}

private func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
}

/// PocketSphinx's log never grows without end: past the limit it moves aside.
@Suite struct PocketSphinxLogTests {
    @Test func aLogPastItsLimitMovesAside() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let log = dir.file("pocketsphinx.log")
        try Data(count: PocketSphinxLog.limit + 1).write(to: URL(fileURLWithPath: log))
        try Data("older\n".utf8).write(to: URL(fileURLWithPath: log + ".1"))
        PocketSphinxLog.rotate(log)
        #expect(!FileManager.default.fileExists(atPath: log))
        #expect((try? Data(contentsOf: URL(fileURLWithPath: log + ".1")).count) == PocketSphinxLog.limit + 1)
        try Data("small\n".utf8).write(to: URL(fileURLWithPath: log))
        PocketSphinxLog.rotate(log)
        #expect(FileManager.default.fileExists(atPath: log))
    }
}
