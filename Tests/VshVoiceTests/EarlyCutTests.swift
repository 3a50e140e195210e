import Foundation
import Testing
@testable import VshCore
@testable import VshVoice
import VshTestSupport

/// The utterance the early end is asked about is cut after 50 ms of quiet (the audio to
/// there, the rest of the hangover in quiet), so that its decode can begin while the
/// endpointer waits out the early pause. One that waits for the hangover is the audio up
/// to where it closed, as before.
@Suite struct EarlyCutTests {
    static func settings(cut: Int = 50, early: Int = 120) -> Endpointer.Settings {
        var settings = Endpointer.Settings()
        settings.earlyCut = cut
        settings.earlyPause = early
        return settings
    }

    static func segments(_ events: [Endpointer.Event]) -> [Endpointer.Segment] {
        events.compactMap { if case .utterance(let s) = $0 { s } else { nil } }
    }

    /// Runs `audio` through an endpointer whose early end answers `answer`: the segments it
    /// closed, those it handed over at the cut, and those it asked about.
    static func run(_ audio: [Int16], answer: Endpointer.EarlyAnswer)
        -> (closed: [Endpointer.Segment], offered: [Endpointer.Segment], asked: [Endpointer.Segment]) {
        let endpointer = Endpointer(settings: settings())
        var offered: [Endpointer.Segment] = []
        var asked: [Endpointer.Segment] = []
        endpointer.willAskEarly = { offered.append($0) }
        endpointer.endsEarly = { segment in
            asked.append(segment)
            return answer
        }
        return (segments(endpointer.feed(audio) + endpointer.finish()), offered, asked)
    }

    @Test func anEarlyEndClosesWithTheAudioCutAt50ms() throws {
        let audio = TestSignal.bursts([1.0, 0.5, 1.5])
        let (closed, offered, asked) = Self.run(audio, answer: .end)
        let s = try #require(closed.first)
        let cut = try #require(offered.first)
        #expect(closed.count == 1 && offered.count == 1)
        #expect(abs(cut.closedAt - cut.speechEnd - 0.05) < 0.005)
        #expect(asked.map(\.samples) == [cut.samples])
        // Asked when the pause has lasted: a decode not begun ahead begins then.
        #expect(asked.allSatisfy { abs($0.closedAt - $0.speechEnd - 0.12) < 0.005 })
        #expect(s.early && abs(s.closedAt - s.speechEnd - 0.12) < 0.005)
        // Heard: the audio to 50 ms after the speech, then 250 ms of the quiet before it.
        #expect(s.samples == cut.samples && s.start == cut.start)
        let heard = Int(((s.end - s.start) * 16_000).rounded())
        let offset = Int((s.start * 16_000).rounded())
        #expect(abs(s.end - s.speechEnd - 0.05) < 0.005)
        #expect(Array(s.samples.prefix(heard)) == Array(audio[offset..<offset + heard]))
        #expect(s.samples.count - heard == 250 * 16)
        #expect(Array(s.samples.suffix(250 * 16)) == Array(audio[offset..<offset + 250 * 16]))
    }

    @Test func anUtteranceThatWaitsForTheHangoverIsItsOwnAudio() throws {
        let audio = TestSignal.bursts([1.0, 0.5, 1.5])
        let (closed, offered, asked) = Self.run(audio, answer: .wait)
        let s = try #require(closed.first)
        #expect(closed.count == 1 && offered.count == 1 && asked.count == 1)
        #expect(!s.early && abs(s.closedAt - s.speechEnd - 0.3) < 0.005)
        let offset = Int((s.start * 16_000).rounded())
        #expect(abs(s.end - s.speechEnd - 0.3) < 0.005)
        #expect(s.samples == Array(audio[offset..<offset + s.samples.count]))
    }

    /// A command that could grow, when no more is said: it closes after the hangover as the
    /// cut it was asked about, whose decode was begun at 50 ms.
    @Test func anUtteranceLeftWaitingForMoreIsTheCutWhenNoneComes() throws {
        let (closed, offered, asked) = Self.run(TestSignal.bursts([1.0, 0.5, 1.5]), answer: .endUnlessMore)
        let s = try #require(closed.first)
        let cut = try #require(offered.first)
        #expect(closed.count == 1 && offered.count == 1 && asked.count == 1)
        #expect(!s.early && abs(s.closedAt - s.speechEnd - 0.3) < 0.005)
        #expect(s.samples == cut.samples && s.start == cut.start && s.end == cut.end)
        // More speech within the hangover: the utterance goes on, and is cut again.
        let (more, offeredAgain, _) = Self.run(TestSignal.bursts([1.0, 0.5, 0.2, 0.5, 1.5]), answer: .endUnlessMore)
        #expect(more.count == 1 && offeredAgain.count == 2)
        #expect(more.first?.samples == offeredAgain.last?.samples)
        #expect(more.first.map { $0.end - $0.start > 1.4 } == true)
        // Left waiting at the first pause, then not sure at the second: the whole
        // utterance's own audio, not the first cut.
        let endpointer = Endpointer(settings: Self.settings())
        var answers: [Endpointer.EarlyAnswer] = [.endUnlessMore, .wait]
        endpointer.endsEarly = { _ in answers.removeFirst() }
        let audio = TestSignal.bursts([1.0, 0.5, 0.2, 0.5, 1.5])
        let whole = try #require(Self.segments(endpointer.feed(audio) + endpointer.finish()).first)
        let offset = Int((whole.start * 16_000).rounded())
        #expect(answers.isEmpty && !whole.early && abs(whole.end - whole.speechEnd - 0.3) < 0.005)
        let isOwnAudio = whole.samples == Array(audio[offset..<offset + whole.samples.count])
        #expect(isOwnAudio)
        // The stream ends within the hangover: no more speech came, so it is the cut.
        let (ended, offeredAtEnd, _) = Self.run(TestSignal.bursts([1.0, 0.5, 0.2]), answer: .endUnlessMore)
        #expect(ended.count == 1 && ended.first?.samples == offeredAtEnd.first?.samples)
    }

    @Test func speechAfterTheCutIsCutAgainAtTheNextPause() throws {
        // 100 ms of quiet inside the utterance: cut at 50 ms, then the speech goes on.
        let (closed, offered, asked) = Self.run(TestSignal.bursts([1.0, 0.5, 0.1, 0.5, 1.5]), answer: .end)
        let s = try #require(closed.first)
        #expect(closed.count == 1 && offered.count == 2 && asked.count == 1)
        #expect(s.samples == offered.last?.samples)
        #expect(s.end - s.start > 1.4)  // both stretches of speech and the padding before
    }

    @Test func withoutAnEarlyEndNothingIsCut() {
        let endpointer = Endpointer(settings: Self.settings())
        var offered = 0
        endpointer.willAskEarly = { _ in offered += 1 }
        let closed = Self.segments(endpointer.feed(TestSignal.bursts([1.0, 0.5, 1.5])) + endpointer.finish())
        #expect(closed.count == 1 && offered == 0)
    }

    /// Through the pipeline: the early end's decode, begun at the cut, is the utterance's
    /// when it ends early or when nothing more is said after a command that could grow
    /// (one decode; the latency counts the wait or the decode, whichever ends later); one
    /// vsh is not sure of waits for the hangover and is decoded again on its own audio.
    @Test(arguments: [(["help"], 0.9, true, 1, 0.12), (["stop"], 0.9, false, 1, 0.3), (["stop"], 0.3, false, 2, 0.3)])
    func thePipelineDecodesTheCutOnce(_ words: [String], _ confidence: Double, _ early: Bool, _ decodes: Int,
                                      _ wait: Double) throws {
        let recognizer = FakeRecognizer([(words, confidence), (words, confidence)])
        let pipeline = VoicePipeline(
            source: FakeAudioSource(TestSignal.bursts([1.0, 0.6, 1.5])), frontEnd: nil,
            endpointer: Endpointer(settings: Self.settings()), recognizer: recognizer, earlyEnd: EarlyEndTests.early())
        let utterances = EarlyEndTests.utterances(of: pipeline)
        let u = try #require(utterances.first)
        #expect(utterances.count == 1)
        #expect(u.recognition.words.map(\.word) == words)
        #expect(u.segment.early == early)
        #expect(recognizer.calls == decodes)
        #expect(u.latency > wait - 0.005 && u.latency < wait + 0.05, "\(u.latency)")
    }
}

/// Recognitions begun ahead are the same as those asked for: only when they are made differs.
@Suite struct RecognitionAheadTests {
    /// Hears the first sample's value as a word, after `gate` opens.
    final class Echo: CommandRecognizer, @unchecked Sendable {
        let gate = DispatchSemaphore(value: 0)
        let heard = Locked<[Int16]>([])
        func recognize(_ samples: [Int16], start: Double) -> Recognition {
            gate.wait()
            heard.withLock { $0.append(samples[0]) }
            return Recognition(words: [RecognizedWord(word: "\(samples[0])", start: start, end: start, confidence: 1)],
                               confidence: 1)
        }
    }

    @Test func theRecognitionBegunAheadIsTheOneAskedFor() {
        let echo = Echo()
        let ahead = RecognitionAhead(echo)
        ahead.begin([1, 1], start: 0, now: 2.0)
        echo.gate.signal()
        let heard = ahead.recognition(of: [1, 1], start: 0, now: 2.5)
        #expect(heard.recognition.text == "1")
        #expect(heard.begunAt == 2.0)
        // Asked again (the early end, then the hangover): the same recognition, no decode.
        #expect(ahead.recognition(of: [1, 1], start: 0, now: 2.7).begunAt == 2.0)
        #expect(echo.heard.withLock { $0 } == [1])
    }

    @Test func otherAudioIsDecodedWhenAskedFor() {
        let echo = Echo()
        let ahead = RecognitionAhead(echo)
        ahead.begin([1], start: 0, now: 1.0)
        // Busy with the first: the second is not begun ahead.
        ahead.begin([2], start: 0, now: 1.1)
        echo.gate.signal()
        echo.gate.signal()
        let heard = ahead.recognition(of: [2], start: 0, now: 1.3)
        #expect(heard.recognition.text == "2")
        #expect(heard.begunAt == 1.3)
        #expect(echo.heard.withLock { $0 } == [1, 2])
        // The same samples at another place in the stream are another utterance.
        echo.gate.signal()
        #expect(ahead.recognition(of: [2], start: 5, now: 6).begunAt == 6)
    }

    @Test func longUtterancesAreNotBegunAhead() {
        let echo = Echo()
        let ahead = RecognitionAhead(echo)
        ahead.begin([Int16](repeating: 3, count: RecognitionAhead.longest + 1), start: 0, now: 1.0)
        echo.gate.signal()
        #expect(ahead.recognition(of: [4], start: 0, now: 1.2).recognition.text == "4")
        #expect(echo.heard.withLock { $0 } == [4])
    }
}
