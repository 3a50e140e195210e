import CVshShims
import Foundation
import VshCore

/// How much more an utterance sounds like the person the model was adapted to than like
/// people at large: the GMM-UBM test that MAP adaptation was made for. The stock acoustic
/// model's Gaussians, pooled, are the universal background model; the adapted model's
/// Gaussians (the same ones, moved toward the person by MLLR and MAP) are the person's.
/// The score is the mean over the utterance's speech frames of the log-likelihood ratio
/// (nats per frame), each frame scored on the background's 8 best Gaussians of each feature
/// stream. It does not depend on the words: other people saying the person's commands
/// score as other people. Cepstral means are taken off over each utterance, so a
/// microphone's steady colouring counts for little.
package final class SpeakerScorer {
    private let stock: Gaussians
    private let adapted: Gaussians
    private let config: PocketSphinxConfig
    /// Gaussians per frame and stream scored with the adapted model.
    private static let best = 8

    /// Reads both models' means and variances; `stock` holds the feat.params the features
    /// are computed with.
    package init(stock: String, adapted: String) throws {
        self.stock = try Gaussians(directory: stock)
        self.adapted = try Gaussians(directory: adapted)
        guard self.stock.shape == self.adapted.shape else {
            throw AudioError("the adapted model in \(adapted) does not have the stock model's shape; 'train --again' adapts anew")
        }
        let params = (try? String(contentsOfFile: stock + "/feat.params", encoding: .utf8)) ?? ""
        // The front end's settings; the rest (-feat, -cmn, -svspec, ...) are fixed by the
        // feature type vsh_speech_features computes, which is the en-us model's.
        let words = params.split(whereSeparator: \.isWhitespace).map(String.init)
        let frontEnd: Set = ["-lowerf", "-upperf", "-nfilt", "-transform", "-lifter", "-ncep", "-wlen", "-nfft", "-alpha"]
        let arguments = stride(from: 0, to: words.count - 1, by: 2)
            .filter { frontEnd.contains(words[$0]) }.flatMap { [words[$0], words[$0 + 1]] }
        guard let config = PocketSphinxConfig.parse(arguments + ["-samprate", "16000", "-dither", "no"]) else {
            throw AudioError("\(stock)/feat.params holds settings the speech front end refuses")
        }
        self.config = config
    }

    /// The score of an utterance's 16 kHz samples, heard as command recognition hears
    /// them (`SphinxCommandRecognizer.decodingAudio`).
    package func score(utterance samples: [Int16]) -> Double? {
        score(SphinxCommandRecognizer.decodingAudio(samples))
    }

    /// The score of 16 kHz `samples` as they are (nats per frame; nil when they hold no
    /// speech frames).
    func score(_ samples: [Int16]) -> Double? {
        var out: UnsafeMutablePointer<Float>?
        var frames: Int32 = 0
        let rc = samples.withUnsafeBufferPointer { vsh_speech_features(config.handle, $0.baseAddress, $0.count, &out, &frames) }
        defer { free(out) }
        guard rc == 0, let out, frames > 0 else { return nil }
        let shape = stock.shape
        let dim = shape.streams * shape.length
        var total = 0.0
        var stockScores = [Double](repeating: 0, count: shape.codebooks * shape.densities)
        for f in 0..<Int(frames) {
            let frame = UnsafeBufferPointer(start: out + f * dim, count: dim)
            for s in 0..<shape.streams {
                let x = Array(frame[(s * shape.length)..<((s + 1) * shape.length)])
                stock.logDensities(x, stream: s, into: &stockScores)
                let top = Self.largest(Self.best, of: stockScores)
                let general = Self.logSum(top.map { stockScores[$0] })
                let own = Self.logSum(top.map { adapted.logDensity(x, stream: s, index: $0) })
                total += own - general
            }
        }
        return total / Double(frames)
    }

    /// Indices of the `n` largest values.
    static func largest(_ n: Int, of values: [Double]) -> [Int] {
        var top: [Int] = []
        for i in values.indices {
            if top.count < n {
                top.append(i)
                top.sort { values[$0] > values[$1] }
            } else if values[i] > values[top[n - 1]] {
                top[n - 1] = i
                top.sort { values[$0] > values[$1] }
            }
        }
        return top
    }

    static func logSum(_ values: [Double]) -> Double {
        guard let m = values.max(), m > -.infinity else { return -.infinity }
        return m + log(values.reduce(0) { $0 + exp($1 - m) })
    }
}

/// A PocketSphinx model's Gaussians (`means`, `variances`: Sphinx-3 binary parameter
/// files of codebooks × streams × densities × values).
struct Gaussians {
    struct Shape: Equatable {
        var codebooks: Int
        var streams: Int
        var densities: Int
        var length: Int
    }

    let shape: Shape
    /// [stream][codebook × density][value]
    private let means: [[Float]]
    private let precisions: [[Float]]
    /// Each Gaussian's log normaliser, −½ Σ log 2πσ².
    private let constants: [[Double]]

    init(directory: String) throws {
        let (shape, mean) = try Self.read(directory + "/means")
        let (varShape, variance) = try Self.read(directory + "/variances")
        guard shape == varShape else { throw AudioError("\(directory): means and variances differ in shape") }
        self.shape = shape
        var means: [[Float]] = [], precisions: [[Float]] = [], constants: [[Double]] = []
        let count = shape.codebooks * shape.densities
        for s in 0..<shape.streams {
            var m = [Float](), p = [Float](), c = [Double]()
            m.reserveCapacity(count * shape.length)
            for g in 0..<count {
                let (codebook, density) = (g / shape.densities, g % shape.densities)
                let at = ((codebook * shape.streams + s) * shape.densities + density) * shape.length
                var constant = 0.0
                for d in 0..<shape.length {
                    let v = max(variance[at + d], 1e-4)
                    m.append(mean[at + d])
                    p.append(1 / v)
                    constant -= 0.5 * log(2 * .pi * Double(v))
                }
                c.append(constant)
            }
            means.append(m)
            precisions.append(p)
            constants.append(c)
        }
        self.means = means
        self.precisions = precisions
        self.constants = constants
    }

    /// Log density of `x` under every Gaussian of `stream`.
    func logDensities(_ x: [Float], stream: Int, into out: inout [Double]) {
        for g in 0..<(shape.codebooks * shape.densities) { out[g] = logDensity(x, stream: stream, index: g) }
    }

    /// Log density of `x` under Gaussian `g` of `stream`.
    func logDensity(_ x: [Float], stream: Int, index g: Int) -> Double {
        means[stream].withUnsafeBufferPointer { m in
            precisions[stream].withUnsafeBufferPointer { p in
                let n = shape.length
                var sum: Float = 0
                for d in 0..<n {
                    let diff = x[d] - m[g * n + d]
                    sum += diff * diff * p[g * n + d]
                }
                return constants[stream][g] - 0.5 * Double(sum)
            }
        }
    }

    /// A Sphinx-3 Gaussian parameter file: "s3" and header lines up to "endhdr", a 32-bit
    /// byte-order mark, codebooks, streams, densities, each stream's length, the value
    /// count, then the values (32-bit floats).
    static func read(_ path: String) throws -> (Shape, [Float]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AudioError("cannot read \(path); check that the speech model is installed")
        }
        let bytes = [UInt8](data)
        guard let end = data.range(of: Data("endhdr\n".utf8)) else { throw AudioError("\(path) has no Sphinx-3 header") }
        var offset = end.upperBound
        func int32() throws -> Int {
            guard offset + 4 <= bytes.count else { throw AudioError("\(path) is cut short") }
            let v = bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            offset += 4
            return Int(Int32(bitPattern: UInt32(littleEndian: v)))
        }
        guard try int32() == 0x1122_3344 else { throw AudioError("\(path) is not in this machine's byte order") }
        let codebooks = try int32(), streams = try int32(), densities = try int32()
        let lengths = try (0..<max(0, streams)).map { _ in try int32() }
        let count = try int32()
        guard streams > 0, Set(lengths).count == 1, let length = lengths.first,
              count == codebooks * densities * streams * length, offset + count * 4 <= bytes.count else {
            throw AudioError("\(path) does not hold equal streams of Gaussians")
        }
        let values = bytes[offset..<offset + count * 4].withUnsafeBytes { raw in
            (0..<count).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        return (Shape(codebooks: codebooks, streams: streams, densities: densities, length: length), values)
    }
}
