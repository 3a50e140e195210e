/// Spoken numbers: the words the grammar offers for `<digit>` and `<number>`, and how
/// recognised words read back as digits.
package enum NumberWords {
    package static let digits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    static let teens = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                        "seventeen", "eighteen", "nineteen"]
    static let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// The value of a single digit word ("oh" is zero, as in phone numbers).
    package static func digit(_ word: String) -> Int? {
        if word == "oh" { return 0 }
        return digits.firstIndex(of: word)
    }

    package static func vocabulary(for slot: SpokenPattern.Slot) -> [String] {
        switch slot {
        case .digit, .digits: digits + ["oh"]
        case .number: digits + teens + tens
        }
    }

    /// JSGF rules for the slots, to append to a grammar.
    package static let jsgfRules = """
        <digit> = zero | oh | one | two | three | four | five | six | seven | eight | nine;
        <number> = \(digits.joined(separator: " | ")) | \(teens.joined(separator: " | ")) | (\(tens.joined(separator: " | "))) [one | two | three | four | five | six | seven | eight | nine];
        """

    /// Every way the start of `words` reads as the slot: (value as digits, words used).
    static func readings(of words: ArraySlice<String>, as slot: SpokenPattern.Slot) -> [(String, Int)] {
        guard let first = words.first else { return [] }
        switch slot {
        case .digit:
            return digit(first).map { [(String($0), 1)] } ?? []
        case .digits:
            var value = ""
            var results: [(String, Int)] = []
            for word in words {
                guard let d = digit(word) else { break }
                value += String(d)
                results.append((value, value.count))
            }
            return results.reversed()  // longest first
        case .number:
            if let i = digits.firstIndex(of: first) { return [(String(i), 1)] }
            if let i = teens.firstIndex(of: first) { return [(String(10 + i), 1)] }
            if let i = tens.firstIndex(of: first) {
                let base = 20 + 10 * i
                var results: [(String, Int)] = []
                if words.count > 1, let unit = digits.firstIndex(of: words[words.startIndex + 1]), unit > 0 {
                    results.append((String(base + unit), 2))
                }
                results.append((String(base), 1))
                return results
            }
            return []
        }
    }
}
