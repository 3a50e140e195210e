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
            recognizer: { grammar in
                PocketSphinxLog.send(to: paths.recognizerLog)
                let environment = ProcessInfo.processInfo.environment
                let lone = environment["VSH_LONE_WEIGHT"].map { $0 == "off" ? nil : $0 } ?? OpenGrammar.loneWeight
                return try SphinxCommandRecognizer(
                    settings: .init(model: SpeechModel(settings: settings, paths: paths),
                                    checksWords: environment["VSH_WORD_RATIOS"] == "1", loneWordWeight: lone,
                                    commonWordWeight: commonWordWeight(for: grammar, environment: environment)),
                    jsgf: grammar.jsgf, vocabulary: grammar.vocabulary, workDirectory: paths.state)
            },
            model: { SpeechModel(settings: settings, paths: paths).adaptationDescription })
    }

    /// The weight of the likeliest everyday words (`SphinxCommandRecognizer.Settings`):
    /// `OpenGrammar.commonWeight` for a grammar that weighs them
    /// (`CommandGrammar.weighsCommonWords`), none for the rest. Research may set another
    /// for every grammar with `VSH_COMMON_WEIGHT` (`off`: none for any).
    package static func commonWordWeight(for grammar: CommandGrammar, environment: [String: String]) -> String? {
        guard let asked = environment["VSH_COMMON_WEIGHT"], !asked.isEmpty else {
            return grammar.weighsCommonWords ? OpenGrammar.commonWeight : nil
        }
        return asked == "off" ? nil : asked
    }
}

extension AudioOpeners {
    /// ALSA capture devices and files decoded by libsndfile, at 16 kHz.
    package static let system = AudioOpeners(
        device: { try MicrophoneSource(device: $0) },
        file: { try FileAudioSource(path: $0) })
}
