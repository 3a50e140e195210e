import Foundation
import Testing
@testable import VshAudioFiles
import VshTestSupport
@testable import VshAudio
@testable import VshStore

/// `record --from FILE`: the note is written from the file's own audio at the quality's
/// rate, while recognition reads 16 kHz.
@Suite struct RecordingSourceTests {
    /// RMS of 16-bit samples.
    static func rms(_ samples: [Int16]) -> Double {
        sqrt(samples.map { Double($0) * Double($0) }.reduce(0, +) / Double(max(1, samples.count)))
    }

    /// A file of a sine at `frequency` Hz (amplitude 8,000), `seconds` long at `fileRate`,
    /// recorded at `rate` through `RecordingSource` as the recorder reads it. Returns the
    /// file's samples, the samples written, and how many 16 kHz samples recognition got.
    static func record(
        tone frequency: Double, seconds: Double, fileRate: Int, rate: Int
    ) throws -> (tone: [Int16], written: [Int16], read: Int) {
        let dir = TempDirectory("record-bandwidth")
        defer { dir.remove() }
        let tone = (0..<Int(seconds * Double(fileRate))).map {
            Int16(8_000 * sin(2 * Double.pi * frequency * Double($0) / Double(fileRate)))
        }
        let writer = try WavWriter(path: dir.file("tone.wav"), sampleRate: fileRate)
        try writer.append(tone)
        try writer.finish()

        let source = try RecordingSource(file: dir.file("tone.wav"), rate: rate)
        source.startWriting(to: try WavWriter(path: dir.file("note.wav"), sampleRate: rate))
        let read = try source.readToEnd().count
        try source.finish()
        #expect(try FileAudioSource(path: dir.file("note.wav")).sampleRate == rate)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.file("note.wav"))).dropFirst(WavWriter.headerSize)
        let written = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
        return (tone, written, read)
    }

    /// A 12 kHz tone in a 48 kHz file, recorded at "high" (48 kHz): the note holds the
    /// tone. Through 16 kHz (as before) it held nothing above 8 kHz.
    @Test func aHighNoteOfAHighFileKeepsItsBandwidth() throws {
        let (tone, written, read) = try Self.record(tone: 12_000, seconds: 1, fileRate: 48_000, rate: 48_000)
        #expect(written == tone, "a file at the quality's own rate is written sample for sample")
        #expect(abs(read - 16_000) <= 1, "recognition still reads 16 kHz")
    }

    /// The same at 44.1 kHz into a 48 kHz note: converted once, from the file's rate, so
    /// the tone keeps its level and the note its length.
    @Test func anotherRateIsConvertedFromTheFilesOwnAudio() throws {
        let written = try Self.record(tone: 12_000, seconds: 1, fileRate: 44_100, rate: 48_000).written
        #expect(abs(written.count - 48_000) <= 1, "\(written.count) samples for one second")
        let level = Self.rms(Array(written.dropFirst(1_000).dropLast(1_000)))
        #expect(abs(level - 8_000 / 2.0.squareRoot()) < 500, "the 12 kHz tone's level: \(level)")
    }

    /// A low (8 kHz) note of a 48 kHz file: as long as the file, at 8 kHz.
    @Test func aLowNoteIsAsLongAsTheFile() throws {
        let (_, written, read) = try Self.record(tone: 1_000, seconds: 0.5, fileRate: 48_000, rate: 8_000)
        #expect(abs(written.count - 4_000) <= 1)
        #expect(abs(read - 8_000) <= 1)
    }
}
