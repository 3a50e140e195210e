import Foundation
import VshCore

/// What the recogniser made of one utterance.
package struct Recognition: Sendable, Equatable {
    /// The words recognised, variants (`record(2)`) and fillers removed.
    package var words: [RecognizedWord]
    /// How sure the recogniser is that the utterance is this phrase of the grammar, 0…1.
    package var confidence: Double
    /// Other phrases that fit the audio, best first, as words (the best one not repeated;
    /// may hold partial phrases): what "did you mean" offers when the confidence is low.
    /// Empty when the recogniser cannot tell.
    package var alternatives: [[String]] = []
    /// What the confidence was computed from, when the recogniser has a confidence model
    /// (`vsh listen --json` prints it, for benchmarks).
    package var features: Confidence.Features?
    /// Asleep in attention `wake`, when these words began with the wake phrase, or were a
    /// short command and the phrase was found in them: the same audio heard again with the
    /// phrase alone (`WakePhraseAgain`), which wakes vsh when this reading does not. Empty
    /// otherwise (at most one).
    package var phraseAlone: [Recognition] = []
    /// When these words had a command after the wake phrase and `phraseAlone` heard the
    /// phrase alone: the audio after the phrase, heard on its own with the commands
    /// (`WakePhraseAgain`). A command said after a short pause runs from it; breath heard
    /// as a command is stopped there. Empty otherwise (at most one).
    package var afterPhrase: [Recognition] = []

    package init(words: [RecognizedWord], confidence: Double, alternatives: [[String]] = [],
                features: Confidence.Features? = nil) {
        self.words = words
        self.confidence = confidence
        self.alternatives = alternatives
        self.features = features
    }

    package var text: String { words.map(\.word).joined(separator: " ") }

    /// Whether none of it was voice: no word heard, or one word with no frame as periodic
    /// as a vowel (`Confidence.Features.weakestVoicing`, by the confidence's own floor): a
    /// breath drawn before a command, a click, a tap. No word of talk is said without a
    /// vowel, so such a sound is no talk: the quiet before a command is counted from the
    /// speech before it (`VoicePrompt.decide`).
    package var isVoiceless: Bool {
        words.isEmpty || (words.count == 1 && (features?.weakestVoicing ?? 0) >= Confidence.model.voiced)
    }
}

/// Recognises a whole utterance against the command grammar.
package protocol CommandRecognizer: AnyObject {
    /// `samples`: 16 kHz mono; `start`: where they begin in the stream (seconds), so that
    /// word times come out in stream time.
    ///
    /// A recognition depends on `samples` alone, never on what was recognised before: the
    /// early end recognises the start of an utterance that may yet go on (`EarlyEnd`),
    /// and throws most of those recognitions away.
    func recognize(_ samples: [Int16], start: Double) -> Recognition
    /// What `train` calibrated for the model this recogniser loaded: its part of the gate
    /// (`VoiceFactory.gate(for:)`), read once, as the model loads.
    var calibration: Gate.Calibration { get }
    /// What the person should know about how it hears, said once as it loads: a check
    /// that could not be loaded and is off.
    var warning: String? { get }
}

extension CommandRecognizer {
    package var calibration: Gate.Calibration { .stock }
    package var warning: String? { nil }
}

/// One utterance the voice pipeline heard: everything the step that decides what to do with
/// it needs, so nothing follows it on a side channel.
package struct Utterance: Sendable, Equatable {
    package var recognition: Recognition
    /// The endpointer's cut it was heard in: where it began and ended in the stream,
    /// whether it ended early or continues one that did, the quiet before it.
    package var segment: Endpointer.Segment
    /// The audio the recogniser decoded, 16 kHz mono (the segment's, or the front end's):
    /// the clip history keeps.
    package var samples: [Int16]
    /// Seconds from the end of speech to this result: the endpointer's wait for silence,
    /// or the decode begun during that wait when it ends later (the decode counted in the
    /// CPU time it took, so that a busy machine does not blur what vsh itself costs).
    package var latency: Double
    /// The monotonic time (`VoicePrompt.monotonic`) at which its end was captured, where
    /// the listener knows it: for the timing `--verbose` shows.
    package var endCaptured: Double?

    /// What `gate` makes of it as a phrase of `grammar`, and the command it reads as: what
    /// `vsh listen --grammar` and the spoken stop act on. (The prompt decides with its
    /// state too: `VoicePrompt`.)
    package func judged(in grammar: CommandGrammar, by gate: Gate) -> (Gate.Decision, VoiceCandidate?) {
        let command = grammar.interpret(recognition.words.map(\.word))
        let decision = gate.take(recognition, isPhrase: command != nil, continuesEarly: segment.continuesEarly)
        return (decision, decision.isSure ? command : nil)
    }
}

/// Microphone (or file) to recognised utterances: audio source → front end → endpointer
/// → recogniser. What an utterance means is decided after, once, by its reader (`vsh
/// listen`: `Utterance.command`; the prompt: `VoicePrompt`). Pure orchestration; the
/// pieces are injected, so tests run it with fakes.
package final class VoicePipeline {
    package enum Event: Equatable {
        case speechStarted(Double)
        case utterance(Utterance)
    }

    /// Which audio the recogniser gets when a front end runs.
    package enum FrontEndUse: Equatable, Sendable {
        case always
        /// Only for utterances quieter than this over the noise floor (dB): noise
        /// suppression helps noisy speech and costs clean speech (measured on synthetic
        /// voices: −11 points on clean commands when always on; `Settings.denoiseBelowSNR`
        /// has the cut-off and why).
        case belowSNR(Double)
    }

    let source: AudioSource
    let frontEnd: Preprocessor?
    let frontEndUse: FrontEndUse
    let endpointer: Endpointer
    /// When an utterance may end before the full hangover; nil: never.
    let earlyEnd: EarlyEnd?
    /// Where the recogniser runs: begun as soon as the endpointer cuts the utterance the
    /// early end will be asked about, asked for when it is.
    private let ahead: RecognitionAhead

    package init(
        source: AudioSource, frontEnd: Preprocessor?, frontEndUse: FrontEndUse = .always, endpointer: Endpointer,
        recognizer: CommandRecognizer, earlyEnd: EarlyEnd? = nil
    ) {
        self.source = source
        self.frontEnd = frontEnd
        self.frontEndUse = frontEndUse
        self.endpointer = endpointer
        self.earlyEnd = earlyEnd
        ahead = RecognitionAhead(recognizer)
        if earlyEnd != nil {
            endpointer.endsEarly = { [unowned self] segment in endsEarly(segment) }
            endpointer.willAskEarly = { [unowned self] segment in
                ahead.begin(samples(of: segment), start: segment.start, now: segment.closedAt)
            }
        }
    }

    /// Asked by the endpointer after a short pause: recognises the utterance so far (or
    /// takes the recognition begun ahead of it), and ends it as `earlyEnd` answers for what
    /// was heard, now or when no more speech comes (the recognition is then the
    /// utterance's, not decoded twice).
    func endsEarly(_ segment: Endpointer.Segment) -> Endpointer.EarlyAnswer {
        guard let earlyEnd else { return .wait }
        let audio = samples(of: segment)
        let recognition = ahead.recognition(of: audio, start: segment.start, now: segment.closedAt).recognition
        let audioEnd = segment.start + Double(audio.count) / Double(AudioFormat.sampleRate)
        return earlyEnd.answer(recognition, audioEnd: audioEnd)
    }

    /// Reads the source to its end (or until `onEvent` returns false), reporting events.
    package func run(chunk: Int = 480, onEvent: (Event) -> Bool) throws {
        var feed = EndpointerFeed(source: source, frontEnd: frontEnd, endpointer: endpointer, chunk: chunk)
        while true {
            let (read, events) = try feed.step()
            for event in events {
                let result = handle(event)
                if !onEvent(result) { return }
            }
            if read.isEmpty { return }
        }
    }

    func handle(_ event: Endpointer.Event) -> Event {
        switch event {
        case .speechStarted(let t):
            return .speechStarted(t)
        case .utterance(let segment):
            let audio = samples(of: segment)
            let heard = ahead.recognition(of: audio, start: segment.start, now: segment.closedAt)
            return .utterance(Utterance(
                recognition: heard.recognition, segment: segment, samples: audio,
                latency: max(segment.closedAt, heard.begunAt + heard.decoding) - segment.speechEnd))
        }
    }

    /// The audio the recogniser gets: the front end's when it is to be used.
    func samples(of segment: Endpointer.Segment) -> [Int16] {
        guard let processed = segment.processed else { return segment.samples }
        switch frontEndUse {
        case .always: return processed
        case .belowSNR(let cut): return segment.snr < cut ? processed : segment.samples
        }
    }
}
