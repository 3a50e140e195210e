import Foundation
import VshCore

/// A cache of every `.txt` file of the store in one file, `<store>/.cache/index`, so that
/// `list` and `search` read one file rather than 100,000. The `.txt` files stay the truth:
/// the cache is used only while the store directory's stamp (modification and change
/// times, which any file added, removed or renamed there moves) is the one it recorded;
/// otherwise it is rebuilt from the files. Deleting `.cache` is always safe.
///
/// Format: a line `vsh-index 1 <length of the snapshot, 12 digits>`, then records, each a
/// line and maybe bytes:
///   `+ <a|-> <length> <name>` and the file's bytes and `\n` (`a`: its audio exists)
///   `! <length> <name>` and the reason it is damaged and `\n`
///   `- <name>`: the file is gone
///   `@ <stamp>`: the records so far describe the directory with this stamp
/// A rebuild writes one `+`/`!` per file and one `@` (the snapshot). vsh's own changes
/// append their records and a new `@` under the store's exclusive lock, so a save does
/// not rewrite the cache; a long tail is folded into a new snapshot.
struct StoreIndex {
    let store: String
    var directory: String { store + "/.cache" }
    var path: String { directory + "/index" }
    static let magic = "vsh-index 1 "
    /// The first line, with room for the snapshot's length.
    static let headerLength = magic.utf8.count + 13
    /// Tail bytes past which a change rewrites the snapshot instead of appending.
    static let maximumTail = 1 << 20

    /// One file as recorded: its bytes (or the reason it is damaged) at `content` in `bytes`.
    struct Record {
        var name: String
        var hasAudio: Bool
        var damaged: Bool
        var content: Range<Int>
    }

    /// The records of a cache (or a fresh scan), in no particular order.
    struct Snapshot {
        var bytes: SharedBytes
        var records: [Record]
    }

    /// A change to record: what the file `name` (without `.txt`) now is.
    struct Change {
        enum State {
            case file([UInt8], hasAudio: Bool)
            case damaged(String)
            case removed
        }
        var name: String
        var state: State
    }

    /// The cache, if it describes the store as it is now. Call holding the store lock.
    func load() -> Snapshot? {
        guard let stamp = StoreFiles.Stamp(store), let bytes = SharedBytes(mapping: path) else { return nil }
        return Self.parse(bytes, expecting: stamp.description)
    }

    static func parse(_ bytes: SharedBytes, expecting stamp: String) -> Snapshot? {
        let b = bytes.buffer
        guard b.count > headerLength, b.starts(with: magic.utf8), b[headerLength - 1] == 10 else { return nil }
        var snapshot: [Record] = []
        var tail: [String: Record?] = [:]
        var lastStamp: String?
        var snapshotEnd: Int?
        var at = headerLength
        while at < b.count {
            // `<kind> [a|- ][length ]<name>\n`
            guard let end = b[at...].firstIndex(of: 10), end - at >= 3, b[at + 1] == 32 else { return nil }
            let kind = b[at]
            var field = at + 2
            var hasAudio = false
            var length = 0
            if kind == UInt8(ascii: "+") {
                guard b[field + 1] == 32 else { return nil }
                hasAudio = b[field] == UInt8(ascii: "a")
                field += 2
            }
            if kind == UInt8(ascii: "+") || kind == UInt8(ascii: "!") {
                let digits = field
                while field < end, field - digits < 12, b[field] >= 48, b[field] <= 57 {
                    length = length * 10 + Int(b[field] - 48)
                    field += 1
                }
                guard field > digits, field < end, b[field] == 32 else { return nil }
                field += 1
            }
            let name = String(decoding: b[field..<end], as: UTF8.self)
            at = end + 1
            switch kind {
            case UInt8(ascii: "@"):
                lastStamp = name
                if snapshotEnd == nil { snapshotEnd = at }
            case UInt8(ascii: "-"):
                tail[name] = .some(nil)
            case UInt8(ascii: "+"), UInt8(ascii: "!"):
                guard at + length < b.count, b[at + length] == 10 else { return nil }
                let record = Record(name: name, hasAudio: hasAudio, damaged: kind == UInt8(ascii: "!"), content: at..<(at + length))
                if snapshotEnd == nil { snapshot.append(record) } else { tail[name] = record }
                at += length + 1
            default:
                return nil
            }
        }
        guard lastStamp == stamp, snapshotEnd != nil else { return nil }
        if !tail.isEmpty {
            snapshot.removeAll { tail[$0.name] != nil }
            snapshot += tail.values.compactMap { $0 }
        }
        return Snapshot(bytes: bytes, records: snapshot)
    }

    /// Reads every `.txt` file and writes a new cache. Call holding the exclusive lock.
    func rebuild() throws -> Snapshot {
        try? StoreFiles.makeDirectory(directory)
        StoreFiles.removeTemporaries(in: [directory])
        guard let before = StoreFiles.Stamp(store) else {
            throw FileError.current("cannot read the store \(store)", path: store)
        }
        // A change in the same clock tick as `before` would leave the stamp as it is, so
        // the scan starts only once that tick is surely over.
        if before.age < 0.02 { usleep(useconds_t(max(0, 0.02 - before.age) * 1e6)) }
        guard let names = StoreFiles.names(in: store) else {
            throw FileError.current("cannot read the store \(store)", path: store)
        }
        let present = Set(names)
        var out = Self.header
        // Newest first, as ids sort by creation: listings then sort an ordered array.
        for name in names.sorted(by: >) where name.hasSuffix(".txt") && !name.hasPrefix(".") && !name.contains("\n") {
            Self.append(Self.change(name: name, store: store, present: present), to: &out)
        }
        out += Array("@ \(before)\n".utf8)
        Self.seal(&out)
        Self.write(out, to: path)
        return Self.parse(SharedBytes(out), expecting: before.description)!
    }

    /// The record of the file `name` as it is on disk now (`present`: the directory's names).
    static func change(name: String, store: String, present: Set<String>? = nil) -> Change {
        let id = String(name.dropLast(4))
        guard let bytes = StoreFiles.read(store + "/" + name) else {
            let reason = errno == EFBIG ? "too large for a transcript" : "cannot read it: \(StoreFiles.reason)"
            return Change(name: id, state: .damaged(reason))
        }
        do {
            let (header, _) = try TranscriptFile.read(bytes)
            guard header.created != nil else { throw DamagedFile(reason: "no Created date in the header") }
            var hasAudio = false
            if let audio = header.audio, !audio.isEmpty {
                // A name in the store is looked up in the names the scan read, not stat'ed.
                if let present, !audio.contains("/") {
                    hasAudio = present.contains(audio)
                } else {
                    hasAudio = StoreFiles.exists(TranscriptStore.resolve(audio, in: store))
                }
            }
            return Change(name: id, state: .file(bytes, hasAudio: hasAudio))
        } catch {
            return Change(name: id, state: .damaged("\(error)"))
        }
    }

    /// Appends `changes` to the cache, if it describes the store as it was (`before`)
    /// and the tail is short; otherwise folds them into a new snapshot. Call holding the
    /// exclusive lock, after the changes.
    func record(_ changes: [Change], before: StoreFiles.Stamp?) {
        guard let before, let after = StoreFiles.Stamp(store), let end = ending(),
              end.stamp == before.description else { return }
        var delta: [UInt8] = []
        for change in changes { Self.append(change, to: &delta) }
        delta += Array("@ \(after)\n".utf8)
        if end.tailLength + delta.count <= Self.maximumTail {
            let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard fd >= 0 else { return }
            // A short write leaves no final `@` line, so the cache reads as stale: rebuilt.
            _ = delta.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            close(fd)
            return
        }
        guard let bytes = SharedBytes(mapping: path), var snapshot = Self.parse(bytes, expecting: before.description) else { return }
        let changed = Set(changes.map(\.name))
        snapshot.records.removeAll { changed.contains($0.name) }
        var out = Self.header
        for r in snapshot.records.sorted(by: { $0.name > $1.name }) {
            let head = r.damaged ? "! \(r.content.count) \(r.name)\n" : "+ \(r.hasAudio ? "a" : "-") \(r.content.count) \(r.name)\n"
            out += Array(head.utf8)
            out += snapshot.bytes.buffer[r.content]
            out.append(10)
        }
        for change in changes {
            if case .removed = change.state { continue }
            Self.append(change, to: &out)
        }
        out += Array("@ \(after)\n".utf8)
        Self.seal(&out)
        Self.write(out, to: path)
    }

    /// The stamp of the cache's last line and the length of its tail, read from its two
    /// ends: a change must not read a 80 MB cache to append to it.
    private func ending() -> (stamp: String, tailLength: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        func bytes(_ offset: Int, _ count: Int) -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: count)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return n == count ? buffer : nil
        }
        let tailSize = min(size, 256)
        guard size > Self.headerLength, let head = bytes(0, Self.headerLength),
              let snapshotLength = Int(String(decoding: head.dropFirst(Self.magic.utf8.count).dropLast(), as: UTF8.self)),
              let tail = bytes(size - tailSize, tailSize), tail.last == 10,
              let start = tail.dropLast().lastIndex(of: 10), tail[start + 1] == UInt8(ascii: "@") else { return nil }
        return (String(decoding: tail[(start + 3)..<(tail.count - 1)], as: UTF8.self), size - snapshotLength)
    }

    /// The first line of a new cache, its length to be filled in by `seal`.
    private static var header: [UInt8] { Array((magic + String(repeating: "0", count: 12) + "\n").utf8) }

    /// Writes the snapshot's length into its first line.
    private static func seal(_ snapshot: inout [UInt8]) {
        let digits = Array(String(snapshot.count).utf8)
        snapshot.replaceSubrange((headerLength - 1 - digits.count)..<(headerLength - 1), with: digits)
    }

    private static func append(_ change: Change, to out: inout [UInt8]) {
        switch change.state {
        case .removed:
            out += Array("- \(change.name)\n".utf8)
        case .damaged(let reason):
            let text = Array(reason.utf8)
            out += Array("! \(text.count) \(change.name)\n".utf8) + text + [10]
        case .file(let content, let hasAudio):
            out += Array("+ \(hasAudio ? "a" : "-") \(content.count) \(change.name)\n".utf8) + content + [10]
        }
    }

    /// Replaces the cache by rename, without fsync: after a crash a damaged cache reads
    /// as stale and is rebuilt. Failing to write it only costs speed.
    private static func write(_ bytes: [UInt8], to path: String) {
        let temp = path + ".\(getpid()).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
        }
        close(fd)
        if offset != bytes.count || rename(temp, path) != 0 { unlink(temp) }
    }
}
