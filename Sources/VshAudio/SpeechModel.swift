import Foundation
import VshCore
import VshTraining

/// The files of a PocketSphinx model directory, as Debian's pocketsphinx-en-us lays
/// them out (`voice.model` points at the directory), and the acoustic model vsh loads
/// from it: the stock one, or the one `train` adapted to the person (`AdaptedModel`).
package struct SpeechModel: Sendable, Equatable {
    package let directory: String
    /// Whether the adapted model is loaded, and if not why.
    package let adaptation: AdaptedModel.Use

    /// The model in `directory`, adapted when the store at `store` holds an adaptation of it.
    package init(directory: String, store: String? = nil) {
        self.directory = directory
        adaptation = store.map { AdaptedModel.use(store: $0, base: directory + "/en-us") } ?? .stock
    }

    /// The model in `directory` with the acoustic model adapted into `adapted`, not yet in
    /// use: one of the models `train` hears the takes with (`HeldOut`).
    package init(directory: String, adapted: String) {
        self.directory = directory
        adaptation = .adapted(AdaptedModel(base: directory + "/en-us", takes: 0, seconds: 0, recipe: "held out"),
                              directory: adapted)
    }

    /// The model vsh runs with: the directory `voice.model` names, adapted when `train`
    /// adapted it in the store at `paths.store`. Read afresh each time, since `train`
    /// changes it while vsh runs.
    package init(settings: Settings, paths: Paths) {
        self.init(directory: settings.modelDirectory, store: paths.store)
    }

    /// The acoustic model loaded: the adapted one when there is one in use.
    package var acousticModel: String { adaptation.acousticModel(stock: stockAcousticModel) }
    package var stockAcousticModel: String { directory + "/en-us" }
    /// Whether the acoustic model loaded is one adapted to the person.
    package var isAdapted: Bool {
        if case .adapted = adaptation { return true }
        return false
    }
    package var dictionary: String { directory + "/cmudict-en-us.dict" }
    package var languageModel: String { directory + "/en-us.lm.bin" }
    /// The phone language model of the phone loop that each word heard is checked against.
    package var phoneLanguageModel: String { directory + "/en-us-phone.lm.bin" }

    /// Whether the acoustic model and dictionary are there.
    package var isPresent: Bool {
        FileManager.default.fileExists(atPath: acousticModel + "/mdef")
            && FileManager.default.fileExists(atPath: dictionary)
    }

    /// `adapted for you (50 takes, 2026-11-23): STORE/model`, `stock`, or why an adaptation is set aside.
    package var adaptationDescription: String {
        switch adaptation {
        case .stock: "stock acoustic model (not adapted; 'train' adapts it to your voice)"
        case .adapted(let model, let dir):
            "adapted to your voice from \(model.takes) takes on \(model.created.prefix(10)) (\(dir))"
        case .setAside(let why): "stock acoustic model; the adaptation is set aside: \(why)"
        }
    }
}

/// What holds the settings and the store's paths, and so knows the speech model vsh runs
/// with: the session, the command line's context (VshApp's `AppContext`), the real audio
/// services. One definition of that model, `speechModel`, for all of them.
package protocol SpeechModelOwner {
    var settings: Settings { get }
    var paths: Paths { get }
}

extension SpeechModelOwner {
    /// The speech model vsh runs with, as the store has it now: read afresh each time,
    /// since `train` changes it while vsh runs (`SpeechModel(settings:paths:)`).
    package var speechModel: SpeechModel { SpeechModel(settings: settings, paths: paths) }
}

extension Session: SpeechModelOwner {}
