import Foundation

/// Putting the store right after a change was cut short: vsh killed mid-save, -delete,
/// -undo, -discard or -trash-empty, or a change that failed midway (a full disk). Every
/// change moves files one at a time (a hard link, then an unlink), so what a cut leaves
/// is a file in two places or a transcript's files split between two places. Recovery
/// makes each transcript and draft whole in one place, keeping every byte:
/// - a file linked in two places (the same inode) loses the copy it was moving to;
/// - a transcript's `.wav` and `.json` follow its `.txt` (the `.txt` says where it is);
/// - a draft split between `drafts/` and the trash is put back whole in `drafts/`;
/// - a draft whose save was cut short is a draft again, its audio back in `drafts/`;
/// - temporary files of dead writers, and batches being emptied, are removed.
/// It runs holding the exclusive lock; what it did becomes `notices`.
extension TranscriptStore {
    func recover() {
        let companions = [".wav", ".json"]
        StoreFiles.removeTemporaries(in: [directory, draftsDirectory, StoreIndex(store: directory).directory])
        let batches = (StoreFiles.names(in: trashDirectory) ?? []).sorted()
        for name in batches where name.hasPrefix(".") {
            try? FileManager.default.removeItem(atPath: trashDirectory + "/" + name)
            notices.append("finished emptying the trash, which was cut short")
        }
        for name in batches where !name.hasPrefix(".") {
            recoverBatch(trashDirectory + "/" + name, companions: companions)
        }
        recoverDrafts()
    }

    private func recoverBatch(_ batch: String, companions: [String]) {
        var names = Set(StoreFiles.names(in: batch) ?? [])
        // A `.txt` in the store and in the batch: a delete or an undo was cut between link
        // and unlink. The transcript stays saved.
        for name in names where name.hasSuffix(".txt") && Self.sameFile(path(name), batch + "/" + name) {
            unlink(batch + "/" + name)
            names.remove(name)
            notices.append("\(Self.id(of: name)) was both saved and in the trash (a delete or undo was cut short); it is saved")
        }
        // Audio and timings go where the `.txt` is.
        for name in names.sorted() where companions.contains(where: name.hasSuffix) {
            let id = Self.id(of: name), inBatch = batch + "/" + name, inStore = path(name)
            let txtInBatch = names.contains(id + ".txt"), txtInStore = StoreFiles.exists(path(id + ".txt"))
            if Self.sameFile(inStore, inBatch) {
                unlink(txtInBatch && !txtInStore ? inStore : inBatch)
            } else if !txtInBatch && txtInStore && !StoreFiles.exists(inStore) {
                try? StoreFiles.move(inBatch, to: inStore)
                notices.append("moved \(name) back beside \(id).txt (an undo was cut short)")
            }
        }
        for name in names where name.hasSuffix(".txt") && !StoreFiles.exists(path(name)) {
            let id = Self.id(of: name)
            for ext in companions where StoreFiles.exists(path(id + ext)) && !StoreFiles.exists(batch + "/" + id + ext) {
                try? StoreFiles.move(path(id + ext), to: batch + "/" + id + ext)
                notices.append("moved \(id + ext) to the trash beside \(name) (a delete or undo was cut short)")
            }
        }
        // Drafts: whole in drafts/ if any of their files is still there.
        let trashedDrafts = batch + "/drafts"
        let draftNames = StoreFiles.names(in: trashedDrafts) ?? []
        for name in draftNames {
            let live = draftsDirectory + "/" + name, trashed = trashedDrafts + "/" + name
            if Self.sameFile(live, trashed) {
                unlink(trashed)
            } else if !StoreFiles.exists(live), draftFiles(Self.id(of: name), in: draftsDirectory) {
                try? StoreFiles.move(trashed, to: live)
                notices.append("draft \(Self.id(of: name)) was half in the trash (a discard or undo was cut short); it is a draft again")
            }
        }
        rmdir(trashedDrafts)
        // A batch that holds nothing but who made it (an undo cut short at its end, or a
        // deletion before it moved anything) goes.
        if (StoreFiles.names(in: batch) ?? []).allSatisfy({ $0.hasPrefix(".") }) {
            for name in StoreFiles.names(in: batch) ?? [] { unlink(batch + "/" + name) }
        }
        rmdir(batch)
    }

    private func recoverDrafts() {
        let names = StoreFiles.names(in: draftsDirectory) ?? []
        for id in Set(names.filter { !$0.hasPrefix(".") }.map(Self.id(of:))).sorted() {
            let base = draftsDirectory + "/" + id
            if StoreFiles.exists(path(id + ".txt")) {
                // Saved: what is left of the draft goes (its audio only if it is the saved one).
                if StoreFiles.exists(base + ".txt") || StoreFiles.exists(base + ".json") {
                    notices.append("finished saving \(id) (the save was cut short)")
                }
                unlink(base + ".txt")
                unlink(base + ".words")
                unlink(base + ".json")
                if Self.sameFile(base + ".wav", path(id + ".wav")) { unlink(base + ".wav") }
                continue
            }
            // Not saved: undo what the save had done.
            var undone = false
            if Self.sameFile(base + ".wav", path(id + ".wav")) {
                unlink(path(id + ".wav"))
                undone = true
            } else if !StoreFiles.exists(base + ".wav"), StoreFiles.exists(path(id + ".wav")) {
                undone = (try? StoreFiles.move(path(id + ".wav"), to: base + ".wav")) != nil
            }
            if StoreFiles.exists(path(id + ".json")) {
                unlink(path(id + ".json"))
                undone = true
            }
            if undone { notices.append("draft \(id) was being saved when that was cut short; it is still a draft") }
        }
    }

    private func draftFiles(_ id: String, in directory: String) -> Bool {
        [".txt", ".wav", ".json"].contains { StoreFiles.exists(directory + "/" + id + $0) }
    }

    /// Whether two paths are the same file (hard links of one inode).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        return lstat(a, &x) == 0 && lstat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }
}
