/// Whether a phrase can still grow: what the voice pipeline asks before it ends an utterance
/// early ("stop" can become "stop recording", "save" cannot grow).
extension SpokenPattern {
    /// Whether some phrase of the pattern is longer than `words` and begins with them.
    /// Slots count as words that may go on: "twenty" can become "twenty one", and
    /// `<digits>` always takes one more digit.
    package func canGrow(after words: [String]) -> Bool {
        grows(words[...]) { _ in false }
    }

    /// Continuation-passing, like `match`: `next` gets what is left of `words` after each
    /// way the pattern consumes a prefix; the answer is true as soon as the words run out
    /// at a point where the pattern still offers a word.
    private func grows(_ words: ArraySlice<String>, _ next: (ArraySlice<String>) -> Bool) -> Bool {
        switch self {
        case .word(let w):
            if words.isEmpty { return true }
            guard words.first == w else { return false }
            return next(words.dropFirst())
        case .sequence(let items):
            return Self.growsSequence(items[...], words, next)
        case .alternatives(let items):
            return items.contains { $0.grows(words, next) }
        case .optional(let item):
            return item.grows(words, next) || next(words)
        case .slot(let slot):
            if words.isEmpty { return true }
            for (_, used) in NumberWords.readings(of: words, as: slot) where next(words.dropFirst(used)) {
                return true
            }
            return Self.slotGrows(slot, words)
        }
    }

    private static func growsSequence(
        _ items: ArraySlice<SpokenPattern>, _ words: ArraySlice<String>, _ next: (ArraySlice<String>) -> Bool
    ) -> Bool {
        guard let first = items.first else { return next(words) }
        return first.grows(words) { rest in growsSequence(items.dropFirst(), rest, next) }
    }

    /// Whether the slot reads all of `words` and one more word would still be the slot
    /// ("twenty" → "twenty one"; any run of `<digits>`).
    private static func slotGrows(_ slot: Slot, _ words: ArraySlice<String>) -> Bool {
        guard NumberWords.readings(of: words, as: slot).contains(where: { $0.1 == words.count }) else { return false }
        return NumberWords.vocabulary(for: slot).contains { extra in
            NumberWords.readings(of: words + [extra], as: slot).contains { $0.1 == words.count + 1 }
        }
    }
}
