import VshCore

/// The phrase that ends a recording ("stop recording"), said on its own while dictating.
/// Each short utterance is heard as the prompt hears a command: decoded against the stop
/// command's spoken forms and a thousand everyday words (`OpenGrammar`, `OtherWords`),
/// with `Confidence`, so that "stop reporting" or "top floor" is other words, not the
/// stop. (The keyword spotter used before lost the phrase said slowly: its phone loop beat
/// the phrase at 110–140 words a minute whatever the threshold.) Only the whole phrase
/// stops: "stop" alone, also a form of the command, competes with it but stops nothing
/// (in an hour of other people's single words it stopped 7 times, and caught under
/// half of real people's "stop"). research/recognition/STOP.md has the figures.
package struct SpokenStop {
    /// The recogniser of `grammar` (`VoicePath.recognizer(for:)`).
    package let recognizer: CommandRecognizer
    /// The words that stop.
    package let phrase: [String]
    /// The gate the phrase must pass: the prompt's, for the model `recognizer` loaded
    /// (`VoicePath.gate(for:)`).
    package let gate: Gate

    /// The longest utterance (seconds, with the endpointer's padding) the phrase is looked
    /// for in: said on its own, as a command, not inside a sentence. "stop recording" at
    /// 110 words a minute is a 2.2 s utterance.
    package static let longest = 3.0

    /// `recognizer` hears a grammar with `phrase` and its rivals.
    package init(recognizer: CommandRecognizer, phrase: [String], gate: Gate) {
        self.recognizer = recognizer
        self.phrase = phrase
        self.gate = gate
    }

    /// The recognition of `audio` (the utterance `segment`) when it is the stop phrase,
    /// else nil. Longer utterances are not decoded.
    package func hears(_ audio: [Int16], in segment: Endpointer.Segment) -> Recognition? {
        guard segment.end - segment.start <= Self.longest else { return nil }
        let recognition = recognizer.recognize(audio, start: segment.start)
        let isPhrase = VoiceGrammar.clean(recognition.words.map(\.word)) == phrase
        return gate.take(recognition, isPhrase: isPhrase).isSure ? recognition : nil
    }
}
