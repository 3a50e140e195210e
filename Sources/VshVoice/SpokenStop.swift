import VshCore

/// The phrase that ends a recording ("stop recording"), said while dictating: the one
/// place that decides whether an utterance stops a recording (`DictationPipeline` asks it
/// of each, and reports the stop as `.stopPhrase`). Each short utterance is heard as the
/// prompt hears a command: decoded against the stop command's spoken forms and a thousand
/// everyday words (`OpenGrammar`, `OtherWords`), with `Confidence`, so that "stop
/// reporting" or "top floor" is other words, not the stop. (The keyword spotter used
/// before lost the phrase said slowly: its phone loop beat the phrase at 110–140 words a
/// minute whatever the threshold.) Only the whole phrase stops: "stop" alone, also a form
/// of the command, competes with it but stops nothing (in an hour of other people's
/// single words it stopped 7 times, and caught under half of real people's "stop").
/// research/recognition/STOP.md has the figures. An utterance dictated whole whose words
/// end in the phrase stops too, after the words before it.
package struct SpokenStop {
    /// The recogniser of the stop's grammar (`VoiceFactory.recognizer(for:)`) and the gate
    /// the phrase must pass: the prompt's, for the model it loaded (`VoiceFactory.gate(for:)`);
    /// nil when it could not be loaded, and only dictated words are looked at.
    package let heard: (recognizer: CommandRecognizer, gate: Gate)?
    /// The words that stop.
    package let phrase: [String]

    /// The longest utterance (seconds, with the endpointer's padding) the phrase is looked
    /// for in: said on its own, as a command, not inside a sentence. "stop recording" at
    /// 110 words a minute is a 2.2 s utterance.
    package static let longest = 3.0

    /// `recognizer` hears a grammar with `phrase` and its rivals.
    package init(recognizer: CommandRecognizer, phrase: [String], gate: Gate) {
        self.heard = (recognizer, gate)
        self.phrase = phrase
    }

    /// Without the stop's recogniser: only dictated words that end in `phrase` stop.
    package init(phrase: [String]) {
        self.heard = nil
        self.phrase = phrase
    }

    /// The recognition of `audio` (the utterance `segment`) when it is the stop phrase,
    /// else nil. Longer utterances are not decoded.
    package func hears(_ audio: [Int16], in segment: Endpointer.Segment) -> Recognition? {
        guard let heard, segment.end - segment.start <= Self.longest else { return nil }
        let recognition = heard.recognizer.recognize(audio, start: segment.start)
        let isPhrase = VoiceGrammar.clean(recognition.words.map(\.word)) == phrase
        return heard.gate.take(recognition, isPhrase: isPhrase).isSure ? recognition : nil
    }

    /// A dictated utterance whose words end in the phrase: the words said before it, and
    /// the phrase; nil for any other.
    package func ends(_ dictated: Recognition) -> (said: Recognition, stop: Recognition)? {
        guard !phrase.isEmpty, dictated.words.map(\.word).suffix(phrase.count) == ArraySlice(phrase) else { return nil }
        var said = dictated
        said.words.removeLast(phrase.count)
        return (said, Recognition(words: Array(dictated.words.suffix(phrase.count)), confidence: dictated.confidence))
    }
}
