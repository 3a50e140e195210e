import Foundation

/// SplitMix64: a tiny seeded generator, so every fuzz run tries the same inputs and a
/// failure names a case that can be replayed.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Inputs for fuzz tests: valid seeds, mutated a few times each (byte flips, inserted
/// structural characters, truncation, splicing, random and invalid UTF-8, odd numbers).
/// Deterministic for a given seed value.
package struct Fuzzer {
    /// Cases per target: `VSH_FUZZ_CASES`, else 2000 (a few seconds in debug, for CI).
    package static var cases: Int {
        ProcessInfo.processInfo.environment["VSH_FUZZ_CASES"].flatMap { Int($0) } ?? 2000
    }

    package var random: SplitMix64
    package let seeds: [[UInt8]]
    /// Characters that mean something to the format under test.
    package let structural: [UInt8]

    package init(seed: UInt64, seeds: [[UInt8]], structural: String) {
        random = SplitMix64(seed: seed)
        self.seeds = seeds
        self.structural = Array(structural.utf8)
    }

    static let snippets: [[UInt8]] = [
        "-1", "0", "99999999999999999999", "1e309", "nan", "inf", "\"", "\"\"\"", "'''", "\\u", "\r\n",
        "\t", " ", "\n\n", "<number 1-999999999999>", "<digits>", "$1", "{x}", "é", "日本", "🎙️", "\u{202E}",
    ].map { Array($0.utf8) }
    static let invalidUTF8: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF8, 0x88], [0x00]]
    static let numbers: [UInt32] = [0, 1, 2, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF, 8, 16, 24, 32, 44_100, 1_000_000]

    /// The next input: a seed with one to four mutations.
    package mutating func next() -> [UInt8] {
        var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
        for _ in 0...Int(random.next() % 4) { mutate(&bytes) }
        return bytes
    }

    func position(_ bytes: [UInt8], _ r: UInt64) -> Int { Int(r % UInt64(bytes.count + 1)) }

    mutating func mutate(_ bytes: inout [UInt8]) {
        let at = position(bytes, random.next())
        switch random.next() % 11 {
        case 0 where !bytes.isEmpty:   // flip a bit
            bytes[at % bytes.count] ^= 1 << UInt8(random.next() % 8)
        case 1 where !bytes.isEmpty:   // any byte
            bytes[at % bytes.count] = UInt8(truncatingIfNeeded: random.next())
        case 2, 3:                     // structural characters, one or a run
            let c = structural[Int(random.next() % UInt64(structural.count))]
            bytes.insert(contentsOf: repeatElement(c, count: random.next() % 4 == 0 ? Int(random.next() % 64) + 1 : 1), at: at)
        case 4:                        // truncate
            bytes.removeSubrange(at...)
        case 5 where !bytes.isEmpty:   // delete a range
            let end = min(bytes.count, at + Int(random.next() % 16) + 1)
            if at < end { bytes.removeSubrange(at..<end) }
        case 6:                        // splice a piece of another seed (or of itself)
            let other = random.next() % 3 == 0 ? bytes : seeds[Int(random.next() % UInt64(seeds.count))]
            guard !other.isEmpty else { return }
            let from = Int(random.next() % UInt64(other.count))
            let to = min(other.count, from + Int(random.next() % 64) + 1)
            bytes.insert(contentsOf: other[from..<to], at: at)
        case 7:                        // random valid UTF-8
            let scalar = Unicode.Scalar(UInt32(random.next() % 0x11_0000)) ?? "\u{FFFD}"
            bytes.insert(contentsOf: Array(String(Character(scalar)).utf8), at: at)
        case 8:                        // invalid UTF-8
            bytes.insert(contentsOf: Self.invalidUTF8[Int(random.next() % UInt64(Self.invalidUTF8.count))], at: at)
        case 9:                        // an odd value
            bytes.insert(contentsOf: Self.snippets[Int(random.next() % UInt64(Self.snippets.count))], at: at)
        default:                       // an odd little-endian 16- or 32-bit number over what is there
            let n = Self.numbers[Int(random.next() % UInt64(Self.numbers.count))]
            let width = random.next() % 2 == 0 ? 2 : 4
            for i in 0..<width where at + i < bytes.count { bytes[at + i] = UInt8(truncatingIfNeeded: n >> (8 * UInt32(i))) }
        }
    }

    /// How an input is shown in a failure: escaped, so it can be pasted into a test.
    package static func show(_ bytes: [UInt8]) -> String {
        "[" + bytes.map { String($0) }.joined(separator: ",") + "]"
    }
}
