import Foundation

/// What `--audio-in` (or `voice.device`) names: a capture device, or an audio file that
/// stands in for the microphone. The one rule, used by the prompt's listener and by
/// `record` alike.
package enum AudioInput: Sendable, Equatable {
    case device(String)
    case file(String)

    /// An existing regular file, or a name that looks like a path (a `/`, or an audio
    /// file's extension), is a file; anything else is an ALSA device name.
    package static func resolve(_ name: String) -> AudioInput {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory), !isDirectory.boolValue {
            return .file(name)
        }
        let audio = ["wav", "flac", "ogg", "raw"].contains((name as NSString).pathExtension.lowercased())
        return name.contains("/") || audio ? .file(name) : .device(name)
    }
}

/// A capture device: audio until it is closed.
package protocol AudioDevice: AudioSource {
    func close()
}

/// How inputs are opened: ALSA and libsndfile in the product (`AudioOpeners.system` in
/// VshAudio), memory in tests.
package struct AudioOpeners: Sendable {
    package var device: @Sendable (String) throws -> AudioDevice
    package var file: @Sendable (String) throws -> AudioSource

    package init(device: @escaping @Sendable (String) throws -> AudioDevice,
                file: @escaping @Sendable (String) throws -> AudioSource) {
        self.device = device
        self.file = file
    }
}
