import VshCore
import VshSpoken
import VshVoice

/// A question vsh asks about a spoken command before running it: which one was meant
/// (the recogniser was unsure), or whether to run a destructive one. Answered by voice or
/// keyboard; dropped after a timeout.
struct PromptQuestion {
    enum Kind: Equatable {
        /// "did you mean 1) save  2) play": one of these, by number.
        case choose([VoiceCandidate])
        /// "delete 2 deletes: run it?": yes or no.
        case confirm(VoiceCandidate)
        /// "'exit' ends vsh: leave?": yes or no.
        case confirmLeaving(VoiceCandidate)
    }

    var kind: Kind
    /// The utterance asked about (its audio becomes the clip of what runs).
    var heard: Utterance
    /// When the question lapses (`VoicePrompt.monotonic` seconds).
    var deadline: Double

    /// What the person is asked, as shown above the prompt.
    var text: String {
        switch kind {
        case .choose(let candidates) where candidates.count == 1:
            return "did you mean '\(candidates[0].line)'? say or type yes or no"
        case .choose(let candidates):
            let list = candidates.enumerated().map { "\($0.offset + 1)) \($0.element.line)" }.joined(separator: "  ")
            return "did you mean \(list)? say or type the number, or no"
        case .confirm(let candidate):
            return "'\(candidate.line)' cannot be taken back without undo; run it? say or type yes or no"
        case .confirmLeaving(let candidate):
            return "'\(candidate.line)' ends vsh; leave? say or type yes or no"
        }
    }

    /// What the person asked about, for "not run" notes.
    var subject: String {
        switch kind {
        case .choose(let candidates): candidates.map { "'\($0.line)'" }.joined(separator: " or ")
        case .confirm(let candidate), .confirmLeaving(let candidate): "'\(candidate.line)'"
        }
    }
}

/// An answer to a `PromptQuestion`.
package enum PromptAnswer: Equatable, Sendable {
    case number(Int)
    case yes
    case no

    /// The line the listener's own grammar gives for spoken answers (`answer 2`,
    /// `answer yes`), or a typed answer: `2`, `two`, `y`, `yes`, `n`, `no`, `answer 2`.
    package init?(_ text: String) {
        var words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if words.first == "answer" { words.removeFirst() }
        if words.first == "number" { words.removeFirst() }
        guard words.count == 1 else { return nil }
        let word = words[0]
        switch word {
        case "y", "yes": self = .yes
        case "n", "no": self = .no
        default:
            if let n = Int(word), (1...9).contains(n) {
                self = .number(n)
            } else if let n = NumberWords.digit(word), n > 0 {
                self = .number(n)
            } else {
                return nil
            }
        }
    }

    /// The spoken forms of answers: only the prompt's grammar has them (`PromptGrammar`).
    static let spokenForms = [
        SpokenForm("[number] (one | two | three)", runs: "answer $1"),
        SpokenForm("yes", runs: "answer yes"),
        SpokenForm("no", runs: "answer no"),
    ]
}
