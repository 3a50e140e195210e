import Foundation
import VshCore
import VshStore
import VshVoice

/// The files of a PocketSphinx model directory, as Debian's pocketsphinx-en-us lays
/// them out (`voice.model` points at the directory).
public struct SpeechModel: Sendable, Equatable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public var acousticModel: String { directory + "/en-us" }
    public var dictionary: String { directory + "/cmudict-en-us.dict" }
    public var phoneLanguageModel: String { directory + "/en-us-phone.lm.bin" }
    public var languageModel: String { directory + "/en-us.lm.bin" }

    /// Whether the acoustic model and dictionary are there.
    public var isPresent: Bool {
        FileManager.default.fileExists(atPath: acousticModel + "/mdef")
            && FileManager.default.fileExists(atPath: dictionary)
    }
}
