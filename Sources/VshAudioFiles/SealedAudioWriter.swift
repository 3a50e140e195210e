import Crypto
import Foundation
import VshCore

/// Writes a sealed file (`SealedAudio`) as its bytes arrive: each time a chunk's worth
/// has been appended, the chunk is sealed and written at its place with `pwrite`; the
/// rest waits in memory for the next append. `finish()` seals what is left as the final
/// chunk and makes the file durable.
///
/// Crash safety: once `append` returns, every complete chunk is in the file (the page
/// cache's view, as with `WavWriter`), so a writer killed mid-way loses at most the bytes
/// of one chunk and the file reads as cut short. A chunk is always written at the same
/// place with the same nonce and the same bytes, so a write that failed (disk full) is
/// simply made again by the next append; the final chunk has nonces of its own.
///
/// Holds an exclusive `flock` on the file while it is open, so `encrypt on|off` leaves a
/// recording in progress alone. Owns the descriptor: `finish()` closes it, or `deinit`
/// (which also seals the final chunk, best effort). Not thread-safe.
package final class SealedAudioWriter {
    package let path: String
    /// Plain bytes appended so far.
    package private(set) var byteCount = 0

    private var descriptor: Int32
    private let header: [UInt8]
    private let chunkSize: Int
    private let key: SymmetricKey
    /// Chunks written so far.
    private var chunks = 0
    /// Appended bytes not yet in a written chunk (fewer than `chunkSize` after an append
    /// that succeeded).
    private var pending: [UInt8] = []

    /// Creates (or truncates) `path` with mode 0600 and writes the header. `chunkSize`:
    /// plain bytes per chunk, what a crash may lose at most.
    package init(path: String, key: AudioKey, chunkSize: Int) throws {
        precondition(SealedAudio.chunkSizes.contains(chunkSize), "chunk size \(chunkSize)")
        self.path = path
        self.chunkSize = chunkSize
        let header = SealedAudio.Header(keyID: key.id, salt: SealedAudio.randomSalt(), chunkSize: chunkSize)
        self.header = header.bytes
        self.key = SealedAudio.fileKey(key, salt: header.salt)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.error(path, String(cString: strerror(errno))) }
        descriptor = fd
        flock(fd, LOCK_EX | LOCK_NB)
        guard fchmod(fd, 0o600) == 0 else { throw failure() }
        try self.header.withUnsafeBytes { try write($0, at: 0) }
        pending.reserveCapacity(chunkSize * 2)
    }

    deinit {
        if descriptor >= 0 {
            try? sealFinal()
            close(descriptor)
        }
    }

    /// Adds `bytes`, writing every chunk they complete. When it throws, the bytes are
    /// still held and go out with the next append or `finish()`.
    package func append(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(descriptor >= 0, "SealedAudioWriter.append after finish()")
        pending.append(contentsOf: bytes)
        byteCount += bytes.count
        try writeFullChunks()
    }

    package func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    /// Seals the rest as the final chunk, flushes the file to disk (`fsync`) and closes
    /// it. Calling it again does nothing.
    package func finish() throws {
        guard descriptor >= 0 else { return }
        defer {
            close(descriptor)
            descriptor = -1
        }
        try writeFullChunks()
        try sealFinal()
        guard fsync(descriptor) == 0 else { throw failure() }
        AtomicFile.syncDirectory((path as NSString).deletingLastPathComponent)
    }

    private func writeFullChunks() throws {
        var start = 0
        defer { if start > 0 { pending.removeFirst(start) } }
        while pending.count - start >= chunkSize {
            let sealed = SealedAudio.seal(
                pending[start..<(start + chunkSize)], index: chunks, final: false, key: key, header: header)
            try sealed.withUnsafeBytes { try write($0, at: offset(of: chunks)) }
            chunks += 1
            start += chunkSize
        }
    }

    private func sealFinal() throws {
        let sealed = SealedAudio.seal(pending, index: chunks, final: true, key: key, header: header)
        try sealed.withUnsafeBytes { try write($0, at: offset(of: chunks)) }
    }

    private func offset(of chunk: Int) -> Int {
        SealedAudio.headerSize + chunk * (chunkSize + SealedAudio.tagSize)
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        guard PositionalWrite.all(descriptor, bytes, at: offset) else { throw failure() }
    }

    private func failure() -> AudioError {
        Self.error(path, errno == ENOSPC ? "no space left on the device" : String(cString: strerror(errno)))
    }

    static func error(_ path: String, _ reason: String) -> AudioError {
        AudioError("cannot write encrypted audio file '\(path)': \(reason)")
    }
}
