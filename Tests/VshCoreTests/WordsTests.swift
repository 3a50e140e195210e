import Testing
@testable import VshCore

@Suite struct WordsTests {
    @Test(arguments: [
        ("quality high", [["quality", "high"]]),
        ("  quality   high  ", [["quality", "high"]]),
        ("save 'my first note'", [["save", "my first note"]]),
        ("save \"say \\\"hi\\\"\"", [["save", "say \"hi\""]]),
        ("save it\\'s", [["save", "it's"]]),
        ("quality high; quality", [["quality", "high"], ["quality"]]),
        ("save 'a;b'", [["save", "a;b"]]),
        (";;", []),
        ("", []),
        ("save ''", [["save", ""]]),
        // In "…" a backslash escapes only " and \ and is otherwise kept, as in a POSIX
        // shell; outside quotes it escapes any character; in '…' nothing.
        ("printf \"fruit=%s\\n\" apple", [["printf", "fruit=%s\\n", "apple"]]),
        ("say \"a\\\\b \\$x\"", [["say", "a\\b \\$x"]]),
        ("say a\\nb 'c\\nd'", [["say", "anb", "c\\nd"]]),
    ])
    func splits(_ line: String, _ expected: [[String]]) throws {
        #expect(try Words.splitCommands(line) == expected)
    }

    @Test(arguments: [
        ("save 'oops", "unterminated ' quote in: save 'oops"),
        ("save \"oops", "unterminated \" quote in: save \"oops"),
        ("save oops\\", "line ends with a lone backslash: save oops\\"),
    ])
    func errors(_ line: String, _ message: String) {
        #expect(throws: Words.SplitError(description: message)) { try Words.splitCommands(line) }
    }

    @Test(arguments: ["plain", "two words", "it's", "", "a;b", "tab\there", "back\\slash"])
    func quoteRoundTrips(_ word: String) throws {
        #expect(try Words.split("cmd " + Words.quote(word)) == ["cmd", word])
    }
}
