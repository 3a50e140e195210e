import Testing
import VshVoice

/// A hiss where the words claim voice throughout (`Voicing.longestHiss`): which words claim
/// it, and the run of hissing frames on made sounds (`HissTests`' vowel, hiss and room).
@Suite struct HissInVoiceTests {
    @Test func wordsWithoutAVoicelessPhoneClaimVoiceThroughout() {
        #expect(Voicing.claimedThroughout(SyllablesTests.phones("R IY L OW D")), "reload")
        #expect(Voicing.claimedThroughout(SyllablesTests.phones("M AA R V IH N")), "marvin")
        #expect(!Voicing.claimedThroughout(SyllablesTests.phones("P L EY", "W AH N")), "play one: the P")
        #expect(!Voicing.claimedThroughout(SyllablesTests.phones("Z IH R OW")), "zero: a Z is often said as an S")
        #expect(!Voicing.claimedThroughout(SyllablesTests.phones("HH AE P IY")), "happy")
        #expect(!Voicing.claimedThroughout([]), "no words")
        #expect(!Voicing.claimedThroughout([[]]), "a word without phones")
    }

    /// Frames from 0.4 s before the sound to 0.2 s after it, of audio that begins with half
    /// a second of quiet.
    static func run(_ audio: [Int16], seconds: Double) -> Int {
        Voicing.longestHiss(in: Spectrum(audio), from: 10, to: Int((0.5 + seconds + 0.2) * 100))
    }

    /// "six" heard as `reload`: an S of 0.15 s before the vowel, 20 dB under it.
    @Test func aHissBeforeTheVowelIsARun() {
        let six = HissTests.hiss(seconds: 0.15).map { $0 * 0.1 }
        let said = HissTests.audio([HissTests.quiet, six, HissTests.vowel(seconds: 0.3), HissTests.quiet])
        let run = Self.run(said, seconds: 0.45)
        #expect(run >= 12 && run <= 17, "\(run) frames")
    }

    @Test func aVowelHasNone() {
        let said = HissTests.audio([HissTests.quiet, HissTests.vowel(seconds: 0.4), HissTests.quiet])
        #expect(Self.run(said, seconds: 0.4) == 0)
    }

    /// The run is counted against the room, not the level: the same S and vowel at 20000
    /// and at 1000 give the same run.
    @Test func theLevelDoesNotMoveIt() {
        let parts = [HissTests.quiet, HissTests.hiss(seconds: 0.15).map { $0 * 0.1 }, HissTests.vowel(seconds: 0.3), HissTests.quiet]
        let loud = Self.run(HissTests.audio(parts, peak: 20_000), seconds: 0.45)
        let soft = Self.run(HissTests.audio(parts, peak: 1_000), seconds: 0.45)
        #expect(abs(loud - soft) <= 1, "\(loud) frames at 20000, \(soft) at 1000")
    }

    /// A room's steady hiss, as loud as an S (30 dB under the vowel), is the room: only
    /// sound 20 dB over the room counts.
    @Test func aSteadyHissingRoomIsNoRun() {
        let spoken = HissTests.quiet + HissTests.vowel(seconds: 0.3) + HissTests.quiet
        let room = HissTests.hiss(seconds: 1.3).map { $0 * 0.03 }
        let said = HissTests.audio([zip(spoken, room).map { $0 + $1 }])
        #expect(Self.run(said, seconds: 0.3) == 0)
    }
}
