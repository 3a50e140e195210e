import Testing
@testable import VshCore
@testable import VshVoice
@testable import VshCommands
import VshSpoken
import VshTestSupport

/// The early-end rule: a whole command that cannot grow ends after a short pause; one
/// that can grow ("stop" → "stop recording") waits for the full hangover.
@Suite struct EarlyEndTests {
    @Test(arguments: [
        ("stop recording", "stop", true),
        ("stop recording", "stop recording", false),
        ("save [recording]", "save", true),
        ("save [recording]", "save recording", false),
        ("quality (low | medium | high)", "quality", true),
        ("quality (low | medium | high)", "quality high", false),
        ("[set] quality (low | high)", "set", true),
        ("delete [transcript] [number] <number>", "delete", true),
        ("delete [transcript] [number] <number>", "delete five", false),
        ("delete [transcript] [number] <number>", "delete twenty", true),   // twenty one
        ("delete [transcript] [number] <number>", "delete twenty one", false),
        ("delete [transcript] [number] <number>", "delete fifteen", false),
        ("code <digit>", "code seven", false),
        ("count <digits>", "count four", true),
        ("count <digits>", "count four five six", true),
        ("help", "help", false),
        ("help", "undo", false),
        ("help", "help me", false),
        ("list [transcripts] [from] (today | yesterday)", "list transcripts", true),
    ])
    func patternCanGrow(_ pattern: String, _ said: String, _ grows: Bool) throws {
        let words = said.split(separator: " ").map(String.init)
        #expect(try SpokenPattern.parse(pattern).canGrow(after: words) == grows)
    }

    /// Over vsh's own commands: final is "a whole command, and no form grows from it".
    @Test(arguments: [
        ("help", true),
        ("undo", true),
        ("quality high", true),
        ("set quality low", true),
        ("save", false),                 // save recording
        ("save recording", true),
        ("stop", false),                 // stop recording
        ("stop recording", true),
        ("list", false),                 // list transcripts, list today
        ("list transcripts today", true),
        ("delete seven", true),
        ("delete twenty", false),        // delete twenty one
        ("quality", false),              // not a whole command
        ("record(2)", true),             // a variant is the word itself
        ("<sil> help [noise]", true),
        ("", false),
    ])
    func grammarIsFinal(_ said: String, _ final: Bool) {
        let grammar = VoiceGrammar(registry: Builtins.registry())
        #expect((grammar.ending(of: said.split(separator: " ").map(String.init)) == .final) == final)
    }

    /// A whole command that can grow is told from words that are no command at all.
    @Test func grammarSaysWhichWholeCommandsCanGrow() {
        let grammar = VoiceGrammar(registry: Builtins.registry())
        #expect(grammar.ending(of: ["stop"]) == .canGrow)
        #expect(grammar.ending(of: ["list"]) == .canGrow)
        #expect(grammar.ending(of: ["stop", "recording"]) == .final)
        #expect(grammar.ending(of: ["quality"]) == nil)
        #expect(grammar.ending(of: []) == nil)
    }

    static func early(pause: Int = 120) -> EarlyEnd {
        let grammar = VoiceGrammar(registry: Builtins.registry())
        return EarlyEnd(pause: pause, minimumConfidence: 0.5, minimumGap: 500, minimumSilence: 0.15, ending: grammar.ending(of:))
    }

    /// Words ending at `end` seconds.
    static func recognition(_ said: String, _ confidence: Double, gap: Double? = nil, end: Double = 0.5) -> Recognition {
        Recognition(
            words: said.split(separator: " ").map { RecognizedWord(word: String($0), start: 0, end: end, confidence: confidence) },
            confidence: confidence,
            features: gap.map {
                Confidence.Features(frames: 100, wordFrames: 50, phones: 5, runnerUpGap: $0)
            })
    }

    @Test func endsOnlyASureFinalCommand() {
        let early = Self.early()
        // Audio to 1.0 s; the words end at 0.5 s unless said otherwise.
        #expect(early.answer(Self.recognition("help", 0.9), audioEnd: 1) == .end)
        #expect(early.answer(Self.recognition("help", 0.9, gap: 800), audioEnd: 1) == .end)
        #expect(early.answer(Self.recognition("help", 0.9, gap: 200), audioEnd: 1) == .wait)  // the runner-up is close
        #expect(early.answer(Self.recognition("help", 0.4), audioEnd: 1) == .wait)            // not sure
        #expect(early.answer(Self.recognition("", 0.95), audioEnd: 1) == .wait)
        #expect(early.answer(Self.recognition("quality", 0.95), audioEnd: 1) == .wait)        // no whole command
        // The decoder stretched the word into the pause: a dip inside a word, not its end.
        #expect(early.answer(Self.recognition("help", 0.9, end: 0.9), audioEnd: 1) == .wait)
        // A breath before a word, heard alone as a command: voiced too weakly to end early.
        var breath = Self.recognition("help", 0.9, gap: 800)
        breath.features?.weakestVoicing = EarlyEnd.defaultVoicing
        #expect(early.answer(breath, audioEnd: 1) == .wait)
        breath.features?.weakestVoicing = EarlyEnd.defaultVoicing - 0.01
        #expect(early.answer(breath, audioEnd: 1) == .end)
    }

    /// A sure command that may grow ends unless more is said; one vsh is not sure of, or
    /// whose words run into the pause, is decided on the full hangover's audio.
    @Test func aSureCommandThatCanGrowEndsUnlessMoreIsSaid() {
        let early = Self.early()
        #expect(early.answer(Self.recognition("stop", 0.95), audioEnd: 1) == .endUnlessMore)  // may become "stop recording"
        #expect(early.answer(Self.recognition("stop", 0.4), audioEnd: 1) == .wait)
        #expect(early.answer(Self.recognition("stop", 0.95, gap: 200), audioEnd: 1) == .wait)
        #expect(early.answer(Self.recognition("stop", 0.95, end: 0.9), audioEnd: 1) == .wait)
    }

    /// Speech, then a long quiet: what the pipeline reports, in stream time.
    static func listen(_ script: [([String], Double)], audio: [Int16] = TestSignal.bursts([1.0, 0.6, 1.5]))
        -> (utterances: [Utterance], decodes: Int) {
        let recognizer = FakeRecognizer(script)
        var settings = Endpointer.Settings()
        settings.earlyPause = 120
        let pipeline = VoicePipeline(
            source: FakeAudioSource(audio), frontEnd: nil, endpointer: Endpointer(settings: settings),
            recognizer: recognizer, earlyEnd: early())
        return (utterances(of: pipeline), recognizer.calls)
    }

    /// The utterances `pipeline` reports until its audio ends.
    static func utterances(of pipeline: VoicePipeline) -> [Utterance] {
        var utterances: [Utterance] = []
        try? pipeline.run { event in
            if case .utterance(let u) = event { utterances.append(u) }
            return true
        }
        return utterances
    }

    @Test func aCommandThatCannotGrowEndsAfterTheShortPause() throws {
        let (utterances, decodes) = Self.listen([(["help"], 0.9)])
        let u = try #require(utterances.first)
        #expect(utterances.count == 1)
        #expect(u.line == "help")
        #expect(u.segment.early)
        #expect(decodes == 1)  // the early decode is the utterance's: not decoded twice
        // Ended 120 ms after the speech, not 300: the latency holds the wait (and the
        // decode's CPU time, next to nothing for the fake).
        #expect(u.latency >= 0.12 && u.latency < 0.2)
    }

    /// As the settings build it (`VoiceFactory`, the defaults): an early end needs a command
    /// vsh is sure of, not only one over the run threshold; the likely one waits and runs
    /// after the full hangover.
    @Test func theDefaultsEndEarlyOnlyWhenSure() throws {
        func first(_ confidence: Double) -> Utterance? {
            var settings = Settings()
            settings.denoise = .off
            let recognizer = FakeRecognizer([(["help"], confidence), (["help"], confidence)])
            let factory = VoiceFactory(settings: settings, frontEnd: { _, _ in PassThroughPreprocessor() }, recognizer: { _ in recognizer })
            let grammar = VoiceGrammar(registry: Builtins.registry())
            let pipeline = factory.commandPipeline(
                source: FakeAudioSource(TestSignal.bursts([1.0, 0.6, 1.5])), recognizer: recognizer,
                ending: grammar.ending(of:))
            return Self.utterances(of: pipeline).first
        }
        let sure = try #require(first(0.9))
        #expect(sure.segment.early && sure.line == "help")
        let likely = try #require(first(0.7))
        #expect(!likely.segment.early && likely.line == "help")
    }

    /// A sure "stop" (which may become "stop recording") waits out the hangover, and with
    /// nothing more said it is the recognition made at the pause: decoded once, so that it
    /// runs as the hangover ends, not a decode later.
    @Test func aCommandThatCanGrowWaitsForTheHangover() throws {
        let (utterances, decodes) = Self.listen([(["stop"], 0.9), (["stop", "recording"], 0.9)])
        let u = try #require(utterances.first)
        #expect(utterances.count == 1)
        #expect(u.line == "stop")
        #expect(!u.segment.early)
        #expect(decodes == 1)
        #expect(abs(u.latency - 0.3) < 0.05, "\(u.latency)")
        #expect(abs(u.segment.closedAt - u.segment.speechEnd - 0.3) < 0.005)
    }

    /// When the words go on within the hangover, the utterance is all of them: "stop",
    /// a pause, "recording", heard too unsure at the second pause to end there, so decided
    /// on all the audio after the hangover, not on the first pause's "stop".
    @Test func aCommandThatGrowsIsHeardWhole() throws {
        let (utterances, decodes) = Self.listen(
            [(["stop"], 0.9), (["stop", "recording"], 0.4), (["stop", "recording"], 0.9)],
            audio: TestSignal.bursts([1.0, 0.5, 0.2, 0.5, 1.5]))
        let u = try #require(utterances.first)
        #expect(utterances.count == 1)
        #expect(u.recognition.text == "stop recording" && u.recognition.confidence == 0.9)
        #expect(!u.segment.early && u.segment.end - u.segment.start > 1.4)  // both stretches of speech and the padding before
        #expect(decodes == 3)  // asked at each pause, then the whole utterance
    }

    /// Speech that resumes before the full hangover would have run out belonged, with the
    /// full hangover, to the utterance that ended early (the rest of a word, a breath after
    /// it): the early end decided sooner, and what follows runs nothing of its own.
    @Test func speechWithinTheHangoverAfterAnEarlyEndRunsNothing() throws {
        let (soon, _) = Self.listen([(["help"], 0.9), (["help"], 0.9)], audio: TestSignal.bursts([1.0, 0.5, 0.2, 0.5, 1.5]))
        #expect(soon.map(\.line) == ["help", nil])
        #expect(soon.first?.segment.early == true)
        // A second command after the hangover's length of quiet runs, as without early ends.
        let (later, _) = Self.listen([(["help"], 0.9), (["help"], 0.9)], audio: TestSignal.bursts([1.0, 0.5, 0.5, 0.5, 1.5]))
        #expect(later.map(\.line) == ["help", "help"])
    }

    @Test func theEndpointerMarksSpeechWithinTheHangoverOfAnEarlyEnd() {
        var settings = Endpointer.Settings()
        settings.earlyPause = 120
        for (gap, continues) in [(0.2, true), (0.25, true), (0.5, false)] {
            let endpointer = Endpointer(settings: settings)
            endpointer.endsEarly = { _ in .end }
            let events = endpointer.feed(TestSignal.bursts([1.0, 0.5, gap, 0.5, 1.5])) + endpointer.finish()
            let segments = events.compactMap { if case .utterance(let s) = $0 { s } else { nil } }
            #expect(segments.map(\.continuesEarly) == [false, continues], "gap \(gap) s")
        }
        // Without an early end the hangover itself joins speech 200 ms apart.
        let endpointer = Endpointer(settings: settings)
        let events = endpointer.feed(TestSignal.bursts([1.0, 0.5, 0.2, 0.5, 1.5])) + endpointer.finish()
        #expect(events.filter { if case .utterance = $0 { true } else { false } }.count == 1)
    }

    @Test func anUnsureCommandWaitsForTheHangover() throws {
        let (utterances, _) = Self.listen([(["help"], 0.3), (["help"], 0.8)])
        let u = try #require(utterances.first)
        #expect(!u.segment.early)
        #expect(u.line == "help")  // decided on the whole utterance, as without early ends
        #expect(u.latency >= 0.3)
    }

    @Test func theEndpointerAsksOncePerPause() {
        // Two stretches of speech 200 ms apart: one utterance (the hangover bridges the
        // gap), with a pause of 120 ms inside it and one at its end.
        let audio = TestSignal.bursts([1.0, 0.5, 0.2, 0.5, 1.5])
        var settings = Endpointer.Settings()
        settings.earlyPause = 120
        let endpointer = Endpointer(settings: settings)
        var asked: [Double] = []
        endpointer.endsEarly = { segment in
            asked.append(segment.closedAt - segment.speechEnd)
            return .wait
        }
        var events = endpointer.feed(audio)
        events += endpointer.finish()
        let utterances = events.compactMap { if case .utterance(let s) = $0 { s } else { nil } }
        #expect(utterances.count == 1)
        #expect(asked.count == 2)
        #expect(asked.allSatisfy { abs($0 - 0.12) < 0.005 })
        #expect(utterances.first.map { !$0.early && abs($0.closedAt - $0.speechEnd - 0.3) < 0.005 } == true)
    }

    /// An utterance ended early is heard with as much quiet after the speech as the full
    /// hangover would leave: the rest is the quiet from before the speech.
    @Test func anEarlySegmentEndsWithTheRestOfTheHangoverInQuiet() throws {
        let audio = TestSignal.bursts([1.0, 0.5, 1.5])
        var settings = Endpointer.Settings()
        settings.earlyPause = 120
        let endpointer = Endpointer(settings: settings)
        endpointer.endsEarly = { _ in .end }
        let events = endpointer.feed(audio) + endpointer.finish()
        let segments = events.compactMap { if case .utterance(let s) = $0 { s } else { nil } }
        let s = try #require(segments.first)
        #expect(segments.count == 1)
        #expect(s.early)
        #expect(abs(s.closedAt - s.speechEnd - 0.12) < 0.005)
        let heard = Int(((s.end - s.start) * 16_000).rounded())
        let offset = Int((s.start * 16_000).rounded())
        #expect(Array(s.samples.prefix(heard)) == Array(audio[offset..<offset + heard]))
        #expect(s.samples.count - heard == 180 * 16)  // 300 ms hangover − 120 ms pause
        #expect(Array(s.samples.suffix(180 * 16)) == Array(audio[offset..<offset + 180 * 16]))
    }

    @Test func jsgfFilesHaveFinalPhrasesToo() throws {
        let grammar = """
            #JSGF V1.0;
            grammar vsh;  // a comment
            /* another */
            public <command> = stop | stop recording | help | count <digit>+ | [set] quality <level>;
            <level> = low | high;
            <digit> = one | two;
            """
        let phrases = try #require(JSGFPattern.parse(grammar))
        let ending = VoiceGrammar.ending(in: phrases)
        #expect(ending(["help"]) == .final)
        #expect(ending(["stop"]) == .canGrow)
        #expect(ending(["stop", "recording"]) == .final)
        #expect(ending(["count", "one", "two"]) == .canGrow)
        #expect(ending(["set", "quality", "high"]) == .final)
        #expect(ending(["quality"]) == nil)
        #expect(JSGFPattern.parse("#JSGF V1.0;\ngrammar g;\npublic <a> = go <a>;") == nil)  // recursion: unknown
    }
}

extension Utterance {
    /// What `vsh listen` runs for it at threshold 0.5 over the built-in commands.
    fileprivate var line: String? {
        judged(in: VoiceGrammar(registry: Builtins.registry()), by: Gate(threshold: 0.5)).1?.line
    }
}
