import Foundation
import VshCore

/// Writes a recording as it goes: a 16-bit mono PCM WAV with the canonical 44-byte header,
/// created with mode 0600 (recordings of a voice are private).
///
/// Crash safety: every `append` first writes its samples after the ones already in the
/// file, then rewrites the two size fields of the header (the RIFF size at byte 4 and the
/// data size at byte 40, two 4-byte `pwrite`s). So once `append` returns, the file is a
/// complete, valid WAV of everything appended so far, readable by any WAV reader; if the
/// process dies inside an `append`, the header still describes the earlier appends and the
/// partial tail past it is ignored by readers. That is the page cache's view: `finish()`
/// makes it durable with `fsync`; a power cut before then can lose what the system had
/// not yet written to disk.
///
/// Why the header is written here rather than by libsndfile (which can rewrite its header
/// after each write with `SFC_SET_UPDATE_HEADER_AUTO`): the format is 44 fixed bytes, the
/// order "data, then sizes" is guaranteed by this code rather than by a library's
/// internals, every write is a `pwrite` at an explicit offset (a failed append leaves no
/// shifted data behind; the next one writes at the same place), and vsh needs the
/// descriptor itself anyway to create the file 0600 and to `fsync` it.
///
/// Owns the file descriptor; `finish()` closes it, or `deinit` if `finish()` was never
/// called (the file is then as complete as after the last append). Not thread-safe.
package final class WavWriter {
    /// The path as given.
    package let path: String
    package let sampleRate: Int
    /// Samples appended so far (and described by the header on disk).
    package private(set) var sampleCount = 0
    /// Seconds appended so far.
    package var duration: Double { Double(sampleCount) / Double(sampleRate) }

    /// Owned: closed by `finish()` or in deinit; -1 once closed.
    private var descriptor: Int32

    static let headerSize = 44
    /// The most data a WAV can describe: its sizes are 32-bit, and the RIFF size counts
    /// 36 header bytes besides the data.
    static let maximumDataBytes = Int(UInt32.max) - 36

    /// Creates (or truncates) `path` with mode 0600 and writes the header of an empty
    /// recording at `sampleRate` Hz.
    package init(path: String, sampleRate: Int = AudioFormat.sampleRate) throws {
        precondition(sampleRate > 0 && sampleRate <= 1_000_000, "sample rate \(sampleRate) Hz")
        self.path = path
        self.sampleRate = sampleRate
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WavWriter.error(path, WavWriter.reason(errno: errno)) }
        descriptor = fd
        // Held while writing, so that `encrypt on|off` leaves a recording in progress alone.
        flock(fd, LOCK_EX | LOCK_NB)
        // O_CREAT's mode only applies to a new file; an old one keeps its own.
        guard fchmod(fd, 0o600) == 0 else { throw failure() }
        let header = WavWriter.header(sampleRate: sampleRate, dataBytes: 0)
        try header.withUnsafeBytes { try write($0, at: 0) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Writes `samples` to the file, then updates the header's sizes to include them.
    package func append(_ samples: [Int16]) throws {
        precondition(descriptor >= 0, "WavWriter.append after finish()")
        if samples.isEmpty { return }
        let dataBytes = sampleCount * 2
        guard dataBytes + samples.count * 2 <= WavWriter.maximumDataBytes else {
            throw WavWriter.error(path, "a WAV file holds at most 4 GB; start a new recording")
        }
        let little = samples.map { $0.littleEndian }
        do {
            try little.withUnsafeBytes { try write($0, at: WavWriter.headerSize + dataBytes) }
        } catch {
            // A write cut short (a full disk) leaves part of the samples past the data the
            // header describes: take them off, so the file stays exactly a WAV.
            _ = ftruncate(descriptor, off_t(WavWriter.headerSize + dataBytes))
            throw error
        }
        sampleCount += samples.count
        try writeSizes()
    }

    /// Flushes the file to disk (`fsync`) and closes it. Calling it again does nothing.
    package func finish() throws {
        guard descriptor >= 0 else { return }
        let synced = fsync(descriptor) == 0
        let syncError = errno
        let closed = close(descriptor) == 0
        let closeError = errno
        descriptor = -1
        guard synced else { throw WavWriter.error(path, String(cString: strerror(syncError))) }
        guard closed else { throw WavWriter.error(path, String(cString: strerror(closeError))) }
        // Make the file's directory entry durable too; a failure here loses nothing written.
        let directory = (path as NSString).deletingLastPathComponent
        let dirfd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }

    /// The RIFF size (byte 4) and the data size (byte 40), little-endian.
    private func writeSizes() throws {
        let dataBytes = UInt32(sampleCount * 2)
        var riff = (dataBytes + 36).littleEndian
        var data = dataBytes.littleEndian
        try withUnsafeBytes(of: &riff) { try write($0, at: 4) }
        try withUnsafeBytes(of: &data) { try write($0, at: 40) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        guard PositionalWrite.all(descriptor, bytes, at: offset) else { throw failure() }
    }

    private func failure() -> AudioError {
        WavWriter.error(path, WavWriter.reason(errno: errno))
    }

    /// A whole 16-bit mono PCM WAV of `samples` at `rate`, in memory: for clips and takes,
    /// written at once.
    package static func bytes(_ samples: [Int16], rate: Int) -> Data {
        var data = Data(header(sampleRate: rate, dataBytes: samples.count * 2))
        data.reserveCapacity(headerSize + samples.count * 2)
        let little = samples.map { $0.littleEndian }
        little.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }

    /// The 44-byte header of a 16-bit mono PCM WAV holding `dataBytes` bytes of samples.
    static func header(sampleRate: Int, dataBytes: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize)
        func text(_ s: String) { bytes += Array(s.utf8) }
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { bytes += $0 } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { bytes += $0 } }
        text("RIFF"); u32(36 + dataBytes); text("WAVE")
        text("fmt "); u32(16)
        u16(1)  // PCM
        u16(1)  // channels
        u32(sampleRate)
        u32(sampleRate * 2)  // bytes per second
        u16(2)  // bytes per frame
        u16(16)  // bits per sample
        text("data"); u32(dataBytes)
        return bytes
    }

    static func error(_ path: String, _ reason: String) -> AudioError {
        AudioError("cannot write audio file '\(path)': \(reason)")
    }

    /// Why `open` failed, in words a person can act on.
    static func reason(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "its directory does not exist"
        case EACCES, EPERM: return "permission denied; choose a directory you can write to"
        case EISDIR: return "it is a directory; give a file name"
        case ENOSPC, EDQUOT: return "no space left on the device; free some space"
        case EFBIG: return "the file is too large (the disk is full or a file-size limit was reached); free some space"
        default: return String(cString: strerror(code))
        }
    }
}
