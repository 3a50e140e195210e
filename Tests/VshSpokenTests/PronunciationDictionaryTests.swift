import Testing
@testable import VshCore
@testable import VshSpoken

@Suite struct PronunciationDictionaryTests {
    static let path = Settings().modelDirectory + "/cmudict-en-us.dict"

    /// The quick reader (only the words asked for) gives exactly what the full parse
    /// gives, variants included, and names the words it lacks.
    @Test func readingOnlySomeWordsMatchesTheFullParse() throws {
        let words: Set<String> = ["record", "delete", "a", "zero", "oh", "read", "listen", "quality", "vsh", "zzzq"]
        let full = try PronunciationDictionary(path: Self.path).subset(words)
        let quick = try PronunciationDictionary(path: Self.path, only: words).subset(words)
        #expect(quick.text == full.text)
        #expect(quick.missing == ["vsh", "zzzq"])
        #expect(quick.text.contains("record(2) "), "variants are kept")
    }

    @Test func aMissingDictionaryNamesTheFileAndThePackage() {
        #expect {
            _ = try PronunciationDictionary(path: "/nowhere/cmudict.dict", only: ["a"])
        } throws: { error in
            "\(error)".contains("/nowhere/cmudict.dict") && "\(error)".contains("pocketsphinx-en-us")
        }
    }
}
