import Testing
import VshVoice

/// Whether the audio has the syllables the words claim (`Syllables`): which words claim a
/// parting, and the dip of the voice's band on made sounds (`HissTests`' vowel, hiss,
/// noise and room).
@Suite struct SyllablesTests {
    static func phones(_ words: String...) -> [[Substring]] {
        words.map { $0.split(separator: " ") }
    }

    @Test func aStopOrAFricativeBetweenTwoVowelsIsAParting() {
        #expect(Syllables.partings(Self.phones("K OW D", "OW")) == 1, "code oh: the D, across two words")
        #expect(Syllables.partings(Self.phones("HH AE P IY")) == 1, "happy")
        #expect(Syllables.partings(Self.phones("M AA R V IH N")) == 1, "marvin: the V, though an R comes first")
        #expect(Syllables.partings(Self.phones("P L EY", "EY T IY N")) == 1, "play eighteen: the T, not between the two EYs")
        #expect(Syllables.partings(Self.phones("P L EY", "F AY V")) == 1, "play five")
    }

    @Test func noVowelsOrNoneBetweenAreNoParting() {
        #expect(Syllables.partings(Self.phones("S T AA P")) == 0, "one vowel")
        #expect(Syllables.partings(Self.phones("P L EY", "W AH N")) == 0, "a glide parts them with little dip")
        #expect(Syllables.partings(Self.phones("P L EY", "EY T")) == 0, "two vowels in a row")
        #expect(Syllables.partings(Self.phones("R IY L OW D")) == 0, "an L")
        #expect(Syllables.partings(Self.phones("S EH V AH N")) == 0, "a last \"-en\" is often the N alone")
        #expect(Syllables.partings(Self.phones("S EH V AH N", "T UW")) == 1, "but the T before \"two\" parts the N's word from it")
        #expect(Syllables.partings([]) == 0)
    }

    static let closure = [Double](repeating: 0, count: HissTests.rate * 6 / 100)
    /// Two vowels, 0.2 s and 0.25 s, parted by a closure, after half a second of quiet:
    /// 0.51 s of words.
    static let twoSyllables = [HissTests.quiet, HissTests.vowel(seconds: 0.2), closure, HissTests.vowel(seconds: 0.25), HissTests.quiet]

    /// Frames from 0.4 s before the first vowel to 0.2 s after the last, of audio that
    /// begins with half a second of quiet.
    static func dip(_ audio: [Int16], seconds: Double) -> Double {
        Syllables.dip(in: Spectrum(audio), from: 10, to: Int((0.5 + seconds + 0.2) * 100))
    }

    @Test func twoSyllablesPartedByAClosureDip() {
        let said = HissTests.audio(Self.twoSyllables)
        #expect(Self.dip(said, seconds: 0.51) >= 20)
    }

    @Test func oneSyllableHasNoDip() {
        let said = HissTests.audio([HissTests.quiet, HissTests.vowel(seconds: 0.4), HissTests.quiet])
        #expect(Self.dip(said, seconds: 0.4) < 3)
    }

    @Test func theLevelDoesNotMoveIt() {
        let loud = Self.dip(HissTests.audio(Self.twoSyllables, peak: 20_000), seconds: 0.51)
        let soft = Self.dip(HissTests.audio(Self.twoSyllables, peak: 1_000), seconds: 0.51)
        #expect(abs(loud - soft) < 1, "\(loud) dB at 20000, \(soft) dB at 1000")
    }

    /// A steady room 12 dB under the vowels' peak fills the closure: taken off, it dips as
    /// in quiet.
    @Test func aSteadyRoomDoesNotFillTheDip() {
        let dip = Self.dip(HissTests.audio(Self.twoSyllables, roomBelow: 12), seconds: 0.51)
        #expect(dip >= 15, "\(dip) dB")
    }

    /// What follows a vowel far under it (a release, a breath: a hiss 30 dB down) is no
    /// second syllable.
    @Test func aSoundFarUnderTheVowelIsNoPeak() {
        let release = HissTests.vowel(seconds: 0.08).map { $0 * 0.03 }
        let said = HissTests.audio([HissTests.quiet, HissTests.vowel(seconds: 0.3), Self.closure, release, HissTests.quiet])
        #expect(Self.dip(said, seconds: 0.44) < 3)
    }

    /// A stop's release after the one vowel there is ("right" heard as `record`): a burst
    /// of noise after a closure, as loud in the voice's band as the vowel, has no voice and
    /// is no second syllable. A vowel after the same closure is.
    @Test func aSoundWithoutVoiceIsNoPeak() {
        let release = HissTests.noise(HissTests.rate * 8 / 100, seed: 11)
        let said = HissTests.audio([HissTests.quiet, HissTests.vowel(seconds: 0.3), Self.closure, release, HissTests.quiet])
        #expect(Self.dip(said, seconds: 0.44) < 3)
        let two = HissTests.audio([HissTests.quiet, HissTests.vowel(seconds: 0.3), Self.closure, HissTests.vowel(seconds: 0.08), HissTests.quiet])
        #expect(Self.dip(two, seconds: 0.44) >= 20)
    }

    /// A vowel in a noise as loud as itself is still voiced: the noise's share of each frame
    /// is taken off YIN's difference before it is judged (`Voicing.periodic`), so the
    /// second syllable is still a peak and the dip is still there.
    @Test func aVowelInLoudNoiseIsStillAPeak() {
        let dip = Self.dip(HissTests.audio(Self.twoSyllables, roomBelow: 0), seconds: 0.51)
        #expect(dip >= Gate.dipAtLeast, "\(dip) dB")
    }
}
