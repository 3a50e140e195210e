import Foundation
import VshCore

/// The mixture weights of a PTM acoustic model as sphinxtrain reads and writes them
/// (`mixture_weights`, the Sphinx-3 binary parameter format). Debian's en-us model ships
/// only PocketSphinx's compressed `sendump`, which `bw` and `map_adapt` cannot read; the
/// weights are rebuilt from it exactly (`mk_s2sendump -mwfloor 1e-20` turns them back
/// into the same `sendump`, byte for byte).
enum MixtureWeights {
    struct Shape: Equatable {
        var senones: Int
        var streams: Int
        var densities: Int
    }

    /// Reads a sendump: int32-length-prefixed header strings up to a zero length, the
    /// density and senone counts, then one byte per weight, [stream][density][senone],
    /// each the weight's negated log (base 1.0001) shifted right by 10 bits.
    static func fromSendump(_ data: Data) throws -> (Shape, [Float]) {
        let bytes = [UInt8](data)
        var offset = 0
        func int32() throws -> Int {
            guard offset + 4 <= bytes.count else { throw AudioError("the model's sendump is cut short") }
            let value = Int32(littleEndian: bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) })
            offset += 4
            return Int(value)
        }
        var streams = 1
        while true {
            let length = try int32()
            if length == 0 { break }
            guard length > 0, offset + length <= bytes.count else { throw AudioError("the model's sendump has a broken header") }
            let text = String(decoding: bytes[offset..<offset + length].prefix { $0 != 0 }, as: UTF8.self)
            if text.hasPrefix("feature_count "), let n = Int(text.dropFirst(14)) { streams = n }
            if text.hasPrefix("cluster_count "), Int(text.dropFirst(14)) != 0 {
                throw AudioError("the model's sendump is clustered, which vsh cannot adapt")
            }
            offset += length
        }
        let densities = try int32(), senones = try int32()
        let count = streams * densities * senones
        guard densities > 0, senones > 0, offset + count == bytes.count else {
            throw AudioError("the model's sendump does not hold \(streams) × \(densities) × \(senones) weights")
        }
        // One table lookup per byte value: weight = 1.0001^-(v << 10).
        let table = (0..<256).map { Float(pow(1.0001, -Double($0 << 10))) }
        var weights = [Float](repeating: 0, count: count)
        for stream in 0..<streams {
            for density in 0..<densities {
                let row = offset + (stream * densities + density) * senones
                for senone in 0..<senones {
                    weights[(senone * streams + stream) * densities + density] = table[Int(bytes[row + senone])]
                }
            }
        }
        return (Shape(senones: senones, streams: streams, densities: densities), weights)
    }

    /// The Sphinx-3 file: an ASCII header ending in `endhdr\n` on an 8-byte boundary, the
    /// byte-order magic, the three dimensions and the count, the float32 weights
    /// [senone][stream][density], and a checksum over every 32-bit word after the magic.
    static func s3File(_ shape: Shape, _ weights: [Float]) -> Data {
        var head = "s3\nversion 1.0\nchksum0 yes\n"
        head += String(repeating: " ", count: (8 - ((head.utf8.count + 7) & 7)) % 8) + "endhdr\n"
        // Words into one array, then one Data: appending 4 bytes at a time to a Data cost a
        // tenth of `train`'s own CPU.
        var words: [UInt32] = [0x1122_3344]
        words.reserveCapacity(weights.count + 6)
        var checksum: UInt32 = 0
        func word(_ value: UInt32) {
            words.append(value)
            checksum = ((checksum << 20) | (checksum >> 12)) &+ value
        }
        for dimension in [shape.senones, shape.streams, shape.densities, weights.count] { word(UInt32(dimension)) }
        for weight in weights { word(weight.bitPattern) }
        words.append(checksum)
        var data = Data(head.utf8)
        words.withUnsafeBufferPointer { buffer in
            let little = buffer.map(\.littleEndian)
            little.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        return data
    }
}
