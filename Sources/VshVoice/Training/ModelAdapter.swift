import VshCore

/// Adapts the speech model to a person's takes (`train`). The real one runs Debian's
/// sphinxtrain tools (`SphinxAdaptation` in VshAudio).
public protocol ModelAdapter {
    /// Adapts the stock acoustic model `base` to `takes` into `directory` (made anew; the
    /// caller puts it in place), saying each step to `progress`. Throws, naming the take
    /// or the tool, when it cannot; `directory` may then hold a partial model.
    func adapt(
        _ takes: [TrainingTakes.Take], base: String, into directory: String, progress: (String) -> Void
    ) throws -> AdaptedModel
}
