import Foundation

/// Writes files so that a reader sees the old content or the new, never a mix:
/// a temporary file in the same directory, fsync, then rename over the target.
package enum AtomicFile {
    /// Writes `data` to `path` atomically with the given permissions (default 0600).
    /// `makeDirectories` creates missing parent directories (0700): right for vsh's own
    /// files, wrong for a path the person typed, which gets an error naming the directory.
    package static func write(_ data: Data, to path: String, permissions: Int = 0o600, makeDirectories: Bool = true) throws {
        let dir = (path as NSString).deletingLastPathComponent
        if makeDirectories {
            try makeDirectory(dir)
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir.isEmpty ? "." : dir, isDirectory: &isDirectory),
                  isDirectory.boolValue else {
                throw FileError("cannot write \(path): the directory \(dir) does not exist; create it first or choose another place",
                                path: dir, code: ENOENT, explained: true)
            }
        }
        let temp = dir + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else { throw FileError.current("cannot write \(temp)", path: temp) }
        var ok = false
        defer {
            if !ok { unlink(temp) }
        }
        let written = data.withUnsafeBytes { buf -> Bool in
            var offset = 0
            while offset < buf.count {
                let n = Foundation.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        let synced = written && fsync(fd) == 0
        let failure = errno
        close(fd)
        guard synced else { throw FileError("cannot write \(path)", path: path, code: failure) }
        guard rename(temp, path) == 0 else {
            throw FileError.current("cannot replace \(path)", path: path)
        }
        ok = true
        // Make the rename itself durable.
        syncDirectory(dir)
    }

    /// Makes the names in directory `path` durable (a file created, renamed or removed in
    /// it): `fsync` of the directory. Best effort: a directory that cannot be opened is left.
    package static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// Creates `dir` and its missing parents (0700). A file where a directory should be
    /// is named, not reported as Foundation's "a file with the same name already exists".
    static func makeDirectory(_ dir: String) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            var existing = dir
            while !existing.isEmpty, existing != "/", !FileManager.default.fileExists(atPath: existing) {
                existing = (existing as NSString).deletingLastPathComponent
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: existing, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw FileError("cannot create the directory \(dir): \(existing) is a file, not a directory",
                                path: existing, code: ENOTDIR, explained: true)
            }
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? Int(EACCES)
            throw FileError("cannot create the directory \(dir)", path: dir, code: Int32(code))
        }
    }

    package static func write(_ text: String, to path: String, permissions: Int = 0o600) throws {
        try write(Data(text.utf8), to: path, permissions: permissions)
    }
}
