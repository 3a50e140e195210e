/// What the listener is doing, as the prompt shows it.
package enum ListeningState: Sendable, Equatable {
    /// Waiting for speech.
    case listening
    /// Speech is under way.
    case hearing
    /// `listen off`: only the wake phrase turns it back on.
    case off
    /// vsh asked something (did you mean, are you sure) and waits for the answer.
    case asking
}

/// The marks in front of the prompt (`● vsh> `): Unicode where the locale is UTF-8,
/// plain ASCII elsewhere.
package struct PromptMarks: Sendable, Equatable {
    package var listening: String
    package var hearing: String
    package var off: String
    package var asking: String

    package static let unicode = PromptMarks(listening: "●", hearing: "◉", off: "○", asking: "?")
    package static let ascii = PromptMarks(listening: "*", hearing: "@", off: "-", asking: "?")

    package init(listening: String, hearing: String, off: String, asking: String) {
        self.listening = listening
        self.hearing = hearing
        self.off = off
        self.asking = asking
    }

    /// Unicode when the locale the environment selects (LC_ALL, LC_CTYPE, LANG, first set
    /// wins) is UTF-8.
    package static func detect(environment: [String: String]) -> PromptMarks {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8") ? .unicode : .ascii
    }

    package func mark(_ state: ListeningState) -> String {
        switch state {
        case .listening: listening
        case .hearing: hearing
        case .off: off
        case .asking: asking
        }
    }
}
