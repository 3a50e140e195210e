/// The audio format every part of vsh works in after capture or file decoding: 16 kHz
/// mono, 16-bit signed samples. Devices and files at other rates are resampled to it.
package enum AudioFormat {
    /// Samples per second.
    package static let sampleRate = 16_000
}

/// A word recognised in an utterance, with where it lies in the audio.
package struct RecognizedWord: Sendable, Equatable {
    package var word: String
    /// Seconds from the start of the audio.
    package var start: Double
    package var end: Double
    /// 0…1.
    package var confidence: Double

    package init(word: String, start: Double, end: Double, confidence: Double) {
        self.word = word
        self.start = start
        self.end = end
        self.confidence = confidence
    }
}

/// A failure of an audio device or file, in words a person can act on.
package struct AudioError: Error, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

