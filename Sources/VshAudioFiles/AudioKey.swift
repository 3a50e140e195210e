import Crypto
import Foundation
import VshCore

/// The key that encrypts audio at rest (`encrypt on`): 32 random bytes. Files and
/// messages name it by `id`, a fingerprint that does not reveal it, so a file sealed with
/// another key is reported as such rather than as damaged.
package struct AudioKey: Sendable {
    /// The 32 bytes (kept as bytes: `SymmetricKey` is not `Sendable`).
    private let bytes: [UInt8]
    /// 16 lower-case hex digits: the first 8 bytes of SHA-256 over a label and the key.
    package let id: String

    init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "an audio key is 32 bytes")
        self.bytes = bytes
        id = Self.fingerprint(bytes)
    }

    var key: SymmetricKey { SymmetricKey(data: bytes) }

    /// The key as the key file holds it.
    var hex: String { Hex.string(bytes) }

    /// A new key from the system's random number generator.
    static func generate() -> AudioKey {
        let key = SymmetricKey(size: .bits256)
        return AudioKey(bytes: key.withUnsafeBytes { Array($0) })
    }

    static func fingerprint(_ bytes: [UInt8]) -> String {
        let digest = SHA256.hash(data: Array("vsh audio key id\n".utf8) + bytes)
        return Hex.string(Array(digest.prefix(8)))
    }
}

/// The file that holds the audio key: `<config>/key`, 64 hex digits and a line break,
/// mode 0600. It is created once and never overwritten; like ssh, vsh refuses a key file
/// that other users can read.
package struct KeyFile: Sendable, Equatable {
    package let path: String

    package init(path: String) { self.path = path }

    /// The key file this process uses: set once at start from `Paths.keyFile` (VshApp),
    /// and read by everything that opens encrypted audio (`AudioBytes`, the store).
    package static var current: KeyFile? {
        get { configured.withLock { $0 } }
        set { configured.withLock { $0 = newValue } }
    }
    private static let configured = Locked<KeyFile?>(nil)

    /// The key; nil when the file does not exist. Throws, saying what to do, when the
    /// file is readable by others, damaged or unreadable.
    package func load() throws -> AudioKey? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 && errno == ELOOP {
            throw CommandError("the key file \(path) is a symbolic link; replace it with the file itself (mode 0600)")
        }
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw FileError.current("cannot read the key file \(path)", path: path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError.current("cannot read the key file \(path)", path: path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw CommandError("the key file \(path) is not a regular file") }
        let mode = Int(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw CommandError(
                "the key file \(path) can be read by other users (mode \(String(mode, radix: 8))); "
                    + "make it private with 'chmod 600 \(path)' and try again")
        }
        var buffer = [UInt8](repeating: 0, count: 200)
        let n = read(fd, &buffer, buffer.count)
        guard n >= 0 else { throw FileError.current("cannot read the key file \(path)", path: path) }
        let text = String(decoding: buffer.prefix(n), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Hex.bytes(text), bytes.count == 32 else {
            throw CommandError(
                "the key file \(path) is damaged: it should hold 64 hex digits; restore it from your backup")
        }
        return AudioKey(bytes: bytes)
    }

    /// Writes a new random key, mode 0600, in a directory created 0700 if missing. Never
    /// replaces a file: throws when one exists.
    package func create() throws -> AudioKey {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CommandError("cannot create the directory \(directory) for the key: \(error.localizedDescription)")
        }
        let key = AudioKey.generate()
        let text = Array((key.hex + "\n").utf8)
        // Written whole under a temporary name, then linked into place: link() fails when
        // the key file exists, so a key is never overwritten or half-written.
        let temp = directory + "/.key.\(getpid()).tmp"
        unlink(temp)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError.current("cannot write the key file \(path)", path: path) }
        defer { unlink(temp) }
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == text.count
        let synced = written && fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        let failure = errno
        close(fd)
        guard synced else { throw FileError("cannot write the key file \(path)", path: path, code: failure) }
        guard link(temp, path) == 0 else {
            if errno == EEXIST { throw CommandError("the key file \(path) already exists; vsh never replaces a key") }
            throw FileError.current("cannot write the key file \(path)", path: path)
        }
        AtomicFile.syncDirectory(directory)
        return key
    }
}

/// Lower-case hex.
enum Hex {
    static func string(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out += [digits[Int(b >> 4)], digits[Int(b & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = value(chars[i]), let lo = value(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
