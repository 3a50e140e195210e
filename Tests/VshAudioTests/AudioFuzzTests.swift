import Foundation
import Testing
import VshCore
import VshTestSupport
@testable import VshAudio

/// Seeded fuzzing of the audio-file reader (issue 7): mutated WAV bytes, named .wav, .raw
/// or .flac, must give samples or an `AudioError` naming the file, never a crash, and each
/// case must finish within 2 s. `VSH_FUZZ_CASES` sets the number of cases.
@Suite struct AudioFuzzTests {
    /// The first samples of a real recording, under its own header, and variants of that
    /// header (stereo 8-bit 22.05 kHz, float 48 kHz) so the mutations reach other decoders.
    static func seeds() throws -> [[UInt8]] {
        let real = try #require(FileManager.default.contents(atPath: EvalData.real + "/cards/001.wav"))
        var wav = Array(real.prefix(44 + 1600))
        func put(_ value: Int, at offset: Int, width: Int) {
            for i in 0..<width { wav[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
        }
        put(wav.count - 8, at: 4, width: 4)
        put(1600, at: 40, width: 4)
        var seeds = [wav]
        for (format, channels, rate, bits) in [(1, 2, 22_050, 8), (3, 1, 48_000, 32)] {
            put(format, at: 20, width: 2)
            put(channels, at: 22, width: 2)
            put(rate, at: 24, width: 4)
            put(rate * channels * bits / 8, at: 28, width: 4)
            put(channels * bits / 8, at: 32, width: 2)
            put(bits, at: 34, width: 2)
            seeds.append(wav)
        }
        return seeds
    }

    /// Samples read past this are not read: a damaged header may claim hours.
    static let maximumSamples = 1 << 22

    /// Found by the fuzzer: a header claiming 1,140,872,738 Hz gave the resampler's error,
    /// which did not name the file.
    @Test func aRateTheResamplerRefusesIsAnErrorNamingTheFile() throws {
        let dir = TempDirectory("vsh-fuzz-audio")
        defer { dir.remove() }
        var wav = try Self.seeds()[0]
        for i in 0..<4 { wav[24 + i] = UInt8(truncatingIfNeeded: 1_140_872_738 >> (8 * i)) }
        let path = dir.file("rate.wav")
        _ = FileManager.default.createFile(atPath: path, contents: Data(wav))
        let error = try #require(throws: AudioError.self) { try FileAudioSource(path: path) }
        #expect(error.message.hasPrefix("cannot read audio file '\(path)': its sample rate of 1140872738 Hz"))
    }

    @Test func theAudioReaderGivesSamplesOrAnErrorNamingTheFile() throws {
        let dir = TempDirectory("vsh-fuzz-audio")
        defer { dir.remove() }
        var fuzzer = Fuzzer(seed: 7_005, seeds: try Self.seeds(), structural: "RIFFWAVEfmt data\0\u{1}\u{10}")
        let names = ["fuzz.wav", "fuzz.raw", "fuzz.flac"]
        let clock = ContinuousClock()
        let start = clock.now
        var buffer = [Int16](repeating: 0, count: 4096)
        for index in 0..<Fuzzer.cases {
            let input = fuzzer.next()
            let path = dir.file(names[index % names.count])
            _ = FileManager.default.createFile(atPath: path, contents: Data(input))
            let began = clock.now
            do {
                let source = try FileAudioSource(path: path)
                var total = 0
                while total < Self.maximumSamples {
                    let count = try source.read(into: &buffer)
                    if count == 0 { break }
                    total += count
                }
                if source.duration * Double(FileAudioSource.outputRate) < Double(Self.maximumSamples) {
                    _ = try FileAudioSource.readAll(path: path)
                }
            } catch let error as AudioError {
                #expect(error.message.contains(path), "case \(index): \(error.message)")
            } catch {
                Issue.record("case \(index): not an AudioError: \(error); input \(Fuzzer.show(input))")
            }
            let took = began.duration(to: clock.now)
            #expect(took < .seconds(2), "case \(index) took \(took): \(Fuzzer.show(input))")
        }
        let seconds = start.duration(to: clock.now) / .seconds(1)
        print("fuzz: audio: \(Fuzzer.cases) cases in \(String(format: "%.2f", seconds)) s (\(Int(Double(Fuzzer.cases) / max(seconds, 1e-9))) cases/s)")
    }
}
