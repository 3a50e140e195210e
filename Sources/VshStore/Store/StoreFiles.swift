import Foundation
import VshCore

/// The few file operations the store needs, on plain POSIX calls: a store of 100,000
/// transcripts is 300,000 directory entries, and Foundation's per-file overhead shows.
enum StoreFiles {
    /// The message for the current `errno`.
    static var reason: String { String(cString: strerror(errno)) }

    /// The whole file, or nil with `errno` set. Files larger than `limit` bytes give nil
    /// with `errno` = EFBIG.
    static func read(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        guard Int(info.st_size) <= limit else {
            errno = EFBIG
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        let ok = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while count < buffer.count {
                let n = Foundation.read(fd, buffer.baseAddress! + count, buffer.count - count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return false }
                if n == 0 { break }
                count += n
            }
            return true
        }
        guard ok else { return nil }
        // A file that shrank while being read is taken as it was read.
        if count < bytes.count { bytes.removeLast(bytes.count - count) }
        return bytes
    }

    /// The names in a directory (without `.` and `..`), unsorted; nil if it cannot be read.
    static func names(in directory: String) -> [String]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` (mode 0700) unless it exists; `parents` creates missing ones too.
    static func makeDirectory(_ path: String, parents: Bool = false) throws {
        if mkdir(path, 0o700) == 0 { return }
        if errno == EEXIST {
            if isDirectory(path) { return }
            throw FileError("cannot use \(path): it is a file, not a directory; move it away", path: path, code: ENOTDIR, explained: true)
        }
        if parents && errno == ENOENT {
            try makeDirectory((path as NSString).deletingLastPathComponent, parents: true)
            return try makeDirectory(path)
        }
        throw FileError.current("cannot create the directory \(path)", path: path)
    }

    /// Moves a file without ever replacing one: a hard link fails if `to` exists, and
    /// only then is `from` unlinked. (Falls back to a checked rename where the file
    /// system has no hard links.)
    static func move(_ from: String, to: String) throws {
        if link(from, to) == 0 {
            unlink(from)
            return
        }
        let failure = errno
        if failure == EEXIST {
            throw CommandError("cannot move \(from): \(to) already exists")
        }
        guard failure == EPERM || failure == EOPNOTSUPP || failure == EMLINK, !exists(to),
              rename(from, to) == 0 else {
            errno = failure
            throw FileError.current("cannot move \(from) to \(to)", path: from)
        }
    }

    /// Removes the temporary files (`.NAME.PID.tmp`, `NAME.PID.tmp`) of writers that are
    /// gone: a writer killed before its rename leaves one.
    static func removeTemporaries(in directories: [String]) {
        for dir in directories {
            for name in names(in: dir) ?? [] where name.hasSuffix(".tmp") {
                let parts = name.split(separator: ".")
                guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]),
                      kill(pid, 0) != 0 && errno == ESRCH else { continue }
                unlink(dir + "/" + name)
            }
        }
    }

    /// What identifies a directory's state: any file added, removed or renamed in it
    /// changes its modification and change times.
    struct Stamp: Equatable, CustomStringConvertible {
        var device, inode: UInt64
        var modified, changed: Int64  // nanoseconds since 1970

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }

        var description: String { "\(device) \(inode) \(modified) \(changed)" }

        /// Seconds since the last change, by the real-time clock the file system uses.
        var age: Double {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let nanos = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
            return Double(nanos - max(modified, changed)) / 1e9
        }
    }
}

/// An advisory lock on `<store>/.lock` (flock): shared while reading, exclusive while
/// changing, so several vsh processes can share a store. The lock goes with the
/// descriptor, so it is released however the body ends, and even if vsh is killed.
///
/// While a change runs the lock file holds one byte: a lock file that is not empty
/// when the lock is taken means the last change was cut short (vsh killed, a disk
/// full), and the store is put right before anything else (StoreRecovery.swift).
enum StoreLock {
    /// Runs `body` holding the lock. A store that cannot be locked for writing (a
    /// read-only directory) is still read, under a read-only lock or unlocked; changing
    /// it throws, saying it is read-only.
    static func with<T>(_ store: String, exclusive: Bool, _ body: () throws -> T) throws -> T {
        try holding(store, exclusive: exclusive) { _ in try body() }
    }

    /// Runs the change `body` holding the exclusive lock, marking the lock file while it
    /// runs. `recover` runs first if the last change was interrupted, and again if
    /// `body` throws (a change that failed midway is finished or undone at once).
    static func changing<T>(_ store: String, recover: () -> Void, _ body: () throws -> T) throws -> T {
        try holding(store, exclusive: true) { fd in
            var info = stat()
            if fstat(fd, &info) == 0, info.st_size > 0 { recover() }
            var mark: UInt8 = 0x2A
            _ = pwrite(fd, &mark, 1, 0)
            do {
                let result = try body()
                _ = ftruncate(fd, 0)
                return result
            } catch {
                recover()
                _ = ftruncate(fd, 0)
                throw error
            }
        }
    }

    /// Whether the last change of `store` was cut short (its lock file is not empty).
    static func interrupted(_ store: String) -> Bool {
        var info = stat()
        return stat(store + "/.lock", &info) == 0 && info.st_size > 0
    }

    /// Whether this process may change files in `store` (false: a read-only directory
    /// or file system).
    static func writable(_ store: String) -> Bool { access(store, W_OK) == 0 }

    /// The error for a store this process may not change.
    static func readOnly(_ store: String, _ failure: Int32) -> CommandError {
        CommandError("the store \(store) is read-only (\(String(cString: strerror(failure)))): nothing was changed; "
            + "make it writable (chmod u+w) or use another store (--store DIR)")
    }

    private static func holding<T>(_ store: String, exclusive: Bool, _ body: (Int32) throws -> T) throws -> T {
        if exclusive && !writable(store) { throw readOnly(store, errno) }
        var fd = open(store + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 && !exclusive { fd = open(store + "/.lock", O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else {
            if !exclusive { return try body(-1) }
            if [EACCES, EROFS, EPERM].contains(errno) { throw readOnly(store, errno) }
            throw FileError.current("cannot lock the store \(store)", path: store)
        }
        defer { close(fd) }
        while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { throw FileError.current("cannot lock the store \(store)", path: store) }
        }
        return try body(fd)
    }
}
