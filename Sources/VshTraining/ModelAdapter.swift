import VshCore
import VshVoice

/// Adapts the speech model to a person's takes (`train`). The real one runs Debian's
/// sphinxtrain tools (`SphinxAdaptation` in VshAudio).
package protocol ModelAdapter {
    /// Adapts the stock acoustic model `base` to `takes` into `directory` (made anew; the
    /// caller puts it in place), saying each step to `progress`. Throws, naming the take
    /// or the tool, when it cannot; `directory` may then hold a partial model.
    func adapt(
        _ takes: [TrainingTakes.Take], base: String, into directory: String, progress: (String) -> Void
    ) throws -> AdaptedModel
}

/// Where `train` gets its `ModelAdapter`: VshApp provides the real one (sphinxtrain's
/// tools over the stock model); tests provide fakes.
package protocol TrainingServices: AnyObject {
    /// What adapts the speech model to the person, and the stock acoustic model it adapts.
    func modelAdapter() throws -> (adapter: ModelAdapter, base: String)
    /// How the model adapted into `directory` (from the stock model `base`) hears speech:
    /// against `grammar`, and as a voice. For calibrating on takes that model was not
    /// adapted on (`HeldOut`).
    func hearing(adaptedIn directory: String, base: String, grammar: CommandGrammar) throws -> Hearing
}

/// A model's ear: the recognition of an utterance against a grammar, and its speaker
/// score (`SpeakerScorer`: nil where it has no speech; throws when the models cannot be
/// read to score with).
package struct Hearing {
    package var recognize: ([Int16]) -> Recognition
    package var speakerScore: ([Int16]) throws -> Double?

    package init(recognize: @escaping ([Int16]) -> Recognition, speakerScore: @escaping ([Int16]) throws -> Double?) {
        self.recognize = recognize
        self.speakerScore = speakerScore
    }
}

extension Session {
    private enum TrainingKey: SessionKey { typealias Value = TrainingServices }

    /// What `train` adapts the model with; nil when vsh has none (tests, `--no-voice`).
    package var training: TrainingServices? {
        get { self[TrainingKey.self] }
        set { self[TrainingKey.self] = newValue }
    }
}
