/// The audio format every part of vsh works in after capture or file decoding: 16 kHz
/// mono, 16-bit signed samples. Devices and files at other rates are resampled to it.
public enum AudioFormat {
    /// Samples per second.
    public static let sampleRate = 16_000
}

/// A word recognised in an utterance, with where it lies in the audio.
public struct RecognizedWord: Sendable, Equatable {
    public var word: String
    /// Seconds from the start of the audio.
    public var start: Double
    public var end: Double
    /// 0…1.
    public var confidence: Double

    public init(word: String, start: Double, end: Double, confidence: Double) {
        self.word = word
        self.start = start
        self.end = end
        self.confidence = confidence
    }
}

/// A failure of an audio device or file, in words a person can act on.
public struct AudioError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

