import Foundation
import VshCore

/// The numbers the last `list` or `search` gave, kept in `<store>/.cache/listing` so
/// that the next vsh means the same transcripts by them: `vsh list`, then `vsh show 1`.
///
/// Format: a line `vsh-listing 1`, a line `@ <stamp>` (the store directory's stamp, as
/// the index keeps it, when the listing was made), then one id per line: the third line
/// is number 1. Like the index, it is safe to delete (the numbers are then gone).
package struct LastListing: Equatable {
    /// The ids the numbers stood for, number 1 first.
    package var ids: [String]
    /// Whether transcripts were added, removed or renamed in the store since.
    package var storeChangedSince: Bool
}

extension TranscriptStore {
    var listingPath: String { directory + "/.cache/listing" }

    /// Keeps `ids` as the last listing's numbers (written whole, then renamed into place).
    /// Does nothing where there is no store yet, and says nothing where the store cannot
    /// be written: a read-only store still lists, and its numbers last for the session.
    package func keepListing(_ ids: [String]) {
        guard FileManager.default.fileExists(atPath: directory),
              (try? StoreFiles.makeDirectory(directory + "/.cache")) != nil,
              let stamp = StoreFiles.Stamp(directory) else { return }
        var text = "vsh-listing 1\n@ \(stamp)\n"
        text.reserveCapacity(text.utf8.count + ids.count * 16)
        for id in ids { text += id + "\n" }
        try? AtomicFile.write(text, to: listingPath)
    }

    /// The listing `keepListing` kept, in this process or an earlier one; nil when there
    /// is none, or the file is not one.
    package func lastListing() -> LastListing? {
        guard let data = FileManager.default.contents(atPath: listingPath) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == "vsh-listing 1", lines[1].hasPrefix("@ "), lines.last == "" else { return nil }
        let ids = lines.dropFirst(2).dropLast().map(String.init)
        guard ids.allSatisfy(Self.isPlausibleID) else { return nil }
        let now = StoreFiles.Stamp(directory)?.description
        return LastListing(ids: ids, storeChangedSince: now != String(lines[1].dropFirst(2)))
    }
}
