import Foundation
import Testing
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

    /// Records `file` at `rate` through `RecordingSource`, reading it as the recorder does;
    /// returns the samples written and how many 16 kHz samples recognition got.
    static func record(_ file: String, rate: Int, into out: String) throws -> (written: [Int16], read: Int) {
        let source = try RecordingSource(file: file, rate: rate)
        source.startWriting(to: try WavWriter(path: out, sampleRate: rate))
        let read = try source.readToEnd().count
        try source.finish()
        let written = try FileAudioSource(path: out)
        #expect(written.sampleRate == rate)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out)).dropFirst(WavWriter.headerSize)
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
        return (samples, read)
    }

    /// A 12 kHz tone in a 48 kHz file, recorded at "high" (48 kHz): the note holds the
    /// tone. Through 16 kHz (as before) it held nothing above 8 kHz.
    @Test func aHighNoteOfAHighFileKeepsItsBandwidth() throws {
        let dir = TempDirectory("record-bandwidth")
        defer { dir.remove() }
        let tone = (0..<48_000).map { Int16(8_000 * sin(2 * Double.pi * 12_000 * Double($0) / 48_000)) }
        let input = dir.file("tone48k.wav")
        let writer = try WavWriter(path: input, sampleRate: 48_000)
        try writer.append(tone)
        try writer.finish()

        let (written, read) = try Self.record(input, rate: 48_000, into: dir.file("note.wav"))
        #expect(written == tone, "a file at the quality's own rate is written sample for sample")
        #expect(abs(read - 16_000) <= 1, "recognition still reads 16 kHz")
    }

    /// The same at 44.1 kHz into a 48 kHz note: converted once, from the file's rate, so
    /// the tone keeps its level and the note its length.
    @Test func anotherRateIsConvertedFromTheFilesOwnAudio() throws {
        let dir = TempDirectory("record-bandwidth")
        defer { dir.remove() }
        let tone = (0..<44_100).map { Int16(8_000 * sin(2 * Double.pi * 12_000 * Double($0) / 44_100)) }
        let input = dir.file("tone44k.wav")
        let writer = try WavWriter(path: input, sampleRate: 44_100)
        try writer.append(tone)
        try writer.finish()

        let (written, _) = try Self.record(input, rate: 48_000, into: dir.file("note.wav"))
        #expect(abs(written.count - 48_000) <= 1, "\(written.count) samples for one second")
        let level = Self.rms(Array(written.dropFirst(1_000).dropLast(1_000)))
        #expect(abs(level - 8_000 / 2.0.squareRoot()) < 500, "the 12 kHz tone's level: \(level)")
    }

    /// A low (8 kHz) note of a 48 kHz file: as long as the file, at 8 kHz.
    @Test func aLowNoteIsAsLongAsTheFile() throws {
        let dir = TempDirectory("record-bandwidth")
        defer { dir.remove() }
        let tone = (0..<24_000).map { Int16(8_000 * sin(2 * Double.pi * 1_000 * Double($0) / 48_000)) }
        let input = dir.file("tone.wav")
        let writer = try WavWriter(path: input, sampleRate: 48_000)
        try writer.append(tone)
        try writer.finish()
        let (written, read) = try Self.record(input, rate: 8_000, into: dir.file("note.wav"))
        #expect(abs(written.count - 4_000) <= 1)
        #expect(abs(read - 8_000) <= 1)
    }
}
