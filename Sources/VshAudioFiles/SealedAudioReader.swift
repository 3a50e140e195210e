import Crypto
import Foundation
import VshCore

/// Reads a sealed file (`SealedAudio`) at any offset, opening one chunk at a time (the
/// last is kept, so sequential reads open each chunk once).
///
/// Opening checks the key (missing or different: an error naming the file, the key it
/// needs and where it goes) and finds the end: a final chunk that authenticates, or else
/// the file was cut short (its writer was killed) and holds its complete chunks; a torn
/// last chunk is ignored then, as a WAV reader ignores a partial sample. Any other chunk
/// that does not authenticate is an error naming the file: it was damaged or altered.
/// Owns its descriptor, closed in deinit. Not thread-safe.
package final class SealedAudioReader {
    package let path: String
    package let header: SealedAudio.Header
    /// Plain bytes in the file.
    package let count: Int
    /// Whether the file ends with its final chunk; false when its writer was cut short.
    package let complete: Bool

    private let descriptor: Int32
    private let key: SymmetricKey
    private let headerBytes: [UInt8]
    /// Chunks holding `count` bytes.
    private let chunkCount: Int
    /// The index of the final chunk (when `complete`).
    private let finalIndex: Int?
    private var cached: (index: Int, bytes: [UInt8])?

    /// Opens `path` with the key in `keyFile`.
    package convenience init(path: String, keyFile: KeyFile? = KeyFile.current) throws {
        let key = try keyFile?.load()
        try self.init(path: path, key: key, keyFile: keyFile)
    }

    /// Opens `path` with `key` (nil: there is none; `keyFile` names where it should be).
    package init(path: String, key: AudioKey?, keyFile: KeyFile?) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error(path, String(cString: strerror(errno))) }
        descriptor = fd
        var bytes = [UInt8](repeating: 0, count: SealedAudio.headerSize)
        var info = stat()
        guard fstat(fd, &info) == 0, pread(fd, &bytes, bytes.count, 0) == bytes.count,
              let header = SealedAudio.Header(bytes) else {
            close(fd)
            throw Self.error(path, "it starts like vsh encrypted audio but its header is damaged or cut short")
        }
        guard let key, key.id == header.keyID else {
            close(fd)
            throw AudioError("cannot read audio file '\(path)': "
                + SealedAudio.keyProblem(nil, keyID: header.keyID, keyFile: keyFile, found: key))
        }
        self.header = header
        headerBytes = bytes
        let fileKey = SealedAudio.fileKey(key, salt: header.salt)
        self.key = fileKey
        let body = Int(info.st_size) - SealedAudio.headerSize
        let sealedChunk = header.chunkSize + SealedAudio.tagSize
        let full = body / sealedChunk, rest = body % sealedChunk
        // Where the file ends: its final chunk, else the last complete chunk.
        func opens(_ index: Int, _ length: Int, final: Bool) -> [UInt8]? {
            Self.readAt(fd, at: SealedAudio.headerSize + index * sealedChunk, length: length).flatMap {
                SealedAudio.unseal($0, index: index, final: final, key: fileKey, header: bytes)
            }
        }
        if rest >= SealedAudio.tagSize, let last = opens(full, rest, final: true) {
            (count, complete, chunkCount, finalIndex) = (full * header.chunkSize + last.count, true, full + 1, full)
            cached = (full, last)
        } else if rest == 0, full > 0, let last = opens(full - 1, sealedChunk, final: true) {
            (count, complete, chunkCount, finalIndex) = (full * header.chunkSize, true, full, full - 1)
            cached = (full - 1, last)
        } else {
            (count, complete, chunkCount, finalIndex) = (full * header.chunkSize, false, full, nil)
        }
    }

    deinit { close(descriptor) }

    /// Up to `length` plain bytes from `offset` (fewer at the end). Throws when a chunk
    /// does not authenticate.
    package func read(at offset: Int, length: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        var at = max(0, offset)
        let end = min(count, offset + max(0, length))
        out.reserveCapacity(max(0, end - at))
        while at < end {
            let index = at / header.chunkSize
            let plain = try chunk(index)
            let start = at - index * header.chunkSize
            let take = min(plain.count - start, end - at)
            guard take > 0 else { break }
            out += plain[start..<(start + take)]
            at += take
        }
        return out
    }

    /// Chunk `index`'s plain bytes.
    func chunk(_ index: Int) throws -> [UInt8] {
        if let cached, cached.index == index { return cached.bytes }
        let sealedChunk = header.chunkSize + SealedAudio.tagSize
        let final = index == finalIndex
        guard index < chunkCount,
              let sealed = Self.readAt(descriptor, at: SealedAudio.headerSize + index * sealedChunk, length: sealedChunk),
              sealed.count == sealedChunk || final,
              let plain = SealedAudio.unseal(sealed, index: index, final: final, key: key, header: headerBytes)
        else {
            throw Self.error(path, "part \(index + 1) of its \(chunkCount) encrypted parts fails authentication: "
                + "the file was damaged or changed after vsh wrote it. vsh left it as it is; restore it from a backup")
        }
        cached = (index, plain)
        return plain
    }

    /// Up to `length` bytes at `offset` (fewer at the end of the file); nil on a read error.
    static func readAt(_ fd: Int32, at offset: Int, length: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, length - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            done += n
        }
        return Array(buffer.prefix(done))
    }

    static func error(_ path: String, _ reason: String) -> AudioError {
        AudioError("cannot read audio file '\(path)': \(reason)")
    }
}
