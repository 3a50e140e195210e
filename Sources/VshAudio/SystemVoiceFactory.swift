import Foundation
import VshCore
import VshVoice

extension VoiceFactory {
    /// The voice pipeline with the real parts: SpeexDSP for the front end, PocketSphinx (its
    /// log in `paths.state`) for command recognition.
    package static func system(settings: Settings, paths: Paths) -> VoiceFactory {
        VoiceFactory(
            settings: settings,
            frontEnd: { denoise, gainControl in
                SpeexFrontEnd(settings: .init(denoise: denoise, gainControl: gainControl))
            },
            recognizer: { jsgf, vocabulary in
                PocketSphinxLog.send(to: paths.recognizerLog)
                return try SphinxCommandRecognizer(
                    settings: .init(model: SpeechModel(settings: settings, paths: paths),
                                    checksWords: ProcessInfo.processInfo.environment["VSH_WORD_RATIOS"] == "1"),
                    jsgf: jsgf, vocabulary: vocabulary, workDirectory: paths.state)
            },
            model: { SpeechModel(settings: settings, paths: paths).adaptationDescription })
    }
}

extension AudioOpeners {
    /// ALSA capture devices and files decoded by libsndfile, at 16 kHz.
    package static let system = AudioOpeners(
        device: { try MicrophoneSource(device: $0) },
        file: { try FileAudioSource(path: $0) })
}
