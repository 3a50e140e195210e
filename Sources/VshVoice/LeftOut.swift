/// Whether every word of a phrase was heard, or one was put in by the grammar: the best
/// reading of the same search that leaves words of the phrase out.
///
/// The grammar weighs a whole command far above a word of it heard alone (`OpenGrammar`:
/// a lone "play" or "one" weighs `loneWeight`), so the search may add a word no one said
/// to make a command: a lone "play" is heard as `play eight` (the vowel of "play" is the
/// vowel of "eight"), a lone "one" as `code one`. The n-best list scores its readings by
/// how they fit the audio: where the phrase was said, the reading without one of its words
/// fits far worse and is not among the twenty best; where a word was put in, the reading
/// without it is there, about as good or better (research/recognition/LEFT_OUT.md).
package enum LeftOut {
    /// Of `readings` (an n-best list: each reading's words, fillers left out, and its path
    /// score), the best that holds some but not all of `phrase`'s words in their order,
    /// and nothing else, with how much better the phrase's own best reading scored than it.
    /// Nil for a phrase of one word, when the list lacks the phrase or any such reading.
    package static func reading(of phrase: [String], among readings: [(words: [String], score: Double)])
        -> (words: [String], gap: Double)? {
        guard phrase.count >= 2,
              let own = readings.filter({ $0.words == phrase }).map(\.score).max(),
              let shorter = readings.filter({ leavesOut($0.words, of: phrase) }).max(by: { $0.score < $1.score })
        else { return nil }
        return (shorter.words, own - shorter.score)
    }

    /// Whether `words` are some of `phrase`'s words, in its order, and fewer than all.
    static func leavesOut(_ words: [String], of phrase: [String]) -> Bool {
        !words.isEmpty && words.count < phrase.count && unheard(keeping: words, of: phrase) != nil
    }

    /// The words of `phrase` that `kept` (some of its words, in its order) leaves out, each
    /// kept word matched to its first place; nil when `kept` is not some of its words.
    package static func unheard(keeping kept: [String], of phrase: [String]) -> [String]? {
        var out: [String] = [], rest = phrase[...]
        for word in kept {
            guard let at = rest.firstIndex(of: word) else { return nil }
            out += rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        return out + rest
    }
}
