import CALSA
import CPocketSphinx
import CSpeexDSP
import CVshShims
import Foundation
import VshCore

/// What `vsh --version --verbose` says about the audio and speech libraries: each is
/// called for real, so a broken installation shows here.
package enum LibraryReport {
    /// One line per library, and the model vsh would load from `modelDirectory`.
    package static func lines(model: SpeechModel) -> [ComponentVersion] {
        [alsa(), speexDSP(), pocketSphinx(model: model)]
    }

    static func alsa() -> ComponentVersion {
        let version = String(cString: snd_asoundlib_version())
        return ComponentVersion(library: "alsa", detail: "\(version) (\(libraryFile(ofSymbol: "snd_asoundlib_version")))")
    }

    static func speexDSP() -> ComponentVersion {
        // Create and free a preprocessor and a resampler: proves the library works.
        let state = speex_preprocess_state_init(160, 16000)
        var err: Int32 = 0
        let resampler = speex_resampler_init(1, 48000, 16000, 5, &err)
        let ok = state != nil && resampler != nil && err == 0
        if let state { speex_preprocess_state_destroy(state) }
        if let resampler { speex_resampler_destroy(resampler) }
        let path = libraryFile(ofSymbol: "speex_preprocess_state_init")
        let status = ok ? "" : " — FAILED to create a preprocessor"
        return ComponentVersion(
            library: "speexdsp", detail: "\(ComponentVersion.versionInFileName(path)) (\(path))\(status)")
    }

    static func pocketSphinx(model files: SpeechModel) -> ComponentVersion {
        let path = libraryFile(ofSymbol: "ps_init")
        let modelDirectory = files.directory
        let model = files.isPresent ? "model \(modelDirectory), \(files.adaptationDescription)" :
            "model \(modelDirectory) MISSING (install the Debian package pocketsphinx-en-us, or set voice.model)"
        // Parse the decoder configuration vsh would use (cheap: loads no model).
        let parsed = PocketSphinxConfig.parse(["-hmm", files.acousticModel, "-dict", files.dictionary]) != nil
        let status = parsed ? "" : " — FAILED to parse a decoder configuration"
        return ComponentVersion(
            library: "pocketsphinx",
            detail: "\(ComponentVersion.versionInFileName(path)) (\(path)); \(model)\(status)")
    }
}

/// The real file of the loaded shared library that defines `symbol`.
package func libraryFile(ofSymbol symbol: String) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard vsh_library_file(symbol, &buffer, buffer.count) == 0 else { return "unknown file" }
    return String(cString: buffer)
}
