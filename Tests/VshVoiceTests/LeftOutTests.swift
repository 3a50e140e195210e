import Testing
import VshVoice

/// The best reading of an n-best list that leaves words of the phrase out (`LeftOut`).
@Suite struct LeftOutTests {
    static func list(_ readings: [(String, Double)]) -> [(words: [String], score: Double)] {
        readings.map { (words: $0.0.split(separator: " ").map(String.init), score: $0.1) }
    }

    /// A lone "play" heard as `play eight` (flite rms): "play" alone scored better.
    @Test func aWordPutInLeavesAReadingWithoutIt() throws {
        let found = try #require(LeftOut.reading(of: ["play", "eight"], among: Self.list(
            [("play", -2762), ("play eight", -2803), ("play eighty", -3056), ("play two", -3194)])))
        #expect(found.words == ["play"])
        #expect(found.gap == -41)
    }

    /// The best of several shorter readings, against the phrase's best own score (a
    /// reading may come twice, with fillers told apart); a word left out of the middle counts.
    @Test func theBestShorterReadingAgainstThePhrasesBest() throws {
        let found = try #require(LeftOut.reading(of: ["count", "four", "five"], among: Self.list(
            [("count four five", -3000), ("count five", -3200), ("count four five", -2900), ("four", -3100), ("five four", -2000)])))
        #expect(found.words == ["four"])
        #expect(found.gap == 200)
        let middle = try #require(LeftOut.reading(of: ["count", "four", "five"], among: Self.list(
            [("count four five", -3000), ("count five", -3050)])))
        #expect(middle.words == ["count", "five"])
    }

    /// No measure: one word, a list without the phrase, or no reading of some of its words
    /// only (other words in it, another order, the whole phrase and more).
    @Test func noShorterReadingIsNoMeasure() {
        #expect(LeftOut.reading(of: ["stop"], among: Self.list([("stop", -3000), ("top", -3100)])) == nil)
        #expect(LeftOut.reading(of: ["play", "eight"], among: Self.list([("play", -3000)])) == nil)
        #expect(LeftOut.reading(of: ["play", "eight"], among: Self.list(
            [("play eight", -3000), ("eight play", -2900), ("play the", -2800), ("play eight one", -2700), ("way", -2600)])) == nil)
    }

    @Test func theWordsLeftOut() {
        #expect(LeftOut.unheard(keeping: ["play"], of: ["play", "eight"]) == ["eight"])
        #expect(LeftOut.unheard(keeping: ["one"], of: ["code", "one"]) == ["code"])
        #expect(LeftOut.unheard(keeping: ["five"], of: ["five", "five"]) == ["five"])
        #expect(LeftOut.unheard(keeping: ["count", "five"], of: ["count", "four", "five"]) == ["four"])
        #expect(LeftOut.unheard(keeping: ["six"], of: ["play", "eight"]) == nil)
    }
}
