import VshCore
import VshVoice

/// What the prompt did with one utterance, as a person would have met it, and when it ran
/// nothing, which check stopped it: `vsh listen --json` prints it, and the benchmarks count
/// false runs by it.
package struct Verdict: Equatable, Sendable {
    package enum Kind: String, Sendable {
        /// The command ran.
        case run
        /// vsh was sure of the command and asked first (destructive, or it ends vsh).
        case confirm
        /// vsh was unsure and asked which command was meant.
        case choose
        /// It answered the question vsh had asked.
        case answer
        /// The wake phrase turned listening on.
        case wake
        /// Nothing happened.
        case ignore
    }

    package var kind: Kind
    /// The command line it ran or asked about.
    package var line: String?
    /// What stopped it, for `ignore`.
    package var stoppedBy: Gate.Check?
    /// For words heard that are no command but would be one with a word before them (a
    /// slot without its carrier: "five"), those words, the runners-up's first ("play",
    /// "show", "code").
    package var missingWord: [String] = []
    /// For words heard that are no command but would be one with a word after them (a
    /// carrier without its slot: "quality"), those words, the runners-up's first ("high",
    /// "low", "medium").
    package var missingNextWord: [String] = []
    /// For a phrase stopped because the reading without some of its words fit as well
    /// (`Gate.leftOutReading`), those words: "eight" of `play eight` for a lone "play". The
    /// missing words above are then those of what was said ("play").
    package var unheard: [String] = []

    /// What `unheard` tells the person, in `listen` and `--verbose` alike: `"eight" not
    /// heard`; nil when every word was.
    package var unheardNote: String? {
        unheard.isEmpty ? nil : unheard.map { "\"\($0)\"" }.listed("and") + " not heard"
    }

    package init(_ kind: Kind, line: String? = nil, stoppedBy: Gate.Check? = nil, missingWord: [String] = [],
                 missingNextWord: [String] = [], unheard: [String] = []) {
        self.unheard = unheard
        self.kind = kind
        self.line = line
        self.stoppedBy = stoppedBy
        self.missingWord = missingWord
        self.missingNextWord = missingNextWord
    }
}
