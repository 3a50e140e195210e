import Foundation
import VshCore

/// An audio file of the store as bytes read at any offset, whether it is plain or sealed
/// (`SealedAudio`): what `WaveFile`, `show`'s sketch, and libsndfile's virtual I/O (in
/// VshAudio: play, transcribe) read through, so encryption is transparent to them.
///
/// A sealed WAV written as it was recorded carries zero sizes in its header (the header
/// was sealed before the sizes were known); this view puts the sizes right, as
/// `WaveFile.repair` does on disk for a plain WAV whose recorder was killed.
package final class AudioBytes {
    package let path: String
    /// Bytes in the file (plain bytes, for a sealed file).
    package let count: Int
    /// The sealed file's reader; nil for a plain file.
    package let sealed: SealedAudioReader?
    /// Owned: closed in deinit; -1 for a sealed file (the reader has its own).
    private let descriptor: Int32
    /// Bytes shown in place of the file's: the corrected WAV sizes of a sealed WAV.
    private var patches: [(offset: Int, bytes: [UInt8])] = []

    /// Opens `path`; a sealed file needs the key in `keyFile`. Throws an `AudioError`
    /// naming the file: missing, unreadable, sealed with a key that is not there.
    package convenience init(path: String, keyFile: KeyFile? = KeyFile.current) throws {
        if SealedAudio.isSealed(path: path) {
            self.init(sealed: try SealedAudioReader(path: path, keyFile: keyFile))
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw AudioError("cannot read audio file '\(path)': \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw AudioError("cannot read audio file '\(path)': \(String(cString: strerror(errno)))")
        }
        self.init(path: path, descriptor: fd, count: Int(info.st_size))
    }

    private init(path: String, descriptor: Int32, count: Int) {
        self.path = path
        self.descriptor = descriptor
        self.count = count
        sealed = nil
    }

    /// The plain view of a sealed file already open.
    init(sealed reader: SealedAudioReader) {
        path = reader.path
        sealed = reader
        count = reader.count
        descriptor = -1
        patchWaveSizes()
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Up to `length` bytes from `offset`: fewer at the end of the file.
    package func read(at offset: Int, length: Int) throws -> [UInt8] {
        var bytes: [UInt8]
        if let sealed {
            bytes = try sealed.read(at: offset, length: length)
        } else {
            bytes = SealedAudioReader.readAt(descriptor, at: offset, length: max(0, length)) ?? []
        }
        for patch in patches where patch.offset < offset + bytes.count && patch.offset + patch.bytes.count > offset {
            for (i, b) in patch.bytes.enumerated() where (offset..<(offset + bytes.count)).contains(patch.offset + i) {
                bytes[patch.offset + i - offset] = b
            }
        }
        return bytes
    }

    /// The whole file, for conversion and tests; nil-free but memory-bound.
    package func readAll() throws -> [UInt8] { try read(at: 0, length: count) }

    /// For a sealed WAV whose sizes are stale, the right ones.
    private func patchWaveSizes() {
        guard let wave = WaveFile(self), wave.sizesStale else { return }
        func u32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(clamping: value).littleEndian) { Array($0) } }
        patches = [(4, u32(wave.dataOffset + wave.dataBytes - 8)), (wave.dataOffset - 4, u32(wave.dataBytes))]
    }
}
