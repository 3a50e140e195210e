import Foundation
import VshCore
import VshVoice

/// The speech model `train` adapted to this person and microphone: a copy of the
/// acoustic model in the store's `model/` directory, never the system's, with
/// `adaptation.json` saying what it was made from. vsh loads it in place of the stock
/// acoustic model while it was made from the model vsh is set to (`voice.model`); after
/// an update of that model it is set aside until `train --again` adapts anew.
package struct AdaptedModel: Codable, Sendable, Equatable {
    /// The stock acoustic model it was adapted from, and what its files looked like then.
    package var base: String
    package var baseFingerprint: String
    /// How many takes, and how many seconds of speech, it was adapted on.
    package var takes: Int
    package var seconds: Double
    /// `mllr+map`: the recipe, so a better one can tell what to redo.
    package var recipe: String
    /// When it was made (ISO 8601).
    package var created: String
    /// CPU seconds the adaptation's tools took.
    package var cpuSeconds: Double?
    /// What `train`'s check of the takes set: the gates and how the takes were heard.
    package var gates = Gates()
    /// The takes from use it was adapted on (`LearningRound`).
    package var learnedFromUse: [String]?

    /// The gate's part that this model sets (`Gate.Calibration`).
    package var calibration: Gate.Calibration { gates.calibration }

    package init(base: String, takes: Int, seconds: Double, recipe: String, created: Date = Date()) {
        self.base = base
        self.baseFingerprint = Self.fingerprint(of: base)
        self.takes = takes
        self.seconds = seconds
        self.recipe = recipe
        self.created = ISO8601DateFormatter().string(from: created)
    }

    /// This model, with what the adaptation `made` says of itself (its base, takes, recipe
    /// and time) and everything `train` set on this one kept: the gates, the held-out
    /// figures, the takes left out and learnt from use.
    package func adaptedAgain(as made: AdaptedModel) -> AdaptedModel {
        var next = self
        next.base = made.base
        next.baseFingerprint = made.baseFingerprint
        next.takes = made.takes
        next.seconds = made.seconds
        next.recipe = made.recipe
        next.created = made.created
        next.cpuSeconds = made.cpuSeconds
        return next
    }

    /// The name of the adapted model's directory in the store (what `train reset` trashes).
    package static let directoryName = "model"
    /// `adaptation.json` keeps the gates' fields beside the model's own, as it did before
    /// they were one value: manifests written earlier read the same.
    private enum CodingKeys: String, CodingKey {
        case base, baseFingerprint, takes, seconds, recipe, created, cpuSeconds, learnedFromUse
    }

    package init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        base = try container.decode(String.self, forKey: .base)
        baseFingerprint = try container.decode(String.self, forKey: .baseFingerprint)
        takes = try container.decode(Int.self, forKey: .takes)
        seconds = try container.decode(Double.self, forKey: .seconds)
        recipe = try container.decode(String.self, forKey: .recipe)
        created = try container.decode(String.self, forKey: .created)
        cpuSeconds = try container.decodeIfPresent(Double.self, forKey: .cpuSeconds)
        learnedFromUse = try container.decodeIfPresent([String].self, forKey: .learnedFromUse)
        gates = try Gates(from: decoder)
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(baseFingerprint, forKey: .baseFingerprint)
        try container.encode(takes, forKey: .takes)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(recipe, forKey: .recipe)
        try container.encode(created, forKey: .created)
        try container.encodeIfPresent(cpuSeconds, forKey: .cpuSeconds)
        try container.encodeIfPresent(learnedFromUse, forKey: .learnedFromUse)
        try gates.encode(to: encoder)
    }

    /// The adapted model's directory in the store at `store`.
    package static func directory(store: String) -> String { store + "/" + directoryName }
    static let manifestName = "adaptation.json"
    /// The files PocketSphinx loads from an acoustic model directory.
    package static let modelFiles = ["mdef", "means", "variances", "transition_matrices", "noisedict", "feat.params"]

    /// Which acoustic model vsh loads.
    package enum Use: Equatable, Sendable {
        /// The stock model: nothing adapted.
        case stock
        /// The adapted model in `directory`.
        case adapted(AdaptedModel, directory: String)
        /// An adaptation that is not loaded, and why.
        case setAside(String)

        /// The acoustic model directory to load: the adapted one when it is in use, else `stock`.
        package func acousticModel(stock: String) -> String {
            if case .adapted(_, let dir) = self { return dir }
            return stock
        }
    }

    /// The model to load for the stock acoustic model `base` and the store at `store`.
    package static func use(store: String, base: String) -> Use {
        let dir = directory(store: store)
        guard let data = FileManager.default.contents(atPath: dir + "/" + manifestName) else { return .stock }
        guard let model = try? JSONDecoder().decode(AdaptedModel.self, from: data) else {
            return .setAside("\(dir)/\(manifestName) is unreadable; 'train --again' adapts anew")
        }
        let missing = modelFiles.filter { !FileManager.default.fileExists(atPath: dir + "/" + $0) }
            + (["sendump", "mixture_weights"].contains { FileManager.default.fileExists(atPath: dir + "/" + $0) } ? [] : ["sendump"])
        if !missing.isEmpty {
            return .setAside("the adapted model in \(dir) lacks \(missing.joined(separator: ", ")); 'train --again' adapts anew")
        }
        // A manifest from before the fingerprint kept nanoseconds matches to the second.
        let matches = [fingerprint(of: base), fingerprint(of: base, wholeSeconds: true)].contains(model.baseFingerprint)
        guard standardised(model.base) == standardised(base), matches else {
            return .setAside("the adapted model was made from another speech model than \(base) (it was updated or voice.model changed); 'train --again' adapts it anew")
        }
        return .adapted(model, directory: dir)
    }

    /// The acoustic model directory to load: the adapted one when it is in use.
    package static func acousticModel(store: String, base: String) -> String {
        use(store: store, base: base).acousticModel(stock: base)
    }

    /// Writes the manifest into `directory`, last: a model without one is never loaded.
    package func write(into directory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: directory + "/" + Self.manifestName)
    }

    /// Sizes and modification times (to the nanosecond: a file rewritten within the same
    /// second changes it too) of the base model's files: changes when the package that
    /// holds them is updated. `wholeSeconds`: as manifests written before kept it.
    static func fingerprint(of base: String, wholeSeconds: Bool = false) -> String {
        (modelFiles + ["sendump", "mixture_weights"]).compactMap { name -> String? in
            var info = stat()
            guard stat(base + "/" + name, &info) == 0 else { return nil }
            let time = "\(info.st_mtim.tv_sec)" + (wholeSeconds ? "" : String(format: ".%09d", info.st_mtim.tv_nsec))
            return "\(name):\(info.st_size):\(time)"
        }.joined(separator: ",")
    }

    private static func standardised(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
