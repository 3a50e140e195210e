import Foundation

/// The pronunciation dictionary (CMUdict format: `word PH ON EMES`, variants as
/// `word(2)`). vsh gives the recogniser only the words its grammar uses: a small
/// dictionary loads in milliseconds and leaves no room for words nobody can say.
package struct PronunciationDictionary: Sendable {
    /// word → pronunciations (variants in file order).
    package private(set) var entries: [String: [String]] = [:]

    package init(entries: [String: [String]]) { self.entries = entries }

    /// The dictionary file could not be read: says which and what to do.
    package struct Unreadable: Error, Equatable, CustomStringConvertible {
        package var path: String
        package var description: String {
            "cannot read the pronunciation dictionary \(path); install the Debian package pocketsphinx-en-us or set voice.model"
        }
    }

    /// Reads a dictionary file. Unreadable → an error naming the file and the package.
    package init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Unreadable(path: path)
        }
        var entries: [String: [String]] = [:]
        entries.reserveCapacity(140_000)
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lineStart = 0
            for i in 0...bytes.count {
                guard i == bytes.count || bytes[i] == 10 else { continue }
                if i > lineStart, let space = bytes[lineStart..<i].firstIndex(of: 32) {
                    var word = String(decoding: bytes[lineStart..<space], as: UTF8.self)
                    let phones = String(decoding: bytes[(space + 1)..<i], as: UTF8.self)
                        .trimmingCharacters(in: .whitespaces)
                    if let paren = word.firstIndex(of: "("), word.hasSuffix(")") { word = String(word[..<paren]) }
                    entries[word, default: []].append(phones)
                }
                lineStart = i + 1
            }
        }
        self.entries = entries
    }

    /// Reads only the entries of `words`: what starting the recogniser needs. Parsing
    /// every entry costs 0.3 s; hashing each line's word and making strings only for the
    /// words asked for costs a few milliseconds.
    package init(path: String, only words: Set<String>) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Unreadable(path: path)
        }
        let wanted = Set(words.map { Array($0.utf8).withUnsafeBufferPointer { Self.hash($0) } })
        var entries: [String: [String]] = [:]
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var line = 0
            while line < bytes.count {
                var end = line
                while end < bytes.count, bytes[end] != 10 { end += 1 }
                var space = line
                while space < end, bytes[space] != 32 { space += 1 }
                // The word, without a variant's "(2)".
                var wordEnd = space
                if space > line, bytes[space - 1] == 41, let open = bytes[line..<space].firstIndex(of: 40) { wordEnd = open }
                if space < end, wordEnd > line,
                   wanted.contains(Self.hash(UnsafeBufferPointer(rebasing: bytes[line..<wordEnd]))) {
                    let word = String(decoding: bytes[line..<wordEnd], as: UTF8.self)
                    if words.contains(word) {
                        let phones = String(decoding: bytes[(space + 1)..<end], as: UTF8.self)
                            .trimmingCharacters(in: .whitespaces)
                        entries[word, default: []].append(phones)
                    }
                }
                line = end + 1
            }
        }
        self.entries = entries
    }

    /// FNV-1a over a word's bytes: a cheap filter before a string is made.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    package func contains(_ word: String) -> Bool { entries[word] != nil }

    /// The syllables of `word` as first pronounced (its vowels), nil when it is unknown.
    package func syllables(_ word: String) -> Int? {
        entries[word]?.first.map { pronunciation in
            pronunciation.split(separator: " ").filter { Self.vowels.contains(String($0.prefix(2))) }.count
        }
    }

    /// CMUdict's vowel phones (the en-us model's, without stress marks).
    static let vowels: Set<String> = ["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"]

    /// A dictionary file holding only `words` (with every variant). Returns the text and
    /// the words it does not know.
    package func subset(_ words: Set<String>) -> (text: String, missing: [String]) {
        var text = ""
        var missing: [String] = []
        for word in words.sorted() {
            guard let prons = entries[word] else {
                missing.append(word)
                continue
            }
            for (i, p) in prons.enumerated() {
                text += (i == 0 ? word : "\(word)(\(i + 1))") + " " + p + "\n"
            }
        }
        return (text, missing)
    }
}
