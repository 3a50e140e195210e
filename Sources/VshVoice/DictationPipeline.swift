import Foundation
import VshCore

/// Audio to running text: source → front end → endpointer → a streaming recogniser
/// (dictation or keyword spotting). Each utterance is decoded whole when the endpointer
/// hears its end. With `interim`, it is also decoded while it is spoken, for partial
/// results; the whole-utterance decode still gives the final words, because the live
/// decoder must guess the utterance's level from earlier ones (measured on librivox: a
/// sentence decoded first in a fresh decoder, 75% word errors live, 0% whole).
package final class DictationPipeline {
    package enum Event: Equatable {
        case speechStarted(Double)
        /// The words so far of the utterance under way.
        case partial(String)
        case utterance(Recognition, start: Double, end: Double)
        /// The stop phrase (`stop` decides): an utterance heard as the phrase on its own,
        /// not dictated, or the end of one dictated whole, after an `utterance` of the words
        /// before it. The person wants the recording to end.
        case stopPhrase(Recognition, start: Double, end: Double)
        /// An utterance of this many seconds is being decoded whole (it takes a moment:
        /// about a fifth of its length): for a progress note.
        case transcribing(Double)
    }

    /// Hears the phrase that ends a recording ("stop recording"): in short utterances
    /// before they are dictated (dictation rarely writes the phrase as said: "stop or
    /// the", "top floor do"), and at the end of the words dictated.
    package var stop: SpokenStop?

    let source: AudioSource
    let frontEnd: Preprocessor?
    let endpointer: Endpointer
    let recognizer: StreamingRecognizer
    /// Decode the front end's output rather than the raw audio.
    let useProcessed: Bool
    let interim: Bool

    package init(source: AudioSource, frontEnd: Preprocessor?, useProcessed: Bool, endpointer: Endpointer,
                recognizer: StreamingRecognizer, interim: Bool) {
        self.interim = interim
        self.source = source
        self.frontEnd = frontEnd
        self.useProcessed = useProcessed && frontEnd != nil
        self.endpointer = endpointer
        self.recognizer = recognizer
    }

    /// Reads the source to its end, or until `onAudio` or `onEvent` returns false.
    /// `onAudio` sees every chunk of raw audio as it arrives (for level meters, and to
    /// check for a stop request while nobody speaks). Stopped by `onAudio`, the pipeline
    /// still decodes what was being said up to that moment: a recording stopped by hand
    /// keeps its last words.
    package func run(chunk: Int = 480, onAudio: ([Int16]) -> Bool = { _ in true }, onEvent: (Event) -> Bool) throws {
        var feed = EndpointerFeed(source: source, frontEnd: frontEnd, endpointer: endpointer, chunk: chunk)
        var fed: Int? = nil  // stream sample up to which the recogniser has audio; nil between utterances
        var lastPartial = ""
        /// Leaves the live decoder idle, so the next run does not begin with this one's words.
        func settle() {
            if fed != nil { _ = recognizer.end() }
            fed = nil
        }
        /// Passes the endpointer's events on; false once `onEvent` says stop.
        func handle(_ events: [Endpointer.Event]) -> Bool {
            for event in events {
                switch event {
                case .speechStarted(let t):
                    if !onEvent(.speechStarted(t)) { return false }
                    guard interim else { break }
                    // The utterance starts with the padding before the speech.
                    let wanted = max(0, Int(t * Double(AudioFormat.sampleRate)) - endpointer.settings.paddingBefore * 16)
                    let first = endpointer.position - endpointer.audio(from: wanted).count
                    recognizer.begin(at: Double(first) / Double(AudioFormat.sampleRate))
                    fed = first
                    lastPartial = ""
                case .utterance(let segment):
                    settle()
                    let audio = useProcessed ? segment.processed ?? segment.samples : segment.samples
                    let length = segment.end - segment.start
                    if let heard = stop?.hears(audio, in: segment) {
                        if !onEvent(.stopPhrase(heard, start: segment.start, end: segment.end)) { return false }
                        continue
                    }
                    if !onEvent(.transcribing(length)) { return false }
                    let recognition = recognizer.recognize(audio, start: segment.start)
                    if let (said, phrase) = stop?.ends(recognition) {
                        if !said.words.isEmpty, !onEvent(.utterance(said, start: segment.start, end: segment.end)) { return false }
                        let start = phrase.words.first?.start ?? segment.start
                        if !onEvent(.stopPhrase(phrase, start: start, end: segment.end)) { return false }
                        continue
                    }
                    if !onEvent(.utterance(recognition, start: segment.start, end: segment.end)) { return false }
                }
            }
            return true
        }
        defer { settle() }
        while true {
            let (read, events) = try feed.step()
            if !read.isEmpty, !onAudio(Array(read)) {
                // Stopped: the speech under way ends here and is decoded whole.
                if handle(events) { _ = handle(endpointer.finish()) }
                return
            }
            if !handle(events) { return }
            if let from = fed {
                let partial = recognizer.feed(Array(endpointer.audio(from: from, processed: useProcessed)))
                fed = endpointer.position
                if partial != lastPartial {
                    lastPartial = partial
                    if !onEvent(.partial(partial)) { return }
                }
            }
            if read.isEmpty { return }
        }
    }
}
