import Foundation
import VshAudioFiles
import VshCore

/// The transcript store: plain files in one directory that a person can read with `cat`,
/// `ls` and `grep` (FORMAT.md). Each saved recording is `<id>.txt` (header and transcript),
/// `<id>.wav` and `<id>.json` (word timings); unsaved recordings live in `drafts/`,
/// deleted ones in `trash/`. Every change holds an exclusive lock on `<store>/.lock` and
/// writes atomically, so several vsh processes can share one store; damaged files are
/// skipped with a warning and never touched.
package final class TranscriptStore {
    package let directory: String
    /// The zone new dates are written in and listings are grouped by.
    package let timeZone: TimeZone
    /// The key file new audio is sealed with while the store encrypts (`encrypt on`); nil
    /// when vsh has none configured.
    package let keyFile: KeyFile?
    private let clock: () -> Date
    /// What the store put right after an interrupted change, not yet told (`takeNotices`).
    var notices: [String] = []
    /// The trash batches this store object made (`canUndoOwnDeletion`).
    var madeBatches: Set<String> = []

    /// A store rooted at `directory` (created on the first change, mode 0700). `clock`
    /// and `timeZone` are injected so tests can fix "now"; `keyFile` defaults to the one
    /// the configuration names (`KeyFile.current`).
    package init(
        directory: String, keyFile: KeyFile? = KeyFile.current, clock: @escaping () -> Date = Date.init,
        timeZone: TimeZone = .current
    ) {
        self.directory = directory
        self.keyFile = keyFile
        self.clock = clock
        self.timeZone = timeZone
    }

    package var now: Date { clock() }

    /// A saved transcript.
    package struct Item: Sendable, Equatable {
        package var id: String
        package var title: String
        package var created: StoreDate
        /// Seconds of audio.
        package var duration: Double
        /// `low`, `medium` or `high` as written (other tools may write other words).
        package var quality: String
        package var sampleRate: Int?
        package var source: String?
        /// The audio file as the header names it (nil: it names none).
        var audio: String?
        /// Whether that file exists.
        package var hasAudio: Bool
        let directory: String
        package var text: StoreText

        package var transcript: String { text.string }

        /// The absolute path of the audio file the header names (nil: it names none).
        package var audioPath: String? { audio.map { TranscriptStore.resolve($0, in: directory) } }
    }

    /// Items and the files that were skipped.
    package struct Listing: Sendable {
        /// Newest first.
        package var items: [Item]
        /// One line per skipped file: its path and what is wrong with it.
        package var warnings: [String]
    }

    static let untitled = "Untitled recording"

    /// Every saved transcript, newest first, from the listing cache when it is current.
    package func items() throws -> Listing { try items(matching: nil) }

    /// The transcripts whose title or text holds every word of `search`, newest first.
    package func search(_ search: TextSearch) throws -> Listing { try items(matching: search) }

    private func items(matching search: TextSearch?) throws -> Listing {
        guard StoreFiles.isDirectory(directory) else {
            if StoreFiles.exists(directory) { throw Self.notADirectory(directory) }
            return Listing(items: [], warnings: [])
        }
        recoverIfInterrupted()
        let index = StoreIndex(store: directory)
        // A read-only store is scanned under the shared lock (its cache cannot be written).
        let snapshot = try StoreLock.with(directory, exclusive: false) { index.load() }
            ?? StoreLock.with(directory, exclusive: StoreLock.writable(directory)) { try index.load() ?? index.rebuild() }
        var items: [Item] = []
        var warnings: [String] = []
        items.reserveCapacity(snapshot.records.count)
        for record in snapshot.records {
            let bytes = UnsafeBufferPointer(rebasing: snapshot.bytes.buffer[record.content])
            if record.damaged {
                warnings.append("skipped \(path(record.name + ".txt")): \(String(decoding: bytes, as: UTF8.self))")
            } else if search?.mayMatch(bytes) ?? true,
                      let item = try? item(record.name, in: snapshot.bytes, record.content, validate: false, hasAudio: record.hasAudio),
                      search?.matches(item) ?? true {
                items.append(item)
            }
        }
        items.sort { ($0.created.seconds, $0.id) > ($1.created.seconds, $1.id) }
        warnings.sort()
        return Listing(items: items, warnings: takeNotices() + warnings)
    }

    /// The saved transcript `id`, read from its file (not the cache); nil when there is
    /// none. A damaged file throws, naming it.
    package func item(_ id: String) throws -> Item? {
        guard Self.isPlausibleID(id) else { return nil }
        let file = path(id + ".txt")
        guard let bytes = StoreFiles.read(file) else {
            if errno == ENOENT { return nil }
            throw FileError.current("cannot read \(file)", path: file)
        }
        do {
            let shared = SharedBytes(bytes)
            return try item(id, in: shared, 0..<shared.buffer.count, validate: true, hasAudio: nil)
        } catch {
            throw CommandError("\(file) is damaged: \(error); it was left as it is")
        }
    }

    /// The word timings of a saved transcript (empty when its `.json` is missing or damaged).
    package func words(of id: String) -> [RecognizedWord] {
        WordTimings.read(path(id + ".json")) ?? []
    }

    private func item(_ id: String, in bytes: SharedBytes, _ range: Range<Int>, validate: Bool, hasAudio: Bool?) throws -> Item {
        let file = UnsafeBufferPointer(rebasing: bytes.buffer[range])
        let (header, start) = try TranscriptFile.parse(file, validate: validate)
        guard let created = header.created else { throw DamagedFile(reason: "no Created date in the header") }
        var end = range.upperBound
        if end > range.lowerBound + start && bytes.buffer[end - 1] == 10 { end -= 1 }
        let audio = header.audio.flatMap { $0.isEmpty ? nil : $0 }
        return Item(
            id: id, title: header.title.flatMap { $0.isEmpty ? nil : $0 } ?? Self.untitled,
            created: created, duration: header.duration ?? 0, quality: header.quality ?? "",
            sampleRate: header.sampleRate, source: header.source, audio: audio,
            hasAudio: audio.map { hasAudio ?? StoreFiles.exists(Self.resolve($0, in: directory)) } ?? false,
            directory: directory, text: StoreText(bytes, (range.lowerBound + start)..<end))
    }

    /// The path of `name` in the store.
    func path(_ name: String) -> String { directory + "/" + name }

    /// An audio file named in a header: a name beside the `.txt`, or an absolute path.
    static func resolve(_ audio: String, in store: String) -> String {
        audio.hasPrefix("/") ? audio : store + "/" + audio
    }

    /// Ids are file names: no slashes, no leading dot, nothing empty.
    static func isPlausibleID(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".") && !id.contains("/") && !id.contains("\n")
    }

    /// Runs a change holding the exclusive lock, with the store directory in place. The
    /// body lists the `.txt` files it changed, for the listing cache. A change cut short
    /// (by a kill, or by an error such as a full disk) is put right (`recover`).
    func change<T>(_ body: (inout [StoreIndex.Change]) throws -> T) throws -> T {
        try StoreFiles.makeDirectory(directory, parents: true)
        do {
            return try StoreLock.changing(directory, recover: recover) {
                let before = StoreFiles.Stamp(directory)
                var changes: [StoreIndex.Change] = []
                defer {
                    if StoreFiles.Stamp(directory) != before {
                        AtomicFile.syncDirectory(directory)
                        StoreIndex(store: directory).record(changes, before: before)
                    }
                }
                return try body(&changes)
            }
        } catch var error as FileError {
            // Rolled back: a full disk is the person's to fix, and nothing was lost.
            error.storeUnchanged = true
            throw error
        }
    }

    /// Throws the store's read-only error when this process may not change it: for a
    /// command that would otherwise ask about a change first.
    package func requireWritable() throws {
        if StoreFiles.isDirectory(directory) && !StoreLock.writable(directory) { throw StoreLock.readOnly(directory, errno) }
    }

    /// What was put right since the last call, for the person to be told.
    package func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    /// Puts the store right if its last change was cut short (readers call this first).
    func recoverIfInterrupted() {
        guard StoreLock.interrupted(directory), StoreLock.writable(directory) else { return }
        _ = try? change { _ in }
    }

    /// The store's path names a file that is not a directory (`--store notes.txt`).
    static func notADirectory(_ path: String) -> FileError {
        FileError("the store \(path) is not a directory; name a directory with --store (or VSH_STORE), or move the file away",
                  path: path, code: ENOTDIR, explained: true)
    }

    /// The cache record of `<id>.txt` as it now is on disk.
    func currentRecord(of id: String) -> StoreIndex.Change {
        StoreIndex.change(name: id + ".txt", store: directory)
    }
}
