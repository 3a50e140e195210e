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

    /// A check that stops an utterance from running anything.
    package enum Check: String, Sendable {
        /// Its confidence was below `voice.reject_below` (or, for an answer with no
        /// question pending, below `voice.threshold`).
        case confidence
        /// No phrase the prompt listens for: other words, noise.
        case noCommand = "no-command"
        /// It began while an utterance that ended early could still have gone on.
        case continuesEarly = "continues-early"
        /// Listening was off, and it was not the wake phrase.
        case listeningOff = "listening-off"
        /// An answer, and there was no question to answer.
        case noQuestion = "no-question"
        /// Attention `wake` or `key`, and neither the wake phrase (sure and said on its
        /// own) nor the talk key had woken vsh.
        case asleep
        /// A command said too soon after other speech (`voice.quiet_before_ms`): it runs
        /// on from talk.
        case notStandAlone = "not-stand-alone"
        /// With a model adapted to the person (`train`), it sounded less like them than
        /// their own takes do (`voice.speaker_check`).
        case otherSpeaker = "other-speaker"
        /// Words run together: one word of several was given less time than a person takes
        /// to say it (`VoicePrompt.clearWord`), as "play" before a lone "five".
        case unclearWord = "unclear-word"
    }

    package var kind: Kind
    /// The command line it ran or asked about.
    package var line: String?
    /// What stopped it, for `ignore`.
    package var stoppedBy: Check?

    package init(_ kind: Kind, line: String? = nil, stoppedBy: Check? = nil) {
        self.kind = kind
        self.line = line
        self.stoppedBy = stoppedBy
    }
}
