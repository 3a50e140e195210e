import Foundation
import VshTestSupport

/// A long stream of spoken commands built as bench/soak.py builds its hour: the command
/// corpus's single-command files (clean, quiet, white, pink and brown noise), shuffled,
/// cycled and laid one after another with 1.0–2.5 s of the noise bed between files, over
/// a microphone's noise bed drifting between -88 and -76 dBFS. Each utterance's speech
/// span is where its clean file rises above -60 dBFS.
struct SoakAudio {
    struct Spoken {
        var id: String
        var words: String
        /// Seconds from the start of the stream.
        var start: Double
        var end: Double
    }

    static let rate = 16_000
    static let conditions: Set = ["clean", "quiet", "white20db", "pink10db", "brown5db"]

    var samples: [Int16]
    var spoken: [Spoken]

    /// `seconds` of stream from `files`; the same `seed` gives the same stream.
    init(seconds: Double, files: [EvalData.Spoken], seed: UInt64) throws {
        var random = SplitMix(seed)
        let count = Int(seconds * Double(Self.rate))
        var mix = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let level = -82 + 6 * sin(2 * Double.pi * Double(i) / Double(Self.rate) / 420)
            mix[i] = Float(random.gaussian() * 32_768 * pow(10, level / 20))
        }
        spoken = []
        var at = Self.rate
        var spans: [String: (Int, Int)] = [:]
        fill: while true {
            for file in random.shuffled(files) {
                let audio = try Self.read(file.path)
                guard at + audio.count <= count - Self.rate else { break fill }
                let clean = file.path.replacingOccurrences(of: "/\(file.condition)/", with: "/clean/")
                if spans[clean] == nil { spans[clean] = Self.speechSpan(try Self.read(clean)) }
                for (i, s) in audio.enumerated() { mix[at + i] += Float(s) }
                let (a, b) = spans[clean]!
                spoken.append(Spoken(id: file.id, words: file.expected,
                                     start: Double(at + a) / Double(Self.rate), end: Double(at + b) / Double(Self.rate)))
                at += audio.count + Int(random.uniform(1.0, 2.5) * Double(Self.rate))
            }
        }
        samples = mix.map { Int16(clamping: Int($0.rounded())) }
    }

    /// The first and one past the last sample above -60 dBFS.
    static func speechSpan(_ x: [Int16]) -> (Int, Int) {
        let loud = x.indices.filter { abs(Int(x[$0])) > 32 }
        return (loud.first ?? 0, (loud.last ?? 0) + 1)
    }

    /// The samples of a 16-bit mono WAV file (as make-commands-corpus writes them).
    static func read(_ path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var offset = 12
        while offset + 8 <= data.count {
            let size = Int(data[offset + 4]) | Int(data[offset + 5]) << 8 | Int(data[offset + 6]) << 16 | Int(data[offset + 7]) << 24
            if data[offset..<offset + 4].elementsEqual("data".utf8) {
                let body = data[(offset + 8)..<min(data.count, offset + 8 + size)]
                return body.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            }
            offset += 8 + size + size % 2
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    /// Writes the stream as a 16 kHz 16-bit mono WAV file.
    func write(to path: String) throws {
        var data = Data()
        func le(_ v: UInt32, _ bytes: Int) { for i in 0..<bytes { data.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        let body = UInt32(samples.count * 2)
        data.append(contentsOf: "RIFF".utf8); le(36 + body, 4); data.append(contentsOf: "WAVEfmt ".utf8)
        le(16, 4); le(1, 2); le(1, 2); le(UInt32(Self.rate), 4); le(UInt32(Self.rate * 2), 4); le(2, 2); le(16, 2)
        data.append(contentsOf: "data".utf8); le(body, 4)
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: URL(fileURLWithPath: path))
    }
}

/// A small seeded generator (SplitMix64): the same stream on every run and platform.
struct SplitMix {
    private var state: UInt64
    init(_ seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [a, b).
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(next() >> 11) / Double(1 << 53) }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        let u = max(uniform(0, 1), .leastNonzeroMagnitude), v = uniform(0, 1)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(i, Int(next() % UInt64(i + 1)))
        }
        return items
    }
}
