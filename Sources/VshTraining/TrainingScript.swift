import VshCore
import VshSpoken

/// What `train` asks a person to say: the words of vsh's commands and of their own
/// command files, digits, and sentences that cover the sounds of English the commands
/// miss. About two minutes of speaking: adaptation measured on spoken digits gained most
/// of its accuracy from 50 utterances (research/adaptation).
package enum TrainingScript {
    /// Sentences from the Harvard sentence lists (IEEE 1969, public domain), picked so
    /// that together with the command words every English phone occurs several times.
    package static let sentences = [
        "the birch canoe slid on the smooth planks",
        "glue the sheet to the dark blue background",
        "it's easy to tell the depth of a well",
        "these days a chicken leg is a rare dish",
        "rice is often served in round bowls",
        "the juice of lemons makes fine punch",
        "the box was thrown beside the parked truck",
        "the hogs were fed chopped corn and garbage",
        "four hours of steady work faced us",
        "a large size in stockings is hard to sell",
        "the boy was there when the sun rose",
        "a rod is used to catch pink salmon",
        "the source of the huge river is the clear spring",
        "kick the ball straight and follow through",
        "help the woman get back to her feet",
        "a pot of tea helps to pass the evening",
        "smoky fires lack flame and heat",
        "the soft cushion broke the man's fall",
        "the salt breeze came across from the sea",
        "the girl at the booth sold fifty bonds",
    ]

    /// Digits in four orders, so each is said in several neighbourhoods.
    package static let digits = [
        "one two three four five",
        "six seven eight nine zero",
        "zero nine two seven four",
        "five eight one six three",
        "oh four nine six two",
        "three seven zero eight one",
    ]

    /// Words a phrase of command words holds.
    static let wordsPerPhrase = 4

    /// The phrases for `vocabulary` (the command grammar's words): the command words in
    /// groups of four, the digits, then the sentences. Digit words are left to the digit
    /// phrases. The same vocabulary always gives the same script, so an interrupted
    /// training resumes where it stopped.
    package static func phrases(vocabulary: Set<String>) -> [String] {
        let numbers = Set(NumberWords.digits + ["oh"])
        let words = vocabulary.filter { !numbers.contains($0) && !$0.contains("(") }.sorted()
        var commandPhrases: [String] = []
        var start = 0
        while start < words.count {
            commandPhrases.append(words[start..<min(words.count, start + wordsPerPhrase)].joined(separator: " "))
            start += wordsPerPhrase
        }
        // Commands first (the words vsh must hear), then digits and sentences,
        // interleaved so that a stop midway still leaves varied material.
        var script = commandPhrases
        var rest: [String] = []
        for i in 0..<max(digits.count, sentences.count) {
            if i < digits.count { rest.append(digits[i]) }
            if i < sentences.count { rest.append(sentences[i]) }
        }
        script += rest
        return script
    }
}
