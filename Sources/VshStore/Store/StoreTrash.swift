import Foundation
import VshCore

/// Deleting moves files into `trash/<batch>/` (one batch per `delete` or `discard`, named
/// by the time, so they sort), keeping their names: drafts under `drafts/` inside the
/// batch, and who deleted them in `.origin`. `undo` moves back the newest batch this store
/// object made, else the newest of all (`lastDeletion`); `emptyTrash` removes everything
/// for good.
extension TranscriptStore {
    /// One deletion: what it held.
    package struct TrashBatch: Sendable, Equatable {
        /// The batch directory's name, `YYYYMMDD-HHMMSS-NNN` in local time.
        package var name: String
        /// Saved transcripts: id and title.
        package var items: [Trashed]
        /// Discarded drafts' ids.
        package var drafts: [String]
        /// Directories of the store's own set aside (`model`: the adapted speech model).
        package var directories: [String] = []
        /// The vsh that deleted them; nil when the batch does not say (made by a vsh before
        /// batches said, or by another tool).
        package var origin: Origin? = nil
        /// Whether this store object (this session) made it.
        package var isOwn = false

        /// When it was deleted, local time as its name has it: `2026-11-21 14:02:11`.
        package var time: String { Self.time(ofBatch: name) }

        static func time(ofBatch n: String) -> String {
            "\(n.prefix(4))-\(n.dropFirst(4).prefix(2))-\(n.dropFirst(6).prefix(2)) "
                + "\(n.dropFirst(9).prefix(2)):\(n.dropFirst(11).prefix(2)):\(n.dropFirst(13).prefix(2))"
        }
    }

    /// Which vsh made a batch: `trash/<batch>/.origin`, `Key: value` lines (FORMAT.md).
    package struct Origin: Sendable, Equatable {
        /// Its process id.
        package var process: Int32
        /// Its terminal (`/dev/pts/3`); nil when it had none.
        package var terminal: String?

        /// This process.
        static var current: Origin {
            let terminal = [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].lazy.compactMap { ttyname($0) }.first
            return Origin(process: getpid(), terminal: terminal.map { String(cString: $0) })
        }

        var rendered: String {
            "Process: \(process)\n" + (terminal.map { "Terminal: \($0)\n" } ?? "")
        }

        /// The record in `bytes`; nil when it names no process.
        init?(_ bytes: [UInt8]) {
            var process: Int32?, terminal: String?
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                switch line[..<colon].lowercased() {
                case "process": process = Int32(value)
                case "terminal": terminal = value.isEmpty ? nil : value
                default: break
                }
            }
            guard let process else { return nil }
            self.init(process: process, terminal: terminal)
        }

        init(process: Int32, terminal: String?) {
            self.process = process
            self.terminal = terminal
        }
    }

    /// The name of a batch's record of who made it.
    static let originFile = ".origin"

    package struct Trashed: Sendable, Equatable {
        package var id: String
        package var title: String
    }

    /// What `undo` put back.
    package struct Restored: Sendable, Equatable {
        package var items: [String]
        package var drafts: [String]
        /// Directories of the store's own (`model`).
        package var directories: [String] = []
    }

    var trashDirectory: String { path("trash") }
    /// Where `train` keeps the takes a person recorded (VshVoice's `TrainingTakes`).
    package static let trainingDirectoryName = "training"

    /// Moves the saved transcripts `ids` to the trash as one batch; all or nothing when
    /// an id is unknown. Returns what was deleted, in the order given.
    @discardableResult
    package func delete(_ ids: [String]) throws -> [Item] {
        try change { changes in
            var items: [Item] = []
            for id in ids where !items.contains(where: { $0.id == id }) {
                guard let item = try item(id) else { throw CommandError("no transcript with id '\(id)'") }
                items.append(item)
            }
            guard !items.isEmpty else { return [] }
            let batch = try newBatch()
            for item in items {
                // The .txt first: once it has gone the transcript is no longer listed.
                try StoreFiles.move(path(item.id + ".txt"), to: batch + "/" + item.id + ".txt")
                changes.append(StoreIndex.Change(name: item.id, state: .removed))
                var others = [item.id + ".json"]
                if item.hasAudio, let audio = item.audioPath, audio.hasPrefix(directory + "/"),
                   !audio.dropFirst(directory.count + 1).contains("/") {
                    others.append(String(audio.dropFirst(directory.count + 1)))
                }
                for name in others where StoreFiles.exists(path(name)) {
                    try StoreFiles.move(path(name), to: batch + "/" + name)
                }
            }
            AtomicFile.syncDirectory(batch)
            return items
        }
    }

    /// Moves the store's directory `name` (the adapted speech model, `model`) to the trash
    /// as a batch of its own, so `undo` puts it back. False when there is none.
    @discardableResult
    package func trash(directory name: String) throws -> Bool {
        precondition(!name.contains("/") && !name.hasSuffix(".txt") && name != "drafts", "not a directory of the store's own: \(name)")
        guard StoreFiles.isDirectory(path(name)) else { return false }
        try change { _ in
            let batch = try newBatch()
            try StoreFiles.move(path(name), to: batch + "/" + name)
            AtomicFile.syncDirectory(batch)
        }
        return true
    }

    /// The deletion `undo` takes back: the newest this store object (this session) made
    /// that is still in the trash, else the newest of all; nil when the trash is empty.
    package func lastDeletion() -> TrashBatch? {
        let batches = trash()
        return batches.first(where: \.isOwn) ?? batches.first
    }

    /// Puts back the batch `name` of the trash (by default `lastDeletion`). Refuses,
    /// changing nothing, when one of its files exists again in the store.
    package func undo(_ name: String? = nil) throws -> Restored {
        let empty = CommandError("nothing to undo: the trash is empty")
        guard StoreFiles.isDirectory(trashDirectory), let name = name ?? lastDeletion()?.name else { throw empty }
        return try change { changes in
            let batch = trashDirectory + "/" + name
            guard StoreFiles.isDirectory(batch) else {
                throw CommandError("nothing restored: the deletion of \(TrashBatch.time(ofBatch: name)) "
                    + "is no longer in the trash (another vsh undid it or emptied the trash)")
            }
            let files = (StoreFiles.names(in: batch) ?? []).filter { $0 != "drafts" && !$0.hasPrefix(".") }
            let drafts = StoreFiles.names(in: batch + "/drafts") ?? []
            let moves: [(from: String, to: String)] = files.map { (batch + "/" + $0, path($0)) }
                + drafts.map { (batch + "/drafts/" + $0, draftsDirectory + "/" + $0) }
            if let clash = moves.first(where: { StoreFiles.exists($0.to) }) {
                let id = Self.id(of: clash.to)
                throw CommandError("cannot undo the last deletion: '\(id)' exists in the store again (\(clash.to)); move it away first")
            }
            if !drafts.isEmpty { try StoreFiles.makeDirectory(draftsDirectory) }
            // Audio and timings first, the .txt last: a transcript reappears whole.
            for move in moves.filter({ !$0.to.hasSuffix(".txt") }) + moves.filter({ $0.to.hasSuffix(".txt") }) {
                try StoreFiles.move(move.from, to: move.to)
                if move.to.hasSuffix(".txt") && !move.to.hasPrefix(draftsDirectory + "/") {
                    changes.append(currentRecord(of: Self.id(of: move.to)))
                }
            }
            rmdir(batch + "/drafts")
            unlink(batch + "/" + Self.originFile)
            rmdir(batch)
            madeBatches.remove(name)
            return Restored(items: files.filter { $0.hasSuffix(".txt") }.map(Self.id(of:)).sorted(),
                            drafts: Set(drafts.map(Self.id(of:))).sorted(),
                            directories: files.filter { StoreFiles.isDirectory(path($0)) }.sorted())
        }
    }

    /// The trash, newest deletion first.
    package func trash() -> [TrashBatch] {
        recoverIfInterrupted()
        let names = (StoreFiles.names(in: trashDirectory) ?? []).filter { !$0.hasPrefix(".") }.sorted(by: >)
        return names.map { name in
            let batch = trashDirectory + "/" + name
            let items = (StoreFiles.names(in: batch) ?? []).filter { $0.hasSuffix(".txt") }.sorted().map { file in
                let id = String(file.dropLast(4))
                let header = StoreFiles.read(batch + "/" + file).flatMap { try? TranscriptFile.read($0).0 }
                return Trashed(id: id, title: header?.title ?? Self.untitled)
            }
            let drafts = Set((StoreFiles.names(in: batch + "/drafts") ?? []).map(Self.id(of:)))
            let directories = (StoreFiles.names(in: batch) ?? [])
                .filter { $0 != "drafts" && StoreFiles.isDirectory(batch + "/" + $0) }.sorted()
            return TrashBatch(
                name: name, items: items, drafts: drafts.sorted(), directories: directories,
                origin: StoreFiles.read(batch + "/" + Self.originFile).flatMap(Origin.init), isOwn: madeBatches.contains(name))
        }
    }

    /// Removes everything in the trash for good. Returns how many transcripts and drafts
    /// were removed.
    @discardableResult
    package func emptyTrash() throws -> Int {
        let count = trash().reduce(0) { $0 + $1.items.count + $1.drafts.count + $1.directories.count }
        guard StoreFiles.isDirectory(trashDirectory) else { return 0 }
        try change { _ in
            for name in StoreFiles.names(in: trashDirectory) ?? [] {
                // Renamed out of sight first: a batch cut short while being removed is
                // never undone half, and recovery finishes removing it.
                let hidden = trashDirectory + "/" + (name.hasPrefix(".") ? name : ".emptying-" + name)
                guard name.hasPrefix(".") || rename(trashDirectory + "/" + name, hidden) == 0 else {
                    throw FileError.current("cannot remove \(trashDirectory)/\(name)", path: trashDirectory + "/" + name)
                }
                do {
                    try FileManager.default.removeItem(atPath: hidden)
                } catch {
                    throw CommandError("cannot remove \(trashDirectory)/\(name): \(error.localizedDescription)")
                }
            }
        }
        return count
    }

    /// The id a file of the store belongs to: its name without the extension.
    static func id(of file: String) -> String {
        ((file as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// Whether `undo` would take back a deletion made through this store object (this
    /// session's): a batch it made is still in the trash.
    package var canUndoOwnDeletion: Bool {
        madeBatches.contains { StoreFiles.isDirectory(trashDirectory + "/" + $0) }
    }

    /// A new, empty batch directory in the trash.
    func newBatch() throws -> String {
        try StoreFiles.makeDirectory(trashDirectory)
        let c = StoreDate(now, timeZone: timeZone).civil(offset: timeZone.secondsFromGMT(for: now))
        var stamp = "\(pad(c.year, 4))\(pad(c.month))\(pad(c.day))-\(pad(c.hour))\(pad(c.minute))\(pad(c.second))"
        // Batches sort by name and `undo` takes the last: a new one must sort after every
        // other, even if the clock went back.
        let newest = StoreFiles.names(in: trashDirectory)?.filter { !$0.hasPrefix(".") }.max() ?? ""
        if String(newest.prefix(stamp.count)) > stamp { stamp = String(newest.prefix(stamp.count)) }
        var sequence = newest.hasPrefix(stamp) ? (Int(newest.dropFirst(stamp.count + 1)) ?? 0) + 1 : 0
        while true {
            let batch = trashDirectory + "/\(stamp)-\(pad(sequence, 3))"
            if mkdir(batch, 0o700) == 0 {
                madeBatches.insert("\(stamp)-\(pad(sequence, 3))")
                try AtomicFile.write(Origin.current.rendered, to: batch + "/" + Self.originFile)
                return batch
            }
            guard errno == EEXIST else { throw FileError.current("cannot create \(batch)", path: batch) }
            sequence += 1
        }
    }
}
