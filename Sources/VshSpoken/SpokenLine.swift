import Foundation

/// A command heard at the prompt, on its way to run exactly as if it had been typed.
package struct SpokenLine: Sendable, Equatable {
    /// The command line it runs (`quality high`).
    package var line: String
    /// The words heard (`set quality high`).
    package var heard: String
    /// How sure the recogniser was, 0…1.
    package var confidence: Double
    /// The saved audio of the utterance, which history keeps beside the entry.
    package var clip: String?
    /// How a doubt was settled before it ran: `chosen 2`, `confirmed`; nil when vsh did not ask.
    package var settled: String?
    /// Where the utterance ended, in seconds of the audio input, and the monotonic clock
    /// (`VoicePrompt.monotonic`) when that audio was captured: for the timing `--verbose` shows.
    package var end: Double
    package var endClock: Double?

    package init(line: String, heard: String, confidence: Double, clip: String? = nil, settled: String? = nil,
                end: Double = 0, endClock: Double? = nil) {
        self.line = line
        self.heard = heard
        self.confidence = confidence
        self.clip = clip
        self.settled = settled
        self.end = end
        self.endClock = endClock
    }
}
