import Foundation
import Testing
@testable import VshCore
import VshSpoken
import VshTestSupport
@testable import VshVoice
@testable import VshCommands
@testable import VshListening

/// The prompt's decisions about speech, driven with events as the listener thread
/// would post them: no audio, no terminal.
@Suite struct ListeningTests {
    final class FakeListener: Listener {
        var resumed = 0, paused = 0, restarted = 0, refreshed = 0
        func pause() { paused += 1 }
        func resume() { resumed += 1 }
        func restart() { restarted += 1 }
        func refreshGrammar() { refreshed += 1 }
    }

    final class Clock: @unchecked Sendable {
        var now = 100.0
    }

    struct Fixture {
        let voice: VoicePrompt
        let listener = FakeListener()
        let clock = Clock()
        /// The gate each utterance is posted with: the defaults' (`voice.threshold` 0.5,
        /// `voice.reject_below` 0.3), as for the stock model.
        var gate = Gate(threshold: 0.5, rejectBelow: 0.3)

        init(_ change: (inout VoicePrompt.Options) -> Void = { _ in }) {
            var options = VoicePrompt.Options()
            change(&options)
            voice = VoicePrompt(options: options)
            voice.listener = listener
            let clock = self.clock
            voice.clock = { clock.now }
            voice.isDestructive = VoicePrompt.destructive(in: { Builtins.registry() })
            voice.endsSession = VoicePrompt.endsSession(in: { Builtins.registry() })
            voice.post(.ready("file test.wav", wakePhrase: options.wakePhrase))
            _ = voice.takeActions()
        }

        /// The prompt's grammar over the built-in commands, with the fixture's wake phrase.
        var grammar: PromptGrammar {
            try! PromptGrammar(
                registry: Builtins.registry(), wakePhrase: voice.options.wakePhrase, commandsAfterWake: voice.attention == .wake)
        }

        /// Posts an utterance heard as `text` (and, less likely, `alternatives`), as the
        /// listener would, and returns what the prompt does.
        /// `phraseAlone`: asleep, the same audio heard again with the wake phrase alone.
        func hear(_ text: String, _ confidence: Double, alternatives: [String] = [], quietBefore: Double = 10,
                  speakerScore: Double? = nil, shortestWord: Double? = nil, otherWord: String? = nil,
                  speech: (start: Double, end: Double)? = nil, voicing: Double? = nil,
                  phraseAlone: (text: String, confidence: Double)? = nil,
                  afterPhrase: (text: String, confidence: Double)? = nil) -> [PromptAction] {
            var utterance = ListeningTests.utterance(text, confidence, alternatives: alternatives)
            if let phraseAlone {
                utterance.recognition.phraseAlone = [ListeningTests.utterance(phraseAlone.text, phraseAlone.confidence).recognition]
            }
            if let afterPhrase {
                utterance.recognition.afterPhrase = [ListeningTests.utterance(afterPhrase.text, afterPhrase.confidence).recognition]
            }
            utterance.segment.quietBefore = quietBefore
            if let speech {
                utterance.segment.speechStart = speech.start
                utterance.segment.speechEnd = speech.end
            }
            if speakerScore != nil || shortestWord != nil || otherWord != nil || voicing != nil {
                let words = text.split(separator: " ").count
                utterance.recognition.features = Confidence.Features(
                    frames: 80, wordFrames: 40, phones: 3, words: words, otherWord: otherWord, weakestVoicing: voicing ?? 0,
                    speakerScore: speakerScore, shortestWord: shortestWord)
            }
            voice.post(.heard(utterance, grammar, gate))
            return voice.takeActions()
        }
    }

    static func utterance(_ text: String, _ confidence: Double, alternatives: [String] = []) -> Utterance {
        let words = text.split(separator: " ").map { RecognizedWord(word: String($0), start: 0, end: 0, confidence: confidence) }
        let recognition = Recognition(
            words: words, confidence: confidence, alternatives: alternatives.map { $0.split(separator: " ").map(String.init) })
        let segment = Endpointer.Segment(samples: [], start: 0, end: 1, speechEnd: 1, closedAt: 1, snr: 20)
        return Utterance(recognition: recognition, segment: segment, samples: [], latency: 0)
    }

    static func submitted(_ actions: [PromptAction]) -> SpokenLine? {
        guard case .submit(let line, _)? = actions.last else { return nil }
        return line
    }

    static func notes(_ actions: [PromptAction]) -> [String] {
        actions.flatMap { action -> [String] in
            if case .notice(let lines, _) = action { return lines }
            return []
        }
    }

    /// A breath drawn before a command, loud enough to be an utterance of its own, is no
    /// talk: nothing in it is voiced (`Recognition.isVoiceless`). The command's quiet is
    /// counted from the talk before it; after a word with a voice, or talk that ended too
    /// soon before the breath, the command still runs on from talk.
    @Test func aBreathBeforeACommandIsNoTalk() {
        let f = Fixture { $0.quietBefore = 0.7 }
        _ = f.hear("what", 0, otherWord: "what", speech: (10, 10.5))
        _ = f.hear("two", 0, quietBefore: 2.5, speech: (13, 13.3), voicing: 0.64)
        #expect(Self.submitted(f.hear("list", 0.95, quietBefore: 0.2, speech: (13.5, 14)))?.line == "list",
                "3 s after the talk, the breath between")
        _ = f.hear("two", 0, quietBefore: 2, speech: (16, 16.3), voicing: 0.1)
        #expect(Self.submitted(f.hear("list", 0.95, quietBefore: 0.2, speech: (16.5, 17))) == nil)
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .notStandAlone), "a word with a voice is talk")
        _ = f.hear("what", 0, quietBefore: 3, otherWord: "what", speech: (20, 20.5))
        _ = f.hear("two", 0, quietBefore: 0.2, speech: (20.7, 20.8), voicing: 0.64)
        _ = f.hear("", 0, quietBefore: 0.1, speech: (20.9, 21))
        #expect(Self.submitted(f.hear("list", 0.95, quietBefore: 0.1, speech: (21.1, 21.5))) == nil)
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .notStandAlone), "0.6 s after the talk, two sounds between")
        _ = f.hear("", 0, quietBefore: 3, speech: (25, 25.2))
        #expect(Self.submitted(f.hear("list", 0.95, quietBefore: 0.2, speech: (25.4, 26)))?.line == "list",
                "a sound with no word heard in it is no talk either")
    }

    @Test func theMarkFollowsTheListener() {
        let voice = VoicePrompt(options: VoicePrompt.Options())
        #expect(voice.prompt() == "vsh> ", "nothing listening yet: no mark")
        voice.post(.ready("file a.wav", wakePhrase: "listen on"))
        #expect(voice.takeActions() == [.prompt("* vsh> ")])
        voice.post(.speechStarted)
        #expect(voice.takeActions() == [.prompt("@ vsh> ")])
        voice.post(.ended("a.wav ended"))
        #expect(voice.takeActions() == [.notice(["(a.wav ended; no longer listening)"], prompt: "vsh> ")])
    }

    @Test func aConfidentCommandIsEnteredAsIfTyped() throws {
        let f = Fixture()
        let actions = f.hear("set quality high", 0.91)
        let line = try #require(Self.submitted(actions))
        #expect(line.line == "quality high")
        #expect(line.heard == "set quality high")
        #expect(actions.last == .submit(line, mark: "   [spoken 0.91]"))
        #expect(f.listener.resumed == 0, "the listener waits until the command has run")
    }

    @Test func eventsAfterASubmittedCommandWaitForTheNextPrompt() throws {
        let f = Fixture()
        f.voice.post(.heard(Self.utterance("list", 0.9), f.grammar, f.gate))
        f.voice.post(.heard(Self.utterance("help", 0.9), f.grammar, f.gate))
        #expect(Self.submitted(f.voice.takeActions())?.line == "list")
        #expect(Self.submitted(f.voice.takeActions())?.line == "help")
    }

    @Test func unsureSpeechAsksAndANumberChooses() throws {
        let f = Fixture()
        let asked = f.hear("save", 0.4, alternatives: ["play two", "list"])
        #expect(Self.notes(asked) == ["did you mean 1) save  2) play 2  3) list? say or type the number, or no"])
        #expect(f.voice.prompt() == "? vsh> ")
        #expect(f.listener.resumed == 1, "the listener goes on to hear the answer")
        let chosen = try #require(Self.submitted(f.hear("two", 0.6)))
        #expect(chosen.line == "play 2")
        #expect(chosen.confidence == 0.4)
        #expect(chosen.settled == "chosen 2")
        #expect(f.voice.prompt() == "* vsh> ")
    }

    @Test func aTypedNumberAnswersToo() {
        let f = Fixture()
        _ = f.hear("save", 0.4, alternatives: ["play two"])
        #expect(f.voice.answer(typed: "7") == .handled(["say or type a number from 1 to 2, or no"]))
        guard case .run(let line) = f.voice.answer(typed: "1") else {
            Issue.record("no command chosen")
            return
        }
        #expect(line.line == "save")
        #expect(f.voice.answer(typed: "1") == .notAnAnswer, "the question is settled")
    }

    @Test func aTypedCommandDropsTheQuestion() {
        let f = Fixture()
        _ = f.hear("save", 0.4)
        #expect(f.voice.answer(typed: "quality") == .notAnAnswer)
        #expect(f.voice.prompt() == "* vsh> ")
    }

    @Test func anUnansweredQuestionLapses() {
        let f = Fixture { $0.answerSeconds = 5 }
        _ = f.hear("save", 0.4, alternatives: ["play two"])
        f.clock.now += 6
        #expect(f.voice.takeActions() == [.notice(["(no answer: 'save' or 'play 2' not run)"], prompt: "* vsh> ")])
    }

    /// Talk runs on after short pauses; a command is said after a silence. Answers and the
    /// first command after a line ran need none: vsh was spoken to.
    @Test func aCommandRunningOnFromTalkIsTalk() throws {
        let f = Fixture { $0.quietBefore = 0.5 }
        #expect(Self.notes(f.hear("list", 0.95, quietBefore: 0.3)) == ["(not run: \"list\" ran on from other speech; pause before a command)"])
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .notStandAlone))
        #expect(f.hear("save", 0.4, alternatives: ["play two"], quietBefore: 0.3) == [], "nor asks")
        #expect(Self.submitted(f.hear("list", 0.95, quietBefore: 0.6))?.line == "list")
        f.voice.promptIsBusy()  // the line ran; the listener missed the quiet meanwhile
        #expect(Self.submitted(f.hear("help", 0.95, quietBefore: 0.1))?.line == "help")
        #expect(f.hear("help", 0.95, quietBefore: 0.1) == [], "only the first utterance after it")
        _ = f.hear("delete two", 0.9, quietBefore: 2)
        #expect(Self.submitted(f.hear("yes", 0.9, quietBefore: 0.2))?.line == "delete 2", "an answer needs no pause")
    }

    /// Attention `wake`: asleep, only the wake phrase counts, sure and said on its own; it
    /// opens a few seconds for commands, which each command extends.
    @Test func wakeAttentionTakesCommandsAfterTheWakePhrase() throws {
        let f = Fixture {
            $0.attention = .wake
            $0.wakePhrase = "hey computer"
            $0.quietBefore = 0.5
        }
        #expect(f.voice.prompt() == "- vsh> ", "asleep shows as off")
        #expect(f.hear("list", 0.99) == [])
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .asleep))
        #expect(f.hear("hey computer", 0.7) == [], "the wake phrase needs the strictest confidence")
        #expect(f.hear("hey computer", 0.95, quietBefore: 0.2) == [], "and to be said on its own")
        #expect(Self.notes(f.hear("hey computer", 0.95)) == ["(listening for a command)"])
        #expect(f.voice.prompt() == "* vsh> ")
        #expect(Self.submitted(f.hear("list", 0.9, quietBefore: 0.2))?.line == "list", "spoken to: no pause needed")
        f.clock.now += 5
        #expect(Self.submitted(f.hear("help", 0.9, quietBefore: 0.2))?.line == "help", "each command keeps it awake")
        f.clock.now += 7
        #expect(f.hear("help", 0.99) == [.prompt("- vsh> ")], "asleep again: the mark says so, and nothing runs")
        // In one breath.
        let ran = try #require(Self.submitted(f.hear("hey computer set quality high", 0.95)))
        #expect(ran.line == "quality high")
    }

    /// The default wake phrase, "listen on", is also the command that turns listening on:
    /// in attention `wake` it wakes vsh (it was heard as the command, and ignored as
    /// asleep), alone or with a command after it; awake, it keeps vsh awake and runs
    /// nothing else.
    @Test func theDefaultWakePhraseWakes() throws {
        let f = Fixture { $0.attention = .wake }
        #expect(f.voice.options.wakePhrase == "listen on")
        #expect(f.hear("list", 0.99) == [])
        #expect(Self.notes(f.hear("listen on", 0.99)) == ["(listening for a command)"])
        #expect(f.voice.lastVerdict == Verdict(.wake))
        #expect(Self.submitted(f.hear("list", 0.9, quietBefore: 0.2))?.line == "list")
        #expect(f.hear("listen on", 0.99) == [], "awake, the phrase keeps it awake and runs nothing")
        #expect(f.voice.lastVerdict == Verdict(.wake))
        f.clock.now += 10
        #expect(Self.submitted(f.hear("listen on list", 0.95))?.line == "list", "in one breath")
        // With listening off, the same phrase turns it back on.
        _ = try f.voice.setListening(false)
        _ = f.voice.takeActions()
        #expect(Self.notes(f.hear("listen on", 0.99)) == ["(listening again)"])
    }

    /// Asleep, words heard as the wake phrase with a command after it that was not there
    /// ("alexa back", the breath after the phrase heard as a command) wake vsh, and run
    /// nothing, when the same audio heard again with the phrase alone is the phrase, sure
    /// (`WakePhraseAgain`), unless the audio after the phrase, heard on its own, is the
    /// command, sure. The command after it runs from a sure first hearing when the second
    /// heard more than the phrase. The listener thread reads whether vsh sleeps
    /// (`awaitsWakePhrase`).
    @Test func theWakePhraseHeardAgainAloneWakes() {
        let f = Fixture {
            $0.attention = .wake
            $0.wakePhrase = "hey computer"
        }
        #expect(f.voice.awaitsWakePhrase())
        #expect(f.hear("hey computer list", 0.2, phraseAlone: ("hey computer", 0.6)) == [], "not sure enough")
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .asleep))
        #expect(f.hear("hey computer list", 0.2, phraseAlone: ("what", 0)) == [], "other words")
        #expect(Self.notes(f.hear("hey computer list", 0.2, phraseAlone: ("hey computer", 0.99))) == ["(listening for a command)"])
        #expect(f.voice.lastVerdict == Verdict(.wake))
        #expect(!f.voice.awaitsWakePhrase())
        #expect(f.voice.awaitsWakePhrase(at: f.clock.now + f.voice.options.awakeSeconds), "asleep again when the time is up")
        #expect(Self.submitted(f.hear("list", 0.9, quietBefore: 0.2))?.line == "list")
        f.clock.now += 10
        #expect(Self.submitted(f.hear("hey computer list", 0.95, phraseAlone: ("what's", 0)))?.line == "list",
                "said in the same breath: heard alone, the phrase was other words")
        f.clock.now += 10
        #expect(Self.notes(f.hear("hey computer list", 0.95, phraseAlone: ("hey computer", 0.99))) == ["(listening for a command)"],
                "the second hearing found nothing after the phrase: breath heard as a command runs nothing")
        #expect(f.voice.lastVerdict == Verdict(.wake))
        f.clock.now += 10
        #expect(Self.notes(f.hear("hey computer list", 0.95, phraseAlone: ("hey computer", 0.99), afterPhrase: ("list", 0.4)))
                == ["(listening for a command)"], "after the phrase, on its own, it was not heard surely: breath")
        f.clock.now += 10
        #expect(Self.submitted(f.hear("hey computer list", 0.95, phraseAlone: ("hey computer", 0.99), afterPhrase: ("list", 0.9)))?
                    .line == "list", "said after a pause: heard on its own, the command is there")
        #expect(!f.voice.awaitsWakePhrase(), "awake after it")
        f.clock.now += 10
        _ = try? f.voice.setListening(false)
        _ = f.voice.takeActions()
        #expect(!f.voice.awaitsWakePhrase(), "listening off: only the phrase that turns it on")
    }

    /// After `train`: speech that sounds less like the person than the calibrated score
    /// runs nothing, be it a command, an answer or the wake phrase; the person's own runs.
    @Test func otherPeoplesSpeechRunsNothingAfterTrain() throws {
        var f = Fixture()
        f.gate = Gate(threshold: 0.5, rejectBelow: 0.3, calibration: Gate.Calibration(speaker: 0.2))
        #expect(Self.submitted(f.hear("list", 0.99, speakerScore: 0.1)) == nil)
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .otherSpeaker))
        #expect(Self.submitted(f.hear("list", 0.99, speakerScore: 0.3))?.line == "list")
        // Someone else cannot answer the person's question.
        #expect(Self.notes(f.hear("delete two", 0.9, speakerScore: 0.5))
                    == ["'delete 2' cannot be taken back without undo; run it? say or type yes or no"])
        #expect(f.hear("yes", 0.95, speakerScore: -0.4) == [])
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .otherSpeaker))
        #expect(Self.submitted(f.hear("yes", 0.95, speakerScore: 0.6))?.line == "delete 2")
        // Nor turn listening back on.
        _ = try f.voice.setListening(false)
        _ = f.voice.takeActions()
        #expect(f.hear("listen on", 0.99, speakerScore: 0) == [])
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .otherSpeaker))
        #expect(Self.notes(f.hear("listen on", 0.99, speakerScore: 0.25)) == ["(listening again)"])
        // No adapted model (or the check off): no check.
        f.gate = Gate(threshold: 0.5, rejectBelow: 0.3)
        #expect(Self.submitted(f.hear("list", 0.99, speakerScore: -3))?.line == "list")
    }

    /// One-word talk heard as a command with a slot: "five" alone heard as "play five"
    /// gives "play" the least time a word can have, and runs nothing; said in full it runs.
    @Test func aWordTheSpeakerDidNotSayRunsNothing() throws {
        let f = Fixture()
        #expect(Self.submitted(f.hear("play five", 1, shortestWord: 3)) == nil)
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .unclearWord))
        #expect(Self.submitted(f.hear("play five", 1, shortestWord: 6))?.line == "play 5")
        // A one-word command is judged by its length as a whole (the confidence), not here.
        #expect(Self.submitted(f.hear("list", 1, shortestWord: 3))?.line == "list")
    }

    /// Attention `key` (push to talk): one command after the key, none without it.
    @Test func keyAttentionTakesOneCommandAfterTheKey() throws {
        let f = Fixture { $0.attention = .key }
        #expect(f.hear("list", 0.99) == [])
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .asleep))
        #expect(f.hear("listen on", 0.99) == [], "the wake phrase does not wake it: the key does")
        f.voice.talkKey()
        #expect(f.voice.takeActions() == [.prompt("* vsh> ")])
        #expect(Self.submitted(f.hear("list", 0.9, quietBefore: 0.1))?.line == "list")
        #expect(f.hear("help", 0.99) == [], "one command")
        f.voice.talkKey()
        f.clock.now += 7
        #expect(f.hear("help", 0.99) == [], "the key's moment passed")
    }

    @Test func attentionChangesForTheSession() {
        let f = Fixture()
        #expect(f.voice.setAttention(.key).contains("Ctrl-T"))
        #expect(f.voice.status.contains("Ctrl-T"))
        #expect(f.voice.promptWaits(prompt: "vsh> ") == "- vsh> ", "the next prompt shows it asleep")
        #expect(f.hear("list", 0.99) == [])
        _ = f.voice.setAttention(.always)
        #expect(Self.submitted(f.hear("list", 0.99))?.line == "list")
    }

    @Test func aWakePhraseOfOneSyllableOrUnknownWordsIsRefusedWithABetterOne() {
        let dictionary = PronunciationDictionary(entries: [
            "go": ["G OW"], "hey": ["HH EY"], "computer": ["K AH M P Y UW T ER"], "listen": ["L IH S AH N"], "on": ["AA N"],
        ])
        #expect(PromptGrammar.wakePhraseProblem("hey computer", dictionary: dictionary) == nil)
        #expect(PromptGrammar.wakePhraseProblem("listen on", dictionary: dictionary) == nil)
        #expect(PromptGrammar.wakePhraseProblem("go", dictionary: dictionary)?.contains("one syllable") == true)
        let unknown = PromptGrammar.wakePhraseProblem("hey zorblax", dictionary: dictionary) ?? ""
        #expect(unknown.contains("'zorblax'") && unknown.contains("hey computer"), "\(unknown)")
        #expect(PromptGrammar.wakePhraseProblem("hey (", dictionary: dictionary) != nil)
    }

    @Test func doubtfulSpeechIsIgnored() {
        let f = Fixture()
        #expect(f.hear("reload", 0.1) == [])
        let verbose = Fixture { $0.verbose = true }
        #expect(Self.notes(verbose.hear("reload", 0.1)) == ["(ignored \"reload\", confidence 0.10, confidence)"])
        #expect(Self.notes(verbose.hear("", 0)) == ["(ignored a sound with no words, confidence 0.00, no-command)"],
                "a click or a breath, not an empty quotation")
        #expect(Self.notes(verbose.hear("up", 0, otherWord: "up")) == ["(ignored \"up\", confidence 0.00: an everyday word, no command)"],
                "heard as one of the everyday words the commands compete with, not as a doubtful command")
    }

    /// A number heard on its own is no command: it runs nothing, and the verdict (what
    /// `listen --json` reports) and `--verbose` say which word before it would have made
    /// one. Other words that no one word completes say only that they are no command.
    @Test func aSlotWithoutItsCarrierNamesTheMissingWord() {
        let verbose = Fixture { $0.verbose = true }
        #expect(Self.submitted(verbose.hear("five", 0.99)) == nil)
        #expect(verbose.voice.lastVerdict == Verdict(.ignore, stoppedBy: .noCommand, missingWord: ["delete", "play", "replay", "show"]))
        #expect(Self.notes(verbose.hear("five", 0.99)) == [
            "(ignored \"five\", confidence 0.99, no-command; said without the word before it, as in \"delete five\", \"play five\" or \"replay five\")"])
        // Heard as the lone word itself with `play five` among the runners-up (flite rms
        // "five"): the confidence stops it, and it still names the missing word, the
        // runners-up's first.
        #expect(Self.notes(verbose.hear("five", 0, alternatives: ["play five", "show five"], otherWord: "five")) == [
            "(ignored \"five\", confidence 0.00, confidence; said without the word before it, as in \"play five\", \"show five\" or \"delete five\")"])
        #expect(verbose.voice.lastVerdict == Verdict(.ignore, stoppedBy: .confidence, missingWord: ["play", "show", "delete", "replay"]),
                "the runners-up's first")
        #expect(Self.notes(verbose.hear("play five", 0.1)) == ["(ignored \"play five\", confidence 0.10, confidence)"],
                "a command heard doubtfully lacks nothing")
        #expect(verbose.voice.lastVerdict?.missingWord == [])
        #expect(Self.notes(verbose.hear("thanks", 0.99)) == ["(ignored \"thanks\", confidence 0.99, no-command)"])
        #expect(verbose.voice.lastVerdict?.missingWord == [])
        let quiet = Fixture()
        #expect(quiet.hear("five", 0.99) == [], "without --verbose a lone number says nothing")
        #expect(Self.submitted(quiet.hear("play five", 0.99))?.line == "play 5")
    }

    /// A carrier heard on its own ("quality", the lone words of `OtherWords`) is no command
    /// either: the verdict and `--verbose` say what would have followed it, the runners-up's
    /// first, then in the order the forms write them, not that it is an everyday word.
    @Test func aCarrierWithoutItsSlotNamesWhatFollows() {
        let verbose = Fixture { $0.verbose = true }
        #expect(Self.submitted(verbose.hear("quality", 0, otherWord: "quality")) == nil)
        #expect(verbose.voice.lastVerdict == Verdict(.ignore, stoppedBy: .noCommand, missingNextWord: ["low", "medium", "high"]))
        // With `quality high` among the runners-up the confidence stops it (as with "five").
        #expect(Self.notes(verbose.hear("quality", 0, alternatives: ["quality high"], otherWord: "quality")) == [
            "(ignored \"quality\", confidence 0.00, confidence; said without what follows it, as in \"quality high\", \"quality low\" or \"quality medium\")"])
        #expect(verbose.voice.lastVerdict?.missingNextWord == ["high", "low", "medium"], "the runners-up's first")
        #expect(verbose.voice.lastVerdict?.missingWord == [])
        #expect(Self.notes(verbose.hear("play", 0, otherWord: "play")) == [
            "(ignored \"play\", confidence 0.00, no-command; said without what follows it, as in \"play zero\", \"play one\" or \"play two\")"])
        #expect(Self.notes(verbose.hear("up", 0, otherWord: "up")) == ["(ignored \"up\", confidence 0.00: an everyday word, no command)"],
                "a word that begins no command lacks nothing")
        #expect(verbose.voice.lastVerdict?.missingNextWord == [])
    }

    /// A command the person may have meant and vsh did not take says so, briefly: one dim
    /// line at most every `unheardNoteSeconds`, none for talk heard faintly as a command
    /// or for other words, so silence is not mistaken for a broken microphone and talk
    /// does not fill the screen.
    @Test func aCommandNotTakenSaysWhyNowAndThen() {
        var f = Fixture()
        f.gate = Gate(threshold: 0.5, rejectBelow: 0.3, calibration: Gate.Calibration(speaker: 0.2))
        #expect(Self.notes(f.hear("list", 0.99, speakerScore: 0.1))
                == ["(not run: \"list\" sounded like another voice than yours; 'train status' says more)"])
        #expect(f.hear("help", 0.99, speakerScore: 0.1) == [], "not again so soon")
        f.clock.now += VoicePrompt.unheardNoteSeconds
        #expect(f.hear("reload", 0.1) == [], "talk heard faintly as a command says nothing")
        #expect(f.hear("dog", 0.9) == [], "nor do other words")
        #expect(f.hear("yes", 0.4) == [], "nor an answer with no question")
        #expect(Self.notes(f.hear("play five", 1, shortestWord: 3)) == ["(not run: \"play five\" was not clearly said word for word)"])
        #expect(f.voice.lastVerdict == Verdict(.ignore, stoppedBy: .unclearWord))
    }

    @Test func aSpokenDeleteAsksFirst() throws {
        let f = Fixture()
        let asked = f.hear("delete two", 0.8)
        #expect(Self.notes(asked) == ["'delete 2' cannot be taken back without undo; run it? say or type yes or no"])
        #expect(Self.submitted(asked) == nil)
        let ran = try #require(Self.submitted(f.hear("yes", 0.7)))
        #expect(ran.line == "delete 2")
        #expect(ran.settled == "confirmed")

        _ = f.hear("delete two", 0.8)
        #expect(Self.notes(f.hear("no", 0.7)) == ["(not run: 'delete 2')"])
        #expect(f.voice.prompt() == "* vsh> ")
    }

    /// A word misheard as "exit" must not end vsh: leaving asks first, even with the
    /// confirmation of destructive commands switched off.
    @Test func aSpokenExitAsksFirst() throws {
        for f in [Fixture(), Fixture { $0.confirmDestructive = false }] {
            let asked = f.hear("exit", 1.0)
            #expect(Self.submitted(asked) == nil)
            #expect(Self.notes(asked) == ["'exit' ends vsh; leave? say or type yes or no"])
            #expect(Self.notes(f.hear("no", 0.9)) == ["(not run: 'exit')"])
            _ = f.hear("exit", 1.0)
            let left = try #require(Self.submitted(f.hear("yes", 0.9)))
            #expect(left.line == "exit")
        }
    }

    @Test func confirmationCanBeSwitchedOff() {
        let f = Fixture { $0.confirmDestructive = false }
        #expect(Self.submitted(f.hear("delete two", 0.8))?.line == "delete 2")
    }

    @Test func trashEmptyIsDestructive() {
        let check = VoicePrompt.destructive(in: { Builtins.registry() })
        #expect(check(VoiceCandidate(command: "trash", line: "trash empty --yes")))
        #expect(!check(VoiceCandidate(command: "trash", line: "trash")))
        #expect(!check(VoiceCandidate(command: "trash", line: "trash empty")), "it removes nothing without --yes")
        #expect(check(VoiceCandidate(command: "delete", line: "delete 1")))
        #expect(!check(VoiceCandidate(command: "list", line: "list")))
    }

    /// Said, "trash empty" (or "empty the trash") is heard as itself, not as `trash` with a
    /// word left over, and runs `trash empty` at once: that removes nothing, and says what
    /// `trash empty --yes`, typed, would remove for good (issue 28, item 15).
    @Test func trashEmptySaidRunsTrashEmptyWhichRemovesNothing() throws {
        let f = Fixture()
        #expect(f.grammar.meaning(of: ["trash", "empty"]) == .command(VoiceCandidate(command: "trash", line: "trash empty")))
        #expect(f.grammar.meaning(of: ["empty", "the", "trash"]) == .command(VoiceCandidate(command: "trash", line: "trash empty")))
        #expect(f.grammar.ending(of: ["trash"]) == .canGrow, "'trash' may become 'trash empty', so it does not end early")
        #expect(Self.submitted(f.hear("trash empty", 0.9))?.line == "trash empty", "no question about what removes nothing")
        let harness = ShellHarness()
        #expect(harness.script(["trash empty"]) == 0, "an empty trash: \(harness.error.text)")
        #expect(harness.output.text == "The trash is already empty.\n")
    }

    @Test func offOnlyTheWakePhraseCounts() throws {
        let f = Fixture()
        #expect(try f.voice.setListening(false).hasPrefix("listening off"))
        #expect(f.voice.promptWaits(prompt: "vsh> ") == "- vsh> ")
        #expect(f.hear("list", 0.99) == [], "heard, and ignored")
        #expect(Self.notes(f.hear("listen on", 0.95)) == ["(listening again)"])
        #expect(Self.submitted(f.hear("list", 0.99))?.line == "list")
    }

    @Test func aConfiguredWakePhrase() {
        let f = Fixture { $0.wakePhrase = "hello computer" }
        _ = try? f.voice.setListening(false)
        #expect(Self.notes(f.hear("listen on", 0.95)) == [])
        #expect(Self.notes(f.hear("hello computer", 0.95)) == ["(listening again)"])
    }

    /// A command that cannot apply now is heard as itself and answered, not run as the
    /// nearest one that can ("undo" with nothing to undo ran `play 2`, issue 35); nor is it
    /// a choice in "did you mean".
    @Test func aCommandThatCannotApplyNowSaysWhyAndRunsNothing() throws {
        let f = Fixture()
        let session = ShellHarness().session
        f.voice.unavailable = VoicePrompt.unavailable(in: session)
        let actions = f.hear("undo", 0.9)
        #expect(Self.submitted(actions) == nil)
        #expect(Self.notes(actions) == ["(heard \"undo\": there is nothing to undo)"])
        #expect(f.voice.lastVerdict == Verdict(.ignore, line: "undo", stoppedBy: .doesNotApply))
        let asked = f.hear("save", 0.4, alternatives: ["play two", "list"])
        #expect(Self.notes(asked) == ["did you mean 1) play 2  2) list? say or type the number, or no"])
        let alone = f.hear("save", 0.4)
        #expect(Self.submitted(alone) == nil && Self.notes(alone).isEmpty)
        #expect(f.voice.lastVerdict?.stoppedBy == .doesNotApply, "unsure, it says nothing")
    }

    @Test func anAnswerWithNoQuestionRunsNothing() {
        let f = Fixture()
        #expect(Self.notes(f.hear("yes", 0.9))
                == ["(heard \"yes\": there is no question to answer)"])
    }

    @Test func listeningWithoutAnInputSaysWhy() throws {
        let voice = VoicePrompt(options: VoicePrompt.Options())
        #expect(throws: CommandError.self) { try voice.setListening(true) }
        voice.post(.failed("cannot open 'default'", quiet: true))
        #expect(voice.takeActions() == [], "a missing default device is not announced")
        #expect(voice.status == "not listening: cannot open 'default'")
        let listener = FakeListener()
        voice.listener = listener
        #expect(try voice.setListening(true).hasPrefix("trying the audio input again"))
        #expect(listener.restarted == 1)
    }

    @Test(arguments: [
        ("1", PromptAnswer.number(1)), ("two", .number(2)), ("answer three", .number(3)), ("number one", .number(1)),
        ("y", .yes), ("Yes", .yes), ("answer no", .no), ("n", .no),
    ])
    func answers(_ text: String, _ answer: PromptAnswer) {
        #expect(PromptAnswer(text) == answer)
    }

    @Test(arguments: ["", "0", "quality", "yes please", "10"])
    func notAnswers(_ text: String) {
        #expect(PromptAnswer(text) == nil)
    }

    @Test func marksFollowTheLocale() {
        #expect(PromptMarks.detect(environment: ["LANG": "en_US.UTF-8"]) == .unicode)
        #expect(PromptMarks.detect(environment: ["LC_ALL": "C", "LANG": "en_US.UTF-8"]) == .ascii)
        #expect(PromptMarks.detect(environment: [:]) == .ascii)
    }

    @Test func theGrammarHearsAnswersAndTheWakePhrase() throws {
        let grammar = try PromptGrammar(registry: Builtins.registry(), wakePhrase: "hello computer")
        #expect(grammar.meaning(of: ["number", "two"]) == .answer(.number(2), line: "answer two"))
        #expect(grammar.meaning(of: ["yes"]) == .answer(.yes, line: "answer yes"))
        #expect(grammar.meaning(of: ["hello", "computer"]) == .wake(line: "listen on"))
        #expect(grammar.meaning(of: ["listen", "off"]) == .command(VoiceCandidate(command: "listen", line: "listen off")))
        #expect(grammar.meaning(of: ["hello"]) == nil)
        #expect(grammar.weighsCommonWords, "vsh's commands: the likeliest everyday words weigh more")
        let afterWake = try PromptGrammar(registry: Builtins.registry(), wakePhrase: "hello computer", commandsAfterWake: true)
        #expect(try #require(afterWake.phraseAlone).weighsCommonWords == false, "the phrase alone is heard as before")
        // One grammar for the recogniser: the commands', then the answers' and the wake
        // phrase's forms, as the listener was given before answers had a type of their own.
        let commands = VoiceGrammar(registry: Builtins.registry())
        #expect(grammar.jsgf.hasPrefix(String(commands.jsgf.prefix(while: { $0 != "|" }))))
        #expect(grammar.vocabulary.isSuperset(of: commands.vocabulary.union(["yes", "no", "hello", "computer"])))
        #expect(throws: SpokenPattern.ParseError.self) { try PromptGrammar(registry: Builtins.registry(), wakePhrase: "hello (") }
    }

    /// A command file cannot take the place of an answer: a command named "answer" is a
    /// command, and "yes" is still the answer.
    @Test func answersAreNotCommands() throws {
        var registry = Builtins.registry()
        try registry.register(CommandEntry(
            info: CommandInfo(name: "answer", summary: "a user's command", spokenForms: [SpokenForm("answer me", runs: "answer")]),
            usage: "answer", helpText: { "" }, parse: { _ in .failure("test") }))
        let grammar = try PromptGrammar(registry: registry, wakePhrase: nil)
        #expect(grammar.meaning(of: ["yes"]) == .answer(.yes, line: "answer yes"))
        #expect(grammar.meaning(of: ["answer", "me"]) == .command(VoiceCandidate(command: "answer", line: "answer")))
    }
}

@Suite struct SpokenHistoryTests {
    @Test func clipsAreKeptUpToTheLimit() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let clips = ClipStore(directory: dir.file("clips"), limit: 2)
        var saved: [String] = []
        for i in 0..<3 {
            saved.append(try #require(clips.save([1, 2, 3], at: Date(timeIntervalSince1970: 1_800_000_000 + Double(i)))))
        }
        #expect(saved[0].hasSuffix("/20270115-080000-000.wav"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("clips")).sorted()
                == ["20270115-080001-000.wav", "20270115-080002-000.wav"])
        let data = try Data(contentsOf: URL(fileURLWithPath: saved[2]))
        #expect(data.count == 44 + 6)
        #expect(data.prefix(4) == Data("RIFF".utf8))
        #expect(ClipStore(directory: dir.file("none"), limit: 0).save([1]) == nil)
    }

    @Test func historyKeepsTheClipBesideASpokenLine() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        let history = CommandHistory(path: dir.file("history"), limit: 10)
        history.append(HistoryEntry(time: when, source: .spoken, confidence: 0.9, line: "list", clip: "/c/1.wav"))
        history.append(HistoryEntry(time: when, source: .typed, line: "help"))
        #expect(dir.read("history") == "2027-01-15T08:00:00Z\tspoken\t0.90\tlist\t/c/1.wav\n2027-01-15T08:00:00Z\ttyped\t-\thelp\n")
        let again = CommandHistory(path: dir.file("history"), limit: 10)
        #expect(again.entries.map(\.clip) == ["/c/1.wav", nil])
        #expect(again.skippedLines == 0)
    }

    @Test func aSpokenLineRunsAndIsRecordedAsSpoken() {
        let harness = ShellHarness()
        let spoken = SpokenLine(line: "quality low", heard: "quality low", confidence: 0.83, clip: "/c/2.wav")
        _ = harness.shell.runInteractive(reader: ScriptedLineReader([.spoken(spoken), .line("quality")]))
        #expect(harness.output.text == "quality: low (8 kHz, 16-bit mono)\nlow\n\n")
        let entries = harness.session.history.entries
        #expect(entries.map(\.source) == [.spoken, .typed])
        #expect(entries.first?.confidence == 0.83)
        #expect(entries.first?.clip == "/c/2.wav")
    }

    @Test func historyShowsReplaysAndExports() throws {
        let harness = ShellHarness()
        let file = harness.directory.file("session.vsh")
        let spoken = SpokenLine(line: "quality low", heard: "quality low", confidence: 0.83)
        let reader = ScriptedLineReader([
            .spoken(spoken), .line("quality high"), .line("history replay 1"), .line("quality"),
            .line("history replay 3"), .line("history export \(file)"), .line("history"),
        ])
        _ = harness.shell.runInteractive(reader: reader)
        #expect(harness.error.text == "error: history: entry 3 is 'history replay 1' itself; replay runs other commands\n")
        #expect(harness.output.text.contains("quality: high (48 kHz, 16-bit mono)\n→ quality low\nquality: low (8 kHz, 16-bit mono)\nlow\n"))
        #expect(harness.output.text.contains("wrote 3 command(s) to \(file)\n"))
        #expect(harness.output.text.contains("1  spoken 0.83 quality low\n2  typed       quality high\n"))
        let script = try #require(harness.directory.read("session.vsh"))
        #expect(script.hasSuffix("# spoken 0.83\nquality low\nquality high\nquality\n"), "\(script)")
        // The export runs as a script.
        let again = ShellHarness()
        #expect(again.script(script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)) == 0)
        #expect(again.output.text == "high\n")
    }

    /// An export into a directory that does not exist creates nothing and says so.
    @Test func historyExportNeverCreatesDirectories() {
        let harness = ShellHarness()
        let missing = harness.directory.file("no/such/dir")
        #expect(harness.script(["quality", "history export \(missing)/x.vsh"]) == 1)
        #expect(harness.error.text == "line 2: error: history: cannot write \(missing)/x.vsh: the directory \(missing) does not exist; create it first or choose another place\n")
        #expect(!FileManager.default.fileExists(atPath: harness.directory.file("no")))
    }

    /// After a quiet failure (no default microphone), 'listen on' tries again and says
    /// how that went, either way.
    @Test func listenOnSaysWhetherTheRetryWorked() throws {
        let f = ListeningTests.Fixture()
        f.voice.post(.failed("cannot open audio capture device 'default'", quiet: true))
        #expect(ListeningTests.notes(f.voice.takeActions()) == [])
        #expect(try f.voice.setListening(true).hasPrefix("trying the audio input again"))
        #expect(f.listener.restarted == 1)
        f.voice.post(.failed("cannot open audio capture device 'default'", quiet: true))
        #expect(ListeningTests.notes(f.voice.takeActions()) == ["warning: not listening: cannot open audio capture device 'default'"])
        #expect(try f.voice.setListening(true).hasPrefix("trying the audio input again"))
        f.voice.post(.ready("microphone default", wakePhrase: "listen on"))
        #expect(ListeningTests.notes(f.voice.takeActions()) == ["(listening to microphone default)"])
    }

    @Test func listenWithoutAListenerSaysWhy() {
        let harness = ShellHarness()
        #expect(harness.script(["listen"]) == 0)
        #expect(harness.output.text.hasPrefix("not listening: vsh listens only at an interactive prompt"))
        #expect(harness.script(["listen on"]) == 1)
        #expect(harness.error.text.contains("vsh listens only at an interactive prompt with an audio input"))
    }
}
