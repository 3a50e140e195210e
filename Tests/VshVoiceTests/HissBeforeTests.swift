import Testing
import VshVoice

/// A hiss before a word that begins with voice (`Voicing.hissBefore`): which words begin
/// so, and the run of hissing frames in the onset on made sounds (`HissTests`' vowel, hiss
/// and room), the word placed where the search may put it.
@Suite struct HissBeforeTests {
    /// The run before a word that is the whole of what was said.
    static func hissBefore(_ word: (Int, Int), in spectrum: Spectrum) -> Int {
        Voicing.hissBefore(word, wordsEnd: word.1, in: spectrum)
    }

    @Test func aVowelOrASonorantBeginsWithVoice() {
        for phone in ["R", "L", "M", "N", "W", "Y", "AH", "EH", "IY", "OW"] {
            #expect(Voicing.voicedOnsets.contains(Substring(phone)), "\(phone)")
        }
        // Words that begin with a hiss, a burst or breath have their own checks, or none.
        for phone in ["S", "SH", "Z", "F", "TH", "HH", "P", "T", "K", "CH", "JH", "B", "D", "G", "V", "DH"] {
            #expect(!Voicing.voicedOnsets.contains(Substring(phone)), "\(phone)")
        }
    }

    /// "six" heard as `record`: an S of 0.15 s, 20 dB under the vowel, and the word found
    /// at the vowel, after it.
    @Test func anSBeforeTheVowelIsARun() {
        let six = HissTests.audio([HissTests.quiet, HissTests.hiss(seconds: 0.15).map { $0 * 0.1 },
                                   HissTests.vowel(seconds: 0.3), HissTests.quiet])
        let run = Self.hissBefore(HissTests.span(from: 0.65, length: 0.3), in: Spectrum(six))
        #expect(run >= Gate.hissInVoiceUnder, "\(run) frames")
        // Found from the S itself, the quarter of the word the onset reaches holds it.
        let atTheS = Self.hissBefore(HissTests.span(from: 0.5, length: 0.45), in: Spectrum(six))
        #expect(atTheS >= Gate.hissInVoiceUnder, "\(atTheS) frames")
    }

    @Test func aVowelFromQuietHasNone() {
        let said = HissTests.audio([HissTests.quiet, HissTests.vowel(seconds: 0.4), HissTests.quiet])
        #expect(Self.hissBefore(HissTests.span(from: 0.5, length: 0.4), in: Spectrum(said)) == 0)
    }

    /// An S that ended more than the onset's reach before the word (a word said before,
    /// then a pause) is not the word's.
    @Test func anSBeforeThePauseIsNotTheOnset() {
        let said = HissTests.audio([HissTests.quiet, HissTests.hiss(seconds: 0.15).map { $0 * 0.1 },
                                    HissTests.quiet, HissTests.vowel(seconds: 0.3), HissTests.quiet])
        #expect(Self.hissBefore(HissTests.span(from: 1.15, length: 0.3), in: Spectrum(said)) == 0)
    }

    /// A breath or a click before a word said after it ends before a pause: a hiss that
    /// stops 80 ms before the vowel is not the word's onset.
    @Test func aHissThatEndsBeforeAPauseIsNotTheOnset() {
        let gap = [Double](repeating: 0, count: HissTests.rate * 8 / 100)
        let said = HissTests.audio([HissTests.quiet, HissTests.hiss(seconds: 0.12).map { $0 * 0.1 }, gap,
                                    HissTests.vowel(seconds: 0.3), HissTests.quiet])
        #expect(Self.hissBefore(HissTests.span(from: 0.70, length: 0.3), in: Spectrum(said)) == 0)
    }

    /// A recording that starts from digital silence brings its own noise with it, before
    /// and after its word: that noise is the word's room, however far it lies over the
    /// silence before it.
    @Test func aRecordingsOwnNoiseAfterSilenceIsItsRoom() {
        let silence = [Int16](repeating: 0, count: HissTests.rate / 2)
        let noise = HissTests.hiss(seconds: 1.1).map { $0 * 0.03 }
        let spoken = [Double](repeating: 0, count: HissTests.rate * 4 / 10) + HissTests.vowel(seconds: 0.3) + HissTests.quiet
        let recording = HissTests.audio([zip(spoken, noise).map { $0 + $1 }], roomBelow: 200)
        let said = silence + recording
        #expect(Self.hissBefore(HissTests.span(from: 0.9, length: 0.3), in: Spectrum(said)) == 0)
    }

    /// Breath 40 dB under the vowel, running into it over a near-silent room, is no S:
    /// the same sound 20 dB under it is.
    @Test func aHissFarUnderTheVowelIsNoS() {
        func run(under gain: Double) -> Int {
            let said = HissTests.audio([HissTests.quiet, HissTests.hiss(seconds: 0.15).map { $0 * gain },
                                        HissTests.vowel(seconds: 0.3), HissTests.quiet], roomBelow: 80)
            return Self.hissBefore(HissTests.span(from: 0.65, length: 0.3), in: Spectrum(said))
        }
        #expect(run(under: 0.01) == 0)
        #expect(run(under: 0.1) >= Gate.hissInVoiceUnder)
    }

    /// A room's steady hiss, as loud as an S (30 dB under the vowel), is the room.
    @Test func aSteadyHissingRoomIsNoRun() {
        let spoken = HissTests.quiet + HissTests.vowel(seconds: 0.3) + HissTests.quiet
        let room = HissTests.hiss(seconds: 1.3).map { $0 * 0.03 }
        let said = HissTests.audio([zip(spoken, room).map { $0 + $1 }])
        #expect(Self.hissBefore(HissTests.span(from: 0.5, length: 0.3), in: Spectrum(said)) == 0)
    }
}
