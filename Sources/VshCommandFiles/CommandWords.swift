import Foundation
import VshCore
import VshSpoken

/// The pronunciations of the words command files use, kept in a small cache file so
/// that starting vsh does not read the 3.5 MB dictionary: it is read (only for the new
/// words) when a word is not in the cache, and in full only to suggest replacements
/// for words it does not know. The cache also remembers which files' sound-alike
/// warnings have been given, so they are given once per change, not at every start.
struct CommandWords {
    /// word → phones of its first pronunciation.
    private(set) var phones: [String: [String]] = [:]
    /// Words the dictionary lacks → close words it has, by spelling.
    private(set) var unknown: [String: [String]] = [:]
    /// Hashes of the files whose sound-alike warnings have been given.
    var checkedFiles: Set<String> = []
    private let cachePath: String?
    private let stamp: String
    private var dirty = false

    /// Pronunciations for `words`, from the cache and (when needed) the dictionary at
    /// `dictionaryPath`; nil when there is no dictionary (no speech model installed).
    init?(words: Set<String>, dictionaryPath: String, cachePath: String?) {
        var info = stat()
        guard stat(dictionaryPath, &info) == 0 else { return nil }
        self.cachePath = cachePath
        stamp = "dictionary \(dictionaryPath) \(info.st_size) \(info.st_mtim.tv_sec)"
        if let cachePath { readCache(cachePath) }
        var missing = words.filter { phones[$0] == nil && unknown[$0] == nil }
        guard !missing.isEmpty else { return }
        dirty = true
        missing = Self.memo.fill(stamp: stamp, missing, &phones, &unknown)
        guard !missing.isEmpty else { return }
        guard let dictionary = try? PronunciationDictionary(path: dictionaryPath, only: missing) else { return nil }
        var found: [String: [String]] = [:], lacking: [String: [String]] = [:]
        for word in missing {
            if let first = dictionary.entries[word]?.first {
                found[word] = first.split(separator: " ").map(String.init)
            }
        }
        let unheard = missing.subtracting(found.keys)
        if !unheard.isEmpty {
            let all = (try? PronunciationDictionary(path: dictionaryPath))?.entries.keys.map { $0 } ?? []
            for word in unheard { lacking[word] = Self.closest(to: word, among: all) }
        }
        phones.merge(found) { a, _ in a }
        unknown.merge(lacking) { a, _ in a }
        Self.memo.remember(stamp: stamp, found, lacking)
    }

    /// Lookups already made in this process: a reload (or a test) does not read the
    /// dictionary again for the same words.
    private static let memo = Memo()

    private final class Memo: Sendable {
        private struct Known {
            var stamp = ""
            var phones: [String: [String]] = [:]
            var unknown: [String: [String]] = [:]
        }
        private let known = Locked(Known())

        /// Adds what is known of `words`; returns the words still missing.
        func fill(stamp: String, _ words: Set<String>, _ found: inout [String: [String]], _ lacking: inout [String: [String]]) -> Set<String> {
            known.withLock { memo in
                guard stamp == memo.stamp else { return words }
                return words.filter { word in
                    if let p = memo.phones[word] { found[word] = p; return false }
                    if let u = memo.unknown[word] { lacking[word] = u; return false }
                    return true
                }
            }
        }

        func remember(stamp: String, _ found: [String: [String]], _ lacking: [String: [String]]) {
            known.withLock { memo in
                if stamp != memo.stamp { memo = Known(stamp: stamp) }
                memo.phones.merge(found) { a, _ in a }
                memo.unknown.merge(lacking) { a, _ in a }
            }
        }
    }

    /// Up to three dictionary words spelt most like `word`.
    static func closest(to word: String, among words: [String]) -> [String] {
        let n = word.count, limit = max(1, n / 3)
        var found: [(String, Int)] = []
        for candidate in words where abs(candidate.count - n) <= limit && candidate.first == word.first {
            let d = Suggest.distance(word, candidate)
            if d <= limit { found.append((candidate, d)) }
        }
        // Closest first; among equals, those sharing more of the word's start.
        func shared(_ candidate: String) -> Int { zip(word, candidate).prefix { $0 == $1 }.count }
        return found.sorted { ($0.1, -shared($0.0), $0.0) < ($1.1, -shared($1.0), $1.0) }.prefix(3).map(\.0)
    }

    mutating func markChecked(_ files: Set<String>) {
        if files != checkedFiles {
            checkedFiles = files
            dirty = true
        }
    }

    /// Writes the cache when something was added. Keeps only `words` (those in use).
    mutating func save(keeping words: Set<String>) {
        guard dirty, let cachePath else { return }
        var text = "# vsh: pronunciations of the words in command files; safe to delete\n\(stamp)\n"
        for hash in checkedFiles.sorted() { text += "file \(hash)\n" }
        for word in phones.keys.sorted() where words.contains(word) {
            text += "word \(word) \(phones[word]!.joined(separator: " "))\n"
        }
        for word in unknown.keys.sorted() where words.contains(word) {
            text += "unknown \(word) \(unknown[word]!.joined(separator: " "))\n"
        }
        try? AtomicFile.write(text, to: cachePath)
        dirty = false
    }

    private mutating func readCache(_ path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        var lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        guard lines.first == stamp else { return }
        lines.removeFirst()
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count >= 2 else { continue }
            switch parts[0] {
            case "file": checkedFiles.insert(parts[1])
            case "word" where parts.count >= 3: phones[parts[1]] = Array(parts[2...])
            case "unknown": unknown[parts[1]] = Array(parts[2...])
            default: continue
            }
        }
    }

    /// A short hash of a file's path and text (FNV-1a, 64 bits).
    static func hash(path: String, text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        h = (h ^ 0) &* 0x100_0000_01b3
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(h, radix: 16)
    }
}
