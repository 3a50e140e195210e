import ArgumentParser
import VshCore
import VshStore

/// `search WORDS [--json]`: the transcripts whose title or text holds every word (any
/// case), numbered like `list`, each with the first place it matched.
package struct SearchCommand: WordsCommand {
    // Free words cannot be said to a grammar of commands, so search is typed only.
    package static let info = CommandInfo(
        name: "search", summary: "Find transcripts whose title or text holds every word")

    @Argument(help: ArgumentHelp("The words, in any case; all must occur.", valueName: "words"))
    var words: [String] = []

    @Flag(help: "Print a JSON array of the matching transcripts.")
    var json = false

    package init() {}

    package init(words: [String]) throws {
        // Every property is set: an argument-parser property read unset traps.
        self.words = words
        json = false
        try validate()
    }

    package func validate() throws {
        if TextSearch(words) == nil { throw ValidationError("give the words to search for") }
    }

    package func run(in context: CommandContext) throws {
        let search = TextSearch(words)!
        let listing = try context.store.search(search)
        context.warn(listing.warnings)
        let found = listing.items
        if json { return context.printJSON(found) }
        guard !found.isEmpty else {
            context.remember(listing: [])
            let shown = words.prefix(8).map { "'\($0)'" }.joined(separator: " and ")
            let more = words.count > 8 ? " and \(words.count - 8) more words" : ""
            context.output.line("No transcript contains \(shown)\(more).")
            return
        }
        let style = context.style
        func highlight(_ text: String) -> String {
            guard style.colors else { return text }
            var out = "", at = 0
            let bytes = Array(text.utf8)
            for r in search.occurrences(in: text) {
                out += String(decoding: bytes[at..<r.lowerBound], as: UTF8.self)
                out += style.yellow(String(decoding: bytes[r], as: UTF8.self))
                at = r.upperBound
            }
            return out + String(decoding: bytes[at...], as: UTF8.self)
        }
        context.printListing(found, detail: { item in
            search.firstOccurrence(in: item).map { match in
                highlight(item.text.withUTF8 { Self.snippet(of: $0, around: match) })
            }
        }, title: { highlight($0.title.visible) })
    }

    /// About 70 characters of `text` on one line around `match` (UTF-8 offsets), with `…`
    /// where it was cut.
    static func snippet(of bytes: UnsafeBufferPointer<UInt8>, around match: Range<Int>) -> String {
        var start = max(0, match.lowerBound - 30), end = min(bytes.count, match.upperBound + 40)
        // Cut between characters: never inside a UTF-8 sequence.
        while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return (start > 0 ? "…" : "") + line.split(whereSeparator: \.isNewline).joined(separator: " ")
            + (end < bytes.count ? "…" : "")
    }
}
