import Foundation
import Testing
@testable import VshAudioFiles
@testable import VshCore
import VshTestSupport

/// The encrypted audio format (`SealedAudio`): written as bytes arrive, read at any
/// offset, cut short by a crash without losing complete chunks, and every failure named.
@Suite struct SealedAudioTests {
    static func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ $0 >> 8) }
    }

    /// Writes `plain` in appends of `step` bytes; `finish` false leaves the file as a
    /// killed writer would (the last chunk not sealed) for as long as the returned writer
    /// lives (its deinit seals the rest).
    @discardableResult
    static func write(
        _ plain: [UInt8], to path: String, key: AudioKey, chunk: Int, step: Int, finish: Bool = true
    ) throws -> SealedAudioWriter {
        let writer = try SealedAudioWriter(path: path, key: key, chunkSize: chunk)
        var at = 0
        while at < plain.count {
            try writer.append(Array(plain[at..<min(plain.count, at + step)]))
            at += step
        }
        #expect(writer.byteCount == plain.count)
        if finish { try writer.finish() }
        return writer
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? -1
    }

    @Test(arguments: [(0, 100, 7), (1, 100, 1), (99, 100, 50), (100, 100, 33), (101, 100, 100), (5000, 256, 999)])
    func roundTrip(_ count: Int, _ chunk: Int, _ step: Int) throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate()
        let plain = Self.bytes(count)
        try Self.write(plain, to: dir.file("a"), key: key, chunk: chunk, step: step)
        let reader = try SealedAudioReader(path: dir.file("a"), key: key, keyFile: nil)
        #expect(reader.complete)
        #expect(reader.count == count)
        #expect(try reader.read(at: 0, length: count + 10) == plain)
        // Any offset, across chunk boundaries.
        if count > 10 { #expect(try reader.read(at: count / 3, length: count / 2) == Array(plain[(count / 3)..<(count / 3 + count / 2)])) }
        #expect(SealedAudio.isSealed(path: dir.file("a")))
        #expect(try AudioBytes(sealed: reader).readAll() == plain)
    }

    @Test func theFileHoldsNoPlainBytesAndSaysWhatItIs() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate()
        let plain = [UInt8](repeating: 0x41, count: 10_000)
        try Self.write(plain, to: dir.file("a"), key: key, chunk: 1000, step: 1000)
        let file = try #require(Self.contents(dir.file("a")))
        #expect(String(decoding: file.prefix(25), as: UTF8.self) == "VSHENC1\n\(key.id)\n")
        let run = [UInt8](repeating: 0x41, count: 16)
        #expect(!file.indices.dropLast(16).contains { file[$0..<($0 + 16)].elementsEqual(run) })
        var mode = stat()
        stat(dir.file("a"), &mode)
        #expect(mode.st_mode & 0o777 == 0o600)
    }

    /// A writer killed mid-way: every complete chunk reads back, the file is cut short,
    /// and a torn last chunk is ignored.
    @Test(arguments: [0, 1, 15, 16, 500, 1015, 1016])
    func aTruncatedFileRecoversEveryCompleteChunk(_ tail: Int) throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate()
        let plain = Self.bytes(5_500)
        try Self.write(plain, to: dir.file("a"), key: key, chunk: 1000, step: 700)
        // Keep 3 whole chunks and `tail` bytes of the fourth.
        #expect(truncate(dir.file("a"), off_t(48 + 3 * 1016 + tail)) == 0)
        let reader = try SealedAudioReader(path: dir.file("a"), key: key, keyFile: nil)
        #expect(!reader.complete)
        let whole = tail == 1016 ? 4 : 3
        #expect(reader.count == whole * 1000)
        #expect(try reader.read(at: 0, length: 10_000) == Array(plain.prefix(whole * 1000)))
    }

    @Test func aWriterThatNeverFinishesLeavesItsCompleteChunks() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate()
        let plain = Self.bytes(2_500)
        let writer = try Self.write(plain, to: dir.file("a"), key: key, chunk: 1000, step: 2500, finish: false)
        // What a kill -9 leaves: the file as it is now, before deinit could seal the rest.
        let copy = dir.file("copy")
        try FileManager.default.copyItem(atPath: dir.file("a"), toPath: copy)
        withExtendedLifetime(writer) {}
        let reader = try SealedAudioReader(path: copy, key: key, keyFile: nil)
        #expect(!reader.complete)
        #expect(try reader.read(at: 0, length: 5000) == Array(plain.prefix(2000)))
    }

    @Test(arguments: [60, 48 + 1016 + 500, 48 + 2 * 1016 + 3])
    func aFlippedByteIsAnAuthenticationErrorNamingTheFile(_ offset: Int) throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate()
        try Self.write(Self.bytes(5_500), to: dir.file("a"), key: key, chunk: 1000, step: 5500)
        var file = try #require(Self.contents(dir.file("a")))
        file[offset] ^= 0x10
        try Data(file).write(to: URL(fileURLWithPath: dir.file("a")))
        let reader = try SealedAudioReader(path: dir.file("a"), key: key, keyFile: nil)
        let error = try #require(throws: AudioError.self) { try reader.read(at: 0, length: 6000) }
        #expect(error.message.contains(dir.file("a")))
        #expect(error.message.contains("fails authentication"))
        #expect(error.message.contains("damaged or changed"))
    }

    @Test func aChangedHeaderFailsToo() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate()
        try Self.write(Self.bytes(3000), to: dir.file("a"), key: key, chunk: 1000, step: 3000)
        var file = try #require(Self.contents(dir.file("a")))
        file[30] ^= 1  // the salt
        try Data(file).write(to: URL(fileURLWithPath: dir.file("a")))
        let reader = try SealedAudioReader(path: dir.file("a"), key: key, keyFile: nil)
        #expect(throws: AudioError.self) { try reader.read(at: 0, length: 3000) }
    }

    @Test func theWrongKeyIsNamedAsADifferentKeyAndAMissingOneAsMissing() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate(), other = AudioKey.generate()
        try Self.write(Self.bytes(300), to: dir.file("a"), key: key, chunk: 100, step: 300)
        let keyFile = KeyFile(path: dir.file("config/key"))
        let wrong = try #require(throws: AudioError.self) {
            try SealedAudioReader(path: dir.file("a"), key: other, keyFile: keyFile)
        }
        #expect(wrong.message.contains(dir.file("a")))
        #expect(wrong.message.contains("encrypted with key \(key.id)"))
        #expect(wrong.message.contains("is \(other.id), a different key"))
        #expect(wrong.message.contains("Restore the key file"))
        let missing = try #require(throws: AudioError.self) { try AudioBytes(path: dir.file("a"), keyFile: keyFile) }
        #expect(missing.message.contains("there is no key file at \(keyFile.path)"))
        #expect(missing.message.contains("left as it is"))
        #expect(!missing.message.contains("authentication"))
    }

    @Test func theKeyFileIsPrivateNeverReplacedAndRefusedWhenOthersCanReadIt() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let keyFile = KeyFile(path: dir.file("config/vsh/key"))
        #expect(try keyFile.load() == nil)
        let key = try keyFile.create()
        #expect(try keyFile.load()?.id == key.id)
        var info = stat()
        stat(keyFile.path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        stat(dir.file("config/vsh"), &info)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(dir.read("config/vsh/key")?.count == 65)
        let again = try #require(throws: CommandError.self) { try keyFile.create() }
        #expect(again.message.contains("never replaces"))
        #expect(try keyFile.load()?.id == key.id)
        chmod(keyFile.path, 0o640)
        let open = try #require(throws: CommandError.self) { try keyFile.load() }
        #expect(open.message.contains("chmod 600 \(keyFile.path)"))
        chmod(keyFile.path, 0o600)
        try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: keyFile.path))
        let damaged = try #require(throws: CommandError.self) { try keyFile.load() }
        #expect(damaged.message.contains("damaged"))
    }

    /// A WAV sealed as it was recorded has zero sizes inside; readers see the real ones.
    @Test func aWaveSealedAsItWasRecordedReadsWithItsRealLength() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate()
        KeyFile.current = nil
        let samples = [Int16](repeating: 1000, count: 16_000)
        var wav = Array(WavWriter.bytes([], rate: 16_000))
        samples.withUnsafeBytes { wav += $0 }
        let writer = try Self.write(wav, to: dir.file("a.wav"), key: key, chunk: 8000, step: 3200, finish: false)
        defer { withExtendedLifetime(writer) {} }
        let reader = try SealedAudioReader(path: dir.file("a.wav"), key: key, keyFile: nil)
        let audio = AudioBytes(sealed: reader)
        #expect(reader.count == 4 * 8000)  // the last 44 bytes were never sealed
        let wave = try #require(WaveFile(audio))
        #expect(wave.dataBytes == reader.count - 44)
        #expect(wave.seconds == Double((reader.count - 44) / 2) / 16_000)
        func u32(_ b: [UInt8], _ at: Int) -> Int { b[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | Int($1) } }
        let header = try audio.read(at: 0, length: 44)
        #expect(u32(header, 4) == reader.count - 8)
        #expect(u32(header, 40) == reader.count - 44)
        let peaks = try #require(try wave.peaks(audio, columns: 4))
        #expect(peaks.allSatisfy { abs($0 - 1000.0 / 32768) < 1e-9 })
    }

    @Test func conversionRoundTripsByteForByteAndLeavesABusyFileAlone() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate()
        let plain = Self.bytes(300_000)
        try Data(plain).write(to: URL(fileURLWithPath: dir.file("a.wav")))
        #expect(AudioConversion.seal(dir.file("a.wav"), key: key) == .converted)
        #expect(SealedAudio.isSealed(path: dir.file("a.wav")))
        #expect(AudioConversion.seal(dir.file("a.wav"), key: key) == .unchanged)
        #expect(AudioConversion.unseal(dir.file("a.wav"), key: key, keyFile: nil) == .converted)
        #expect(Self.contents(dir.file("a.wav")) == plain)
        #expect(!FileManager.default.fileExists(atPath: AudioConversion.temporary(for: dir.file("a.wav"))))
        // A file held by a writer (flock) is left alone.
        let fd = open(dir.file("a.wav"), O_RDONLY)
        defer { close(fd) }
        flock(fd, LOCK_EX)
        #expect(AudioConversion.seal(dir.file("a.wav"), key: key) == .busy)
        #expect(Self.contents(dir.file("a.wav")) == plain)
    }
}
