import Foundation
import VshCore

/// Turns one audio file into its sealed form or back, in place and atomically: the new
/// form is written beside it under a name starting with `.` (`.<name>.vsh-convert`),
/// made durable (`fsync`), checked, given the old file's times, and renamed over the
/// old. A crash at any moment leaves the file readable in one form or the other.
///
/// The file is held with an exclusive `flock` while it is converted; a file that a
/// recorder is writing (`WavWriter` and `SealedAudioWriter` hold that lock) is left
/// alone and reported busy, as is a file that changes while it is read.
package enum AudioConversion {
    package enum Outcome: Equatable {
        case converted
        /// Already in the form asked for.
        case unchanged
        /// Being written, or changed while it was read: left as it is.
        case busy
        /// Left as it is, for this reason.
        case failed(String)
    }

    /// The temporary file beside `path`.
    static func temporary(for path: String) -> String {
        let url = path as NSString
        return url.deletingLastPathComponent + "/." + url.lastPathComponent + suffix
    }
    package static let suffix = ".vsh-convert"

    /// Encrypts `path` with `key`.
    package static func seal(_ path: String, key: AudioKey) -> Outcome {
        convert(path, toSealed: true) { fd, size, temp in
            let writer = try SealedAudioWriter(path: temp, key: key, chunkSize: 1 << 16)
            var offset = 0
            while offset < size {
                guard let block = SealedAudioReader.readAt(fd, at: offset, length: min(1 << 20, size - offset)),
                      !block.isEmpty else { throw FileError.current("cannot read \(path)", path: path) }
                try writer.append(block)
                offset += block.count
            }
            try writer.finish()
            // Read the new file back before it replaces the old one.
            let check = try SealedAudioReader(path: temp, key: key, keyFile: nil)
            offset = 0
            while offset < size {
                let length = min(1 << 20, size - offset)
                guard check.complete, try check.read(at: offset, length: length)
                        == SealedAudioReader.readAt(fd, at: offset, length: length) else {
                    throw CommandError("the encrypted copy of \(path) did not read back the same; the file was left as it is")
                }
                offset += length
            }
            guard check.count == size else {
                throw CommandError("the encrypted copy of \(path) did not read back the same; the file was left as it is")
            }
        }
    }

    /// Decrypts `path` with `key` (the WAV sizes of a recording sealed as it was made
    /// are written right: see `AudioBytes`).
    package static func unseal(_ path: String, key: AudioKey, keyFile: KeyFile?) -> Outcome {
        convert(path, toSealed: false) { _, _, temp in
            let audio = try AudioBytes(sealed: SealedAudioReader(path: path, key: key, keyFile: keyFile))
            let out = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard out >= 0 else { throw FileError.current("cannot write \(temp)", path: temp) }
            defer { close(out) }
            var offset = 0
            while offset < audio.count {
                let block = try audio.read(at: offset, length: min(1 << 20, audio.count - offset))
                guard !block.isEmpty else { break }
                guard block.withUnsafeBytes({ PositionalWrite.all(out, $0, at: offset) }) else {
                    throw FileError.current("cannot write \(temp)", path: temp)
                }
                offset += block.count
            }
            guard fchmod(out, 0o600) == 0, fsync(out) == 0 else { throw FileError.current("cannot write \(temp)", path: temp) }
        }
    }

    /// Holds `path` locked, has `write` make the new form at the temporary path from the
    /// old one's descriptor and size, then renames it into place.
    private static func convert(
        _ path: String, toSealed: Bool, _ write: (_ fd: Int32, _ size: Int, _ temp: String) throws -> Void
    ) -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return .failed("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            return errno == EWOULDBLOCK ? .busy : .failed("cannot lock \(path): \(String(cString: strerror(errno)))")
        }
        var before = stat()
        guard fstat(fd, &before) == 0, before.st_mode & S_IFMT == S_IFREG else { return .failed("\(path) is not a regular file") }
        let start = SealedAudioReader.readAt(fd, at: 0, length: SealedAudio.magic.count) ?? []
        if SealedAudio.isSealed(start) == toSealed { return .unchanged }
        let temp = temporary(for: path)
        do {
            try write(fd, Int(before.st_size), temp)
            var after = stat()
            guard fstat(fd, &after) == 0, after.st_size == before.st_size,
                  after.st_mtim.tv_sec == before.st_mtim.tv_sec, after.st_mtim.tv_nsec == before.st_mtim.tv_nsec else {
                unlink(temp)
                return .busy
            }
            var times = [before.st_atim, before.st_mtim]
            utimensat(AT_FDCWD, temp, &times, 0)
            guard rename(temp, path) == 0 else { throw FileError.current("cannot replace \(path)", path: path) }
            AtomicFile.syncDirectory((path as NSString).deletingLastPathComponent)
            return .converted
        } catch {
            unlink(temp)
            return .failed("\(error)")
        }
    }
}
