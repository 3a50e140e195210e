/// Case-insensitive search for words in titles and transcripts: every word must occur
/// (as part of a word too, like `grep -i`). ASCII letters are folded byte by byte, which
/// is fast over 100,000 transcripts; a word with other letters compares lowercased text.
package struct TextSearch: Sendable {
    let words: [[UInt8]]
    let unicode: Bool

    /// Nil when there is no word to search for.
    package init?(_ words: [String]) {
        let clean = Set(words.map { $0.lowercased() }.filter { !$0.isEmpty })
        guard !clean.isEmpty else { return nil }
        unicode = clean.contains { $0.utf8.contains { $0 >= 0x80 } }
        // A word inside another word of the query adds nothing (every word must occur,
        // as part of a word too); the longest, likely rarest, are tried first, so a file
        // without them is passed over at once, however long the query.
        var kept: [[UInt8]] = []
        var inside = Set<ArraySlice<UInt8>>()  // every piece of a kept word (up to 64 bytes)
        for word in clean.map({ Array($0.utf8) }).sorted(by: { $0.count > $1.count || ($0.count == $1.count && $0.lexicographicallyPrecedes($1)) }) {
            if inside.contains(word[...]) { continue }
            kept.append(word)
            // Pieces cost more than they save past a few hundred words.
            guard word.count <= 64, clean.count <= 256 else { continue }
            for start in word.indices {
                for end in (start + 1)...word.count { inside.insert(word[start..<end]) }
            }
        }
        self.words = kept
    }

    /// Whether every word occurs somewhere in a whole `.txt` file, header included: a
    /// quick test that spares reading the header of files that cannot match.
    func mayMatch(_ file: UnsafeBufferPointer<UInt8>) -> Bool {
        unicode || words.allSatisfy { Self.first($0, in: file) != nil }
    }

    /// Whether every word occurs in the title or the transcript.
    package func matches(_ item: TranscriptStore.Item) -> Bool {
        if unicode {
            let title = item.title.lowercased(), text = item.transcript.lowercased()
            return words.allSatisfy { title.contains(String(decoding: $0, as: UTF8.self))
                || text.contains(String(decoding: $0, as: UTF8.self)) }
        }
        return words.allSatisfy { word in
            Self.first(word, in: item.title) != nil || item.text.withUTF8 { Self.first(word, in: $0) } != nil
        }
    }

    /// The first place any of the words occurs in a transcript (UTF-8 offsets).
    package func firstOccurrence(in item: TranscriptStore.Item) -> Range<Int>? {
        if unicode { return occurrences(in: item.transcript).first }
        return item.text.withUTF8 { text in
            words.compactMap { word in Self.first(word, in: text).map { $0..<($0 + word.count) } }
                .min { $0.lowerBound < $1.lowerBound }
        }
    }

    /// Where the words occur in `text` (UTF-8 offsets, sorted, overlaps merged): what to
    /// highlight.
    package func occurrences(in text: String) -> [Range<Int>] {
        let haystack = unicode ? text.lowercased() : text
        // Lowercasing can change lengths; then offsets would not fit the original.
        guard haystack.utf8.count == text.utf8.count else { return [] }
        var found: [Range<Int>] = []
        for word in words {
            var from = 0
            while let at = Self.first(word, in: haystack, from: from) {
                found.append(at..<(at + word.count))
                from = at + 1
            }
        }
        found.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for r in found {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// The UTF-8 offset of the first occurrence of `word` (lowercase) in `text` at or
    /// after `from`, ASCII letters compared without case.
    static func first(_ word: [UInt8], in text: String, from: Int = 0) -> Int? {
        var text = text
        return text.withUTF8 { first(word, in: $0, from: from) }
    }

    static func first(_ word: [UInt8], in t: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        guard let head = word.first, t.count >= word.count else { return nil }
        var i = from
        let last = t.count - word.count
        while i <= last {
            if fold(t[i]) == head && word.indices.dropFirst().allSatisfy({ fold(t[i + $0]) == word[$0] }) { return i }
            i += 1
        }
        return nil
    }

    @inline(__always) static func fold(_ b: UInt8) -> UInt8 { b &- 65 < 26 ? b | 0x20 : b }
}
