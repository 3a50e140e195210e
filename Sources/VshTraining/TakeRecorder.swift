import VshCore
import VshVoice

/// Records the training script one phrase at a time: the endpointer cuts each phrase
/// as the person says it, `TakeCheck` judges it (its sound, and whether the model in use
/// hears it as another phrase of the script), a fit take is kept and the next phrase
/// is shown; an unfit one is asked for again (three times, then skipped). The person
/// types `r` to say the previous phrase again, `s` to skip one, and Enter (or Ctrl-C) to
/// stop; the takes kept so far stay, so `train` goes on from there. `r` goes back to the
/// phrase asked before (in this run).
package struct TakeRecorder {
    package enum Event: Equatable {
        /// Say phrase `index` (from 0) of `total`; `again` after an unfit take or a redo.
        case phrase(index: Int, total: Int, words: String, again: Bool)
        /// The loudness of the last 100 ms, dBFS.
        case level(Double)
        /// The take of phrase `index` was kept: its seconds of audio.
        case kept(index: Int, seconds: Double)
        /// The take was not fit: why.
        case unfit(String)
        /// Phrase `index` was skipped (asked, or three unfit takes).
        case skipped(index: Int)
    }

    package enum Ending: Equatable {
        case finished
        /// The person stopped (Enter, Ctrl-C, a typed word other than r or s).
        case stopped(String)
        case inputEnded
        /// More takes had stopped helping (`Enrolment`).
        case enough
    }

    /// Unfit takes of one phrase before it is skipped.
    package static let triesPerPhrase = 3

    let factory: VoiceFactory
    let takes: TrainingTakes

    package init(factory: VoiceFactory, takes: TrainingTakes) {
        self.factory = factory
        self.takes = takes
    }

    /// Records the phrases of `script` at `indices` (those not recorded yet), in order,
    /// until the last, a stop, or the end of `source`. Returns how it ended and the
    /// position in `indices` to go on from.
    package func run(
        source: AudioSource, script: [String], asking indices: [Int], shouldStop: () -> String?,
        isEnough: () -> Bool = { false }, event: (Event) -> Void
    ) throws -> (ending: Ending, next: Int) {
        guard !indices.isEmpty else { return (.finished, 0) }
        // The raw audio is kept: the front end's noise suppression is for noisy rooms,
        // and a take that needs it is asked for again.
        let endpointer = factory.endpointer()
        var feed = EndpointerFeed(source: source, frontEnd: nil, endpointer: endpointer, chunk: 480)
        var position = 0
        var index: Int { indices[position] }
        var unfit = 0
        var meter = LevelMeter()
        // Each take is heard against the script's phrases with the model in use: one heard
        // surely as another phrase says other words, and is asked for again.
        let ear = try factory.recognizer(for: HeldOut.phraseGrammar(phrases: script))
        func ask(again: Bool) {
            event(.phrase(index: index, total: script.count, words: script[index], again: again))
        }
        func advance() -> Bool {
            position += 1
            unfit = 0
            if position == indices.count { return false }
            ask(again: false)
            return true
        }
        ask(again: false)
        while true {
            let (read, events) = try feed.step()
            if read.isEmpty && events.isEmpty { return (.inputEnded, position) }
            meter.add(read) { event(.level($0)) }
            switch shouldStop() {
            case nil:
                break
            case "r":
                position = max(0, position - 1)
                unfit = 0
                ask(again: true)
                continue
            case "s":
                event(.skipped(index: index))
                if !advance() { return (.finished, position) }
                continue
            case let reason?:
                return (.stopped(reason), position)
            }
            for case .utterance(let segment) in events {
                let words = script[index].split(separator: " ").count
                let speech = segment.speechEnd - segment.start - Double(endpointer.settings.paddingBefore) / 1000
                let problem = TakeCheck.problem(segment.samples, words: words, speech: speech, padded: true)
                    ?? TakeCheck.otherPhrase(ear.recognize(segment.samples, start: 0), words: script[index]).map {
                        "it sounded like \"\($0)\": say \"\(script[index])\""
                    }
                if let problem {
                    event(.unfit(problem))
                    unfit += 1
                    if unfit < Self.triesPerPhrase {
                        ask(again: true)
                        continue
                    }
                    event(.skipped(index: index))
                } else {
                    try takes.save(segment.samples, words: script[index], name: TrainingTakes.scriptName(index))
                    event(.kept(index: index, seconds: Double(segment.samples.count) / Double(AudioFormat.sampleRate)))
                }
                if isEnough() { return (.enough, position + 1) }
                if !advance() { return (.finished, position) }
            }
        }
    }
}
