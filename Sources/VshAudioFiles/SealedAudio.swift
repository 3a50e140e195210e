import Crypto
import Foundation

/// The encrypted form of an audio file (FORMAT.md, "Encrypted audio"): a 48-byte header
/// that starts with the text `VSHENC1` and the key's id, then the file's bytes in chunks
/// sealed one by one with ChaChaPoly, so a file can be written as audio arrives and a
/// writer killed mid-way leaves every complete chunk readable.
///
/// ```
/// 0   8  "VSHENC1\n"
/// 8  16  the key's id: 16 lower-case hex digits (AudioKey.id)
/// 24  1  "\n"
/// 25 16  salt: random, one per file
/// 41  4  chunk size: plain bytes per chunk, little-endian
/// 45  3  zero
/// 48 ..  chunks: ciphertext then 16-byte tag; every chunk but the last holds exactly
///        `chunk size` bytes, the last (flagged final) 0…chunk size
/// ```
/// Each file's key is HKDF-SHA256 of the audio key and the salt. Chunk `i` is sealed with
/// the nonce `i` (8 bytes, little-endian), then the final flag (1 byte), then 3 zero bytes,
/// and authenticates the header, `i` and the flag: a chunk moved, dropped, altered, or a
/// file cut short cannot pass as whole. A file with no final chunk was cut short (its
/// writer was killed): it holds what its complete chunks hold.
package enum SealedAudio {
    static let magic = Array("VSHENC1\n".utf8)
    static let headerSize = 48
    static let tagSize = 16
    /// Bounds on the chunk size a header may state (a damaged one may state anything).
    static let chunkSizes = 1...(16 << 20)

    /// Whether `bytes` start like a sealed file.
    package static func isSealed(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count >= magic.count && bytes.prefix(magic.count).elementsEqual(magic)
    }

    /// Whether the file at `path` starts like a sealed file (false when it cannot be read).
    package static func isSealed(path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var start = [UInt8](repeating: 0, count: magic.count)
        return pread(fd, &start, start.count, 0) == start.count && isSealed(start)
    }

    /// What a sealed file's header says.
    package struct Header: Equatable, Sendable {
        /// The id of the key it was sealed with.
        package var keyID: String
        var salt: [UInt8]
        var chunkSize: Int

        init(keyID: String, salt: [UInt8], chunkSize: Int) {
            self.keyID = keyID
            self.salt = salt
            self.chunkSize = chunkSize
        }

        /// Parses the 48 bytes of a header; nil when they are not one.
        init?(_ bytes: [UInt8]) {
            guard bytes.count == SealedAudio.headerSize, SealedAudio.isSealed(bytes), bytes[24] == 10 else { return nil }
            let id = String(decoding: bytes[8..<24], as: UTF8.self)
            guard id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
            let size = Int(bytes[41]) | Int(bytes[42]) << 8 | Int(bytes[43]) << 16 | Int(bytes[44]) << 24
            guard SealedAudio.chunkSizes.contains(size) else { return nil }
            self.init(keyID: id, salt: Array(bytes[25..<41]), chunkSize: size)
        }

        /// Reads the header of the file at `path`: nil when it is not a sealed file, or
        /// cannot be read.
        package static func read(path: String) -> Header? {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: SealedAudio.headerSize)
            guard pread(fd, &bytes, bytes.count, 0) == bytes.count else { return nil }
            return Header(bytes)
        }

        var bytes: [UInt8] {
            var out = SealedAudio.magic + Array(keyID.utf8) + [10] + salt
            withUnsafeBytes(of: UInt32(chunkSize).littleEndian) { out += $0 }
            return out + [0, 0, 0]
        }
    }

    /// The key one file's chunks are sealed with.
    static func fileKey(_ key: AudioKey, salt: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key.key, salt: salt, info: Array("vsh audio v1".utf8), outputByteCount: 32)
    }

    static func nonce(_ index: Int, final: Bool) -> ChaChaPoly.Nonce {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt64(index).littleEndian) { bytes += $0 }
        bytes += [final ? 1 : 0, 0, 0, 0]
        return try! ChaChaPoly.Nonce(data: bytes)  // 12 bytes: cannot fail
    }

    static func authenticated(_ header: [UInt8], _ index: Int, final: Bool) -> [UInt8] {
        var bytes = header
        withUnsafeBytes(of: UInt64(index).littleEndian) { bytes += $0 }
        return bytes + [final ? 1 : 0]
    }

    /// Chunk `index` sealed: ciphertext then tag.
    static func seal(_ plain: some DataProtocol, index: Int, final: Bool, key: SymmetricKey, header: [UInt8]) -> [UInt8] {
        let box = try! ChaChaPoly.seal(  // fails only for a key or nonce of the wrong size
            plain, using: key, nonce: nonce(index, final: final),
            authenticating: authenticated(header, index, final: final))
        return Array(box.ciphertext) + Array(box.tag)
    }

    /// Chunk `index` opened; nil when it does not authenticate as that chunk.
    static func unseal(_ sealed: [UInt8], index: Int, final: Bool, key: SymmetricKey, header: [UInt8]) -> [UInt8]? {
        guard sealed.count >= tagSize,
              let box = try? ChaChaPoly.SealedBox(
                nonce: nonce(index, final: final), ciphertext: sealed.dropLast(tagSize), tag: sealed.suffix(tagSize)),
              let plain = try? ChaChaPoly.open(box, using: key, authenticating: authenticated(header, index, final: final))
        else { return nil }
        return Array(plain)
    }

    /// A whole file's bytes sealed at once (for short files such as clips).
    package static func seal(_ plain: [UInt8], key: AudioKey, chunkSize: Int = 1 << 16) -> [UInt8] {
        let header = Header(keyID: key.id, salt: randomSalt(), chunkSize: chunkSize)
        let fileKey = fileKey(key, salt: header.salt)
        let headerBytes = header.bytes
        var out = headerBytes
        var index = 0
        var start = 0
        while plain.count - start > chunkSize {
            out += seal(plain[start..<(start + chunkSize)], index: index, final: false, key: fileKey, header: headerBytes)
            start += chunkSize
            index += 1
        }
        out += seal(plain[start...], index: index, final: true, key: fileKey, header: headerBytes)
        return out
    }

    static func randomSalt() -> [UInt8] {
        SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
    }

    /// The message for a file sealed with a key this process does not have.
    /// `path` names the file, or is nil where the message already has (then "it is").
    package static func keyProblem(_ path: String?, keyID: String, keyFile: KeyFile?, found: AudioKey?) -> String {
        let keyPath = keyFile?.path ?? "the configuration directory's 'key'"
        let have = found.map { "the key in \(keyPath) is \($0.id), a different key" }
            ?? "there is no key file at \(keyPath)"
        return "\(path ?? "it") is encrypted with key \(keyID), and \(have). Restore the key file that holds key \(keyID) "
            + "from your backup to \(keyPath); without it this audio cannot be recovered. The file was left as it is."
    }
}
