/// What the recogniser made of one utterance.
public struct Recognition: Sendable, Equatable {
    /// The words recognised, variants (`record(2)`) and fillers removed.
    public var words: [RecognizedWord]
    /// How sure the recogniser is that the utterance is this phrase of the grammar, 0…1.
    public var confidence: Double

    public init(words: [RecognizedWord], confidence: Double) {
        self.words = words
        self.confidence = confidence
    }

    public var text: String { words.map(\.word).joined(separator: " ") }
}

/// Recognises a whole utterance against the command grammar.
public protocol CommandRecognizer: AnyObject {
    /// `samples`: 16 kHz mono; `start`: where they begin in the stream (seconds), so that
    /// word times come out in stream time.
    func recognize(_ samples: [Int16], start: Double) -> Recognition
}

/// One utterance the voice path heard, and what vsh will do with it.
public struct Utterance: Sendable, Equatable {
    public var recognition: Recognition
    /// The command line it dispatches, or nil when rejected (out of grammar or unsure).
    public var line: String?
    /// The registry command, when `line` is set.
    public var command: String?
    public var start: Double
    public var end: Double
}

/// Microphone (or file) to commands: audio source → front end → endpointer →
/// recogniser → grammar interpretation and rejection. Pure orchestration; the pieces
/// are injected, so tests run it with fakes.
public final class VoicePipeline {
    public enum Event: Equatable {
        case speechStarted(Double)
        case utterance(Utterance)
    }

    let source: AudioSource
    let frontEnd: Preprocessor?
    let endpointer: Endpointer
    let recognizer: CommandRecognizer
    let interpret: ([String]) -> (command: String, line: String)?
    /// Utterances below this confidence are rejected.
    public var threshold: Double

    public init(
        source: AudioSource, frontEnd: Preprocessor?, endpointer: Endpointer,
        recognizer: CommandRecognizer, threshold: Double,
        interpret: @escaping ([String]) -> (command: String, line: String)?
    ) {
        self.source = source
        self.frontEnd = frontEnd
        self.endpointer = endpointer
        self.recognizer = recognizer
        self.threshold = threshold
        self.interpret = interpret
    }

    /// Reads the source to its end (or until `onEvent` returns false), reporting events.
    public func run(chunk: Int = 512, onEvent: (Event) -> Bool) throws {
        var buffer = [Int16](repeating: 0, count: chunk)
        while true {
            let n = try source.read(into: &buffer)
            var frame = Array(buffer[0..<n])
            frontEnd?.process(&frame)
            let events = n == 0 ? endpointer.feed(frame) + endpointer.finish() : endpointer.feed(frame)
            for event in events {
                if !onEvent(handle(event)) { return }
            }
            if n == 0 { return }
        }
    }

    func handle(_ event: Endpointer.Event) -> Event {
        switch event {
        case .speechStarted(let t):
            return .speechStarted(t)
        case .utterance(let samples, let start, let end):
            let recognition = recognizer.recognize(samples, start: start)
            var utterance = Utterance(recognition: recognition, line: nil, command: nil, start: start, end: end)
            if recognition.confidence >= threshold, !recognition.words.isEmpty,
               let (command, line) = interpret(recognition.words.map(\.word)) {
                utterance.line = line
                utterance.command = command
            }
            return .utterance(utterance)
        }
    }
}
