import Foundation

/// A command an utterance could stand for: the grammar's reading of one recognised phrase.
package struct VoiceCandidate: Sendable, Equatable {
    /// The registry command (`delete`), for the destructive check.
    package var command: String
    /// The command line (`delete 2`).
    package var line: String

    package init(command: String, line: String) {
        self.command = command
        self.line = line
    }
}

/// One utterance the prompt's listener heard.
package struct Heard: Sendable, Equatable {
    /// The words recognised.
    package var text: String
    /// 0…1, of the best phrase.
    package var confidence: Double
    /// What it could run, best first and distinct: the best phrase's command when it is
    /// one, then the runners-up's. Empty when no phrase was a whole command.
    package var candidates: [VoiceCandidate]
    /// The utterance's audio, 16 kHz mono, for the clip history keeps.
    package var samples: [Int16]
    /// As in `SpokenLine`.
    package var end: Double
    package var endClock: Double?

    package init(text: String, confidence: Double, candidates: [VoiceCandidate], samples: [Int16] = [],
                end: Double = 0, endClock: Double? = nil) {
        self.text = text
        self.confidence = confidence
        self.candidates = candidates
        self.samples = samples
        self.end = end
        self.endClock = endClock
    }
}

/// What the prompt's listener reports, from its own thread.
package enum ListenerEvent: Sendable, Equatable {
    /// Audio flows; the text names the input (`microphone default`, `file s2.wav`), and
    /// `wakePhrase` is the phrase the grammar has for turning listening back on.
    case ready(String, wakePhrase: String)
    case speechStarted
    case heard(Heard)
    /// The input ended (a file played to its end); the text says so.
    case ended(String)
    /// Something the person should know that does not stop listening.
    case note(String)
    /// The input could not be opened or failed. `quiet`: do not show it unasked (the
    /// default device is missing, which only matters once someone asks to listen).
    case failed(String, quiet: Bool)
}

/// The listener thread, as the prompt drives it (VshApp implements it over ALSA or a file).
package protocol ListenerHandle: AnyObject {
    /// Stops taking audio until `resume`: while a command runs, no speech is taken as a command.
    func pause()
    func resume()
    /// Starts again after the input failed; the outcome arrives as an event.
    func restart()
    /// Listens for the registry's commands as they are now (after command files changed).
    func refreshGrammar()
}
