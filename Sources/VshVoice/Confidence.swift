import Foundation

/// How sure vsh is that an utterance was meant as the command it was heard as, 0…1.
///
/// The recogniser decodes each utterance against the commands *and* a thousand everyday
/// words (`OpenGrammar`). Speech that is no command usually comes out as one of those
/// words: then the confidence is 0, whatever the phrase. When a command wins, the
/// confidence grows with how far it beat the best *other* phrase of the grammar in the same
/// search ("on" for "off"): the difference of two path scores over the same
/// audio, so neither the level, the sample rate nor the number of commands in the grammar
/// moves it the way they move a score on its own (the model before this one weighed the
/// absolute grammar score per frame, and real microphones lost to synthetic voices).
/// A command whose words last implausibly long or short for their phones, or that leaves
/// seconds of speech unexplained (a sentence heard as a short command), is no command
/// either, and so is one with a word that has no voiced frame (a noise). Fitted on Speech
/// Commands speakers of fold 0 (research/recognition/OTHER_WORDS.md, VOICING.md).
package struct Confidence: Sendable, Equatable {
    /// What the confidence looks at, from one decode of an utterance.
    package struct Features: Sendable, Equatable {
        /// 10 ms frames decoded; frames inside real words (not silence or fillers).
        package var frames: Int
        package var wordFrames: Int
        /// Phones in the recognised words' pronunciations.
        package var phones: Int
        /// Words recognised (fillers not counted).
        package var words: Int
        /// How much better the best phrase scores than the best *different* phrase of the
        /// grammar in the search's n-best list (path scores, log base 1.0001; other words
        /// are not counted); nil when the search kept no other phrase of the grammar, which
        /// happens when none came close.
        package var runnerUpGap: Double?
        /// The first everyday word (no command) among the words heard, if any.
        package var otherWord: String?

        /// 10 ms frames outside the words that are as loud as speech: what the words heard
        /// do not account for.
        package var speechOutsideWords: Int
        /// How voiced the least voiced word is: its most periodic frame's YIN difference
        /// (`Voicing`), 0 for a clear vowel, about 1 for noise.
        package var weakestVoicing: Double
        /// With a model adapted to the person (`train`): how much better it explains the
        /// words than the stock model, per frame (a log-likelihood ratio, nats). Not part
        /// of the confidence: the speaker check compares it with the person's own.
        package var speakerScore: Double?
        /// The fewest 10 ms frames per phone any one word of three phones or more got: a
        /// word the search put in where little was said ("play" before a lone "five") gets
        /// about the three frames a phone needs at least. Shorter words ("the", "of") are
        /// left out: in running speech they are said that fast ("paint the wall" from a
        /// synthetic voice: "the" in 7 frames). Nil when there is no such word.
        package var shortestWord: Double?
        /// The word heard least surely as itself, and its log-likelihood ratio per frame
        /// against a free phone loop over the same frames (in the decoder's score units, as
        /// `runnerUpGap`): about 0 for a word that was said, far below for one the grammar
        /// inferred ("play" in `play 5` from a lone "five"). Measured, not yet part of any
        /// decision (research/recognition/VERIFY.md). Nil when no phone loop was run (other
        /// words, nothing heard, a recogniser without one).
        package var weakestWord: String?
        package var weakestWordRatio: Double?
        /// The highest of the words' ratios, when two words or more have one: the weakest
        /// against it says how far one word falls below the others of the same utterance,
        /// whatever lowers them all (a voice or a channel the model fits less). Measured.
        package var strongestWordRatio: Double?
        /// Of the words that begin with a hiss (S, SH), the least hissing onset (`Hiss`):
        /// the highest share of power over the room's in the hiss's band (above 3.5 kHz for
        /// S, 2.5 kHz for SH) that four frames in a row of the onset reach, about 0.9 for a
        /// hiss said and under 0.1 for "up" heard as `stop`. Nil when no word begins with
        /// one, for other words, and for audio with no band above 4 kHz.
        package var weakestHiss: Double?
        /// Where the words claim two vowels parted by a stop or a fricative, the deepest dip
        /// of the voice's band between two of the words' voiced peaks, in dB (`Syllables`):
        /// 15 and more between two syllables said, a few dB within one, and a stop's release
        /// or a fricative after the one vowel there is no peak. Nil when the words claim no
        /// such parting, and for other words.
        package var syllableDip: Double?
        /// Where the words claim voice throughout (no voiceless phone,
        /// `Voicing.claimedThroughout`: `reload`, `undo`), the longest run of 10 ms frames
        /// over them that hiss (`Voicing.longestHiss`): 0 to 4 for nearly every voiced word
        /// said, 4 to 14 (mostly 7 and 8) for the S of a lone "six" heard as `reload`. Nil
        /// when the words claim a voiceless phone, and for other words.
        package var hissInVoice: Int?
        /// Where the first word begins with voice and no frication (a vowel, R, L, W, Y, M,
        /// N, NG: `Voicing.voicedOnsets`), the longest run of 10 ms frames that hiss running
        /// into it, from 0.2 s before it to a quarter into it (`Voicing.hissBefore`): 0 for
        /// nearly every such word said, 7 to 13 for the S of a lone "six" heard as
        /// `record`. Nil when the first word begins otherwise, and for other words.
        package var hissBefore: Int?
        /// For a phrase of two words or more, the best reading of the same search that
        /// leaves one or more of its words out (a lone "play" for `play eight`, a lone "one"
        /// for `code one`: the grammar's words that may be heard alone, `OtherWords.lone`),
        /// when the n-best list holds one, and how much better the phrase scores than it
        /// (path scores, as `runnerUpGap`; below 0 when the reading without the word fits
        /// the audio better, and the phrase won on the grammar's weights alone). A word
        /// said is far more than that: no real command of two words or more measured had
        /// such a reading in its n-best list at all (research/recognition/LEFT_OUT.md).
        /// Nil when there is none, and for other words.
        package var leftOutReading: [String]?
        package var leftOutGap: Double?

        package init(frames: Int, wordFrames: Int, phones: Int, words: Int = 1, runnerUpGap: Double? = nil,
                    otherWord: String? = nil, speechOutsideWords: Int = 0, weakestVoicing: Double = 0,
                    speakerScore: Double? = nil, shortestWord: Double? = nil,
                    weakestWord: String? = nil, weakestWordRatio: Double? = nil, strongestWordRatio: Double? = nil,
                    weakestHiss: Double? = nil, syllableDip: Double? = nil, hissInVoice: Int? = nil,
                    hissBefore: Int? = nil, leftOutReading: [String]? = nil, leftOutGap: Double? = nil) {
            self.leftOutReading = leftOutReading
            self.leftOutGap = leftOutGap
            self.weakestHiss = weakestHiss
            self.syllableDip = syllableDip
            self.hissInVoice = hissInVoice
            self.hissBefore = hissBefore
            self.weakestWord = weakestWord
            self.weakestWordRatio = weakestWordRatio
            self.strongestWordRatio = strongestWordRatio
            self.speakerScore = speakerScore
            self.shortestWord = shortestWord
            self.speechOutsideWords = speechOutsideWords
            self.weakestVoicing = weakestVoicing
            self.frames = frames
            self.wordFrames = wordFrames
            self.phones = phones
            self.words = words
            self.runnerUpGap = runnerUpGap
            self.otherWord = otherWord
        }
    }

    /// How long a phone of the words heard may last on average, in 10 ms frames: a command
    /// squeezed into less (a click) or stretched over more (a hum) is no command. On the
    /// fitting speakers 1% of right commands fell outside each end.
    package var framesPerPhone: ClosedRange<Double>
    /// How much speech-level audio the words may leave unexplained, in 10 ms frames: a
    /// sentence heard as a short command leaves seconds of it ("quality low" in a 5 s
    /// librivox sentence: 314 frames), a spoken command at most about 1.6 s of noise or
    /// breath (the most among Speech Commands fold 0's right commands: 158).
    package var unexplainedSpeech: Int
    /// How periodic every word's most voiced frame must be (`Voicing`, below this): each
    /// word has a vowel. Noise heard as "up" has none. The strictest value that cost at
    /// most 0.5% of the fitting speakers' right commands (it cost 1 of 553); it also
    /// removed 10 of their 53 wrong commands and 5 of the 8 noise clips heard as commands.
    package var voiced: Double
    /// The runner-up gap at which the confidence is one half. On the fitting speakers the
    /// 12-class top-1 was flat (73.1–73.4%) for 0 to 100; 100 runs the fewest wrong commands.
    package var midpoint: Double
    /// How fast the confidence rises with the gap (gap units per e-fold of the odds).
    package var scale: Double
    /// The gap taken when the search kept no runner-up.
    package var unrivalled: Double

    /// A command that beat the runner-up by less than `midpoint` is a close call: at the
    /// prompt it gets "did you mean" (a tie is 0.3, `voice.reject_below`), not a run.
    package static let model = Confidence(framesPerPhone: 6...45, unexplainedSpeech: 200, voiced: 0.4, midpoint: 100,
                                         scale: 118, unrivalled: 1_000)

    package func probability(_ features: Features) -> Double {
        guard features.otherWord == nil, features.words > 0, features.phones > 0,
              framesPerPhone.contains(Double(features.wordFrames) / Double(features.phones)),
              features.speechOutsideWords <= unexplainedSpeech, features.weakestVoicing < voiced else { return 0 }
        let gap = min(features.runnerUpGap ?? unrivalled, unrivalled)
        return 1 / (1 + exp(-(gap - midpoint) / scale))
    }

    package static func probability(_ features: Features) -> Double { model.probability(features) }
}
