import Testing
@testable import VshCore
@testable import VshVoice
import VshCommands
import VshSpoken

/// The everyday words commands compete with, the grammar opened to them, and the
/// confidence read off that one search.
@Suite struct OtherWordsTests {
    static let dictionary = PronunciationDictionary(entries: [
        "no": ["N OW"], "know": ["N OW"], "now": ["N AW"], "right": ["R AY T"], "write": ["R AY T"],
        "go": ["G OW"], "dog": ["D AO G"], "the": ["DH AH", "DH IY"], "exit": ["EH G Z IH T", "EH K S AH T"],
    ])

    /// A word of the grammar, or one that sounds exactly like one, never competes with it:
    /// "know" would otherwise take every spoken "no".
    @Test func homophonesAndTheGrammarsOwnWordsAreLeftOut() {
        let others = OtherWords.against(["no", "right", "go"], in: Self.dictionary, count: 100)
        #expect(!others.contains("no") && !others.contains("know") && !others.contains("write") && !others.contains("go"))
        #expect(others.contains("dog") && others.contains("now") && others.contains("the"))
    }

    /// Most likely first, and no more than asked for; words the dictionary lacks are skipped.
    @Test func theMostLikelyWordsComeFirst() {
        let others = OtherWords.against([], in: Self.dictionary, count: 2)
        #expect(others == Array(OtherWords.byLikelihood.filter { Self.dictionary.contains($0) }.prefix(2)))
        #expect(others.first == "the")
        #expect(OtherWords.byLikelihood.count >= OtherWords.count)
    }

    /// The grammar's public rules become alternatives of one new public rule, beside one
    /// other word and an optional second, each weighted (held against the ballast);
    /// everything else is kept as written.
    @Test func theOpenGrammarKeepsEveryPhraseAndAddsTheWords() {
        let jsgf = """
            #JSGF V1.0;
            grammar g;
            public <a> = go [home];
            public\t<b> = stop <c>;
            <c> = now | later; // publicity is not a rule
            """
        let open = OpenGrammar.jsgf(jsgf, otherWords: ["dog", "the"], weight: "1e-9")
        #expect(!open.contains("public <a>") && !open.contains("public\t<b>"))
        #expect(open.contains("<a> = go [home];") && open.contains("<b> = stop <c>;") && open.contains("publicity"))
        #expect(open.hasSuffix("""
            public <vsh_utterance> = <a> | <b> | <vsh_other>;
            <vsh_other> = (/1/ antidisestablishmentarianism | /1e-9/ dog | /1e-9/ the) [<vsh_other_more>];
            <vsh_other_more> = /1/ antidisestablishmentarianism | /1e-9/ dog | /1e-9/ the;

            """))
        #expect(open.components(separatedBy: "public <").count == 2, "one public rule")
    }

    /// A slot's value and a carrier ("five", "play" of `play five`) may be heard alone, as
    /// no command; a word that is a whole phrase by itself (a one-word command, an answer)
    /// may not, or it would compete with itself.
    @Test func wordsThatAreNoPhraseAloneMayBeHeardAlone() throws {
        let jsgf = """
            #JSGF V1.0;
            grammar g;
            public <a> = play <digit> | list | yes | go [home];
            <digit> = one | five;
            """
        let pattern = try #require(JSGFPattern.parse(jsgf))
        let lone = OtherWords.lone(in: ["play", "one", "five", "list", "yes", "go", "home"]) { pattern.match($0) != nil }
        #expect(lone == ["five", "home", "one", "play"])
        let open = OpenGrammar.jsgf(jsgf, otherWords: ["dog"], weight: "1e-9", loneWords: lone, loneWeight: "1e-8")
        #expect(open.contains("public <vsh_utterance> = <a> | <vsh_other> | <vsh_lone>;"))
        #expect(open.contains("<vsh_other_more> = /1/ antidisestablishmentarianism | /1e-9/ dog | /1e-9/ five | /1e-9/ home | /1e-9/ one | /1e-9/ play;"))
        #expect(open.contains("<vsh_lone> = /1/ antidisestablishmentarianism | /1e-8/ five | /1e-8/ home | /1e-8/ one | /1e-8/ play;"))
        // At the other words' weight they need no rule of their own.
        let flat = OpenGrammar.jsgf(jsgf, otherWords: ["dog"], weight: "1e-9", loneWords: lone, loneWeight: "1e-9")
        #expect(!flat.contains("vsh_lone") && flat.contains("| /1e-9/ dog | /1e-9/ five |"))
    }

    /// vsh's commands weigh the likeliest words more wherever they are heard (the prompt,
    /// `train`'s hearing of the takes), joined with others too; one command's forms alone
    /// (the spoken stop while recording) do not.
    @Test func vshsOwnCommandsWeighTheLikeliestWords() {
        let commands = VoiceGrammar(registry: Builtins.registry())
        let stop = VoiceGrammar(command: "stop", forms: [SpokenForm("stop recording", runs: "stop")])
        #expect(commands.weighsCommonWords)
        #expect(!stop.weighsCommonWords)
        #expect(VoiceGrammar(joining: [stop, commands]).weighsCommonWords)
        #expect(!VoiceGrammar(joining: [stop]).weighsCommonWords)
    }

    /// The first `common` other words (the most likely) weigh `commonWeight` as the
    /// first word heard, the rest `weight`; as the second word every one weighs `weight`.
    @Test func theMostLikelyWordsWeighMore() {
        let jsgf = "#JSGF V1.0;\ngrammar g;\npublic <a> = stop;\n"
        let open = OpenGrammar.jsgf(jsgf, otherWords: ["up", "on", "dog"], weight: "1e-9", common: 2, commonWeight: "1e-3")
        #expect(open.contains("<vsh_other> = (/1/ antidisestablishmentarianism | /1e-3/ up | /1e-3/ on | /1e-9/ dog) [<vsh_other_more>];"))
        #expect(open.contains("<vsh_other_more> = /1/ antidisestablishmentarianism | /1e-9/ up | /1e-9/ on | /1e-9/ dog;"))
        #expect(OpenGrammar.jsgf(jsgf, otherWords: ["up", "dog"], weight: "1e-9").contains("/1e-9/ up | /1e-9/ dog;"))
    }

    @Test func aGrammarWithoutPublicRulesIsLeftAsItIs() {
        let jsgf = "#JSGF V1.0;\ngrammar g;\n<a> = go;\n"
        #expect(OpenGrammar.jsgf(jsgf, otherWords: ["dog"]) == jsgf)
    }

    static func features(gap: Double?, other: String? = nil, frames: Int = 40, phones: Int = 2) -> Confidence.Features {
        Confidence.Features(frames: 100, wordFrames: frames, phones: phones, words: 1, runnerUpGap: gap, otherWord: other)
    }

    /// Heard as another word: no command, however clear. A command: surer the farther it
    /// beat the next phrase, and surest when nothing else came close; a tie is asked about.
    @Test func confidenceFollowsTheGapAndOtherWordsAreNone() {
        let model = Confidence.model
        #expect(model.probability(Self.features(gap: 5_000, other: "dog")) == 0)
        let tie = model.probability(Self.features(gap: 0))
        #expect(tie < 0.5 && tie >= 0.29, "a tie is a close call: 'did you mean', not a run")
        #expect(abs(model.probability(Self.features(gap: model.midpoint)) - 0.5) < 1e-9)
        #expect(model.probability(Self.features(gap: 400)) > model.probability(Self.features(gap: 200)))
        #expect(model.probability(Self.features(gap: nil)) == model.probability(Self.features(gap: 1e6)))
        #expect(model.probability(Self.features(gap: nil)) > 0.95)
    }

    /// A "word" a click long or a hum long is no command, however well it beat the rest.
    @Test func implausiblyShortOrLongWordsAreNoCommand() {
        let model = Confidence.model
        #expect(model.probability(Self.features(gap: nil, frames: 6, phones: 2)) == 0)    // 30 ms a phone
        #expect(model.probability(Self.features(gap: nil, frames: 140, phones: 2)) == 0)  // 700 ms a phone
        #expect(model.probability(Self.features(gap: nil, frames: 40, phones: 2)) > 0.95)
        #expect(model.probability(Confidence.Features(frames: 0, wordFrames: 0, phones: 0, words: 0)) == 0)
    }

    /// A sentence heard as "quality low" leaves seconds of its speech outside those words.
    @Test func speechTheWordsDoNotExplainIsNoCommand() {
        let model = Confidence.model
        var sentence = Self.features(gap: nil)
        sentence.speechOutsideWords = 314
        #expect(model.probability(sentence) == 0)
        var command = Self.features(gap: nil)
        command.speechOutsideWords = 120  // breath and room noise around a word
        #expect(model.probability(command) > 0.95)
    }
}
