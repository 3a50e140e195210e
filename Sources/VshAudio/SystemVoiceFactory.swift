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
                let environment = ProcessInfo.processInfo.environment
                let lone = environment["VSH_LONE_WEIGHT"].map { $0 == "off" ? nil : $0 } ?? OpenGrammar.weight
                let common = environment["VSH_COMMON_WEIGHT"].flatMap { $0 == "off" || $0.isEmpty ? nil : $0 }
                return try SphinxCommandRecognizer(
                    settings: .init(model: SpeechModel(settings: settings, paths: paths),
                                    checksWords: environment["VSH_WORD_RATIOS"] == "1", loneWordWeight: lone,
                                    commonWordWeight: common),
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
