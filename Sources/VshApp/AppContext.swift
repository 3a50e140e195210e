import Foundation
import VshAudio
import VshCore
import VshStore
import VshVoice
import VshCommandFiles
import VshCommands

/// What every vsh command line needs first: paths, settings (with warnings), registry.
struct AppContext {
    let environment: [String: String]
    let paths: Paths
    let settings: Settings
    let warnings: [String]

    init(global: GlobalOptions) throws {
        environment = ProcessInfo.processInfo.environment
        paths = Paths.resolve(
            store: global.store, config: global.config, environment: environment,
            executable: CommandLine.arguments.first ?? "vsh")
        // Encrypted store audio (`encrypt on`) is read with this key wherever it is opened.
        KeyFile.current = KeyFile(path: paths.keyFile)
        var settings = Settings()
        var warnings: [String] = []
        for file in [paths.shippedConfigFile, paths.userConfigFile].compactMap({ $0 }) {
            warnings += ConfigFile.apply(path: file, to: &settings)
        }
        self.settings = settings
        self.warnings = warnings
    }
}

/// The voice path's real parts, wired: grammar from the registry (or a JSGF file),
/// PocketSphinx recogniser, SpeexDSP front end, endpointer.
struct VoiceSetup {
    let recognizer: SphinxCommandRecognizer
    let interpret: ([String]) -> (command: String, line: String)?
    let settings: Settings

    init(app: AppContext, grammarFile: String?) throws {
        settings = app.settings
        PocketSphinxLog.send(to: app.paths.state + "/pocketsphinx.log")
        let jsgf: String
        let vocabulary: Set<String>
        if let grammarFile {
            guard let text = try? String(contentsOfFile: grammarFile, encoding: .utf8) else {
                throw AudioError("cannot read the grammar file \(grammarFile)")
            }
            jsgf = text
            vocabulary = JSGFWords.words(in: text)
            interpret = { words in
                let phrase = words.joined(separator: " ")
                return (phrase, phrase)
            }
        } else {
            let loaded = CommandFiles(paths: app.paths, settings: app.settings).load(into: Builtins.registry())
            for problem in loaded.problems { FileDescriptorSink.standardError.line(problem.report) }
            let grammar = VoiceGrammar(registry: loaded.registry)
            jsgf = grammar.jsgf
            vocabulary = grammar.vocabulary
            interpret = grammar.interpret
        }
        recognizer = try SphinxCommandRecognizer(
            settings: .init(modelDirectory: app.settings.modelDirectory),
            jsgf: jsgf, vocabulary: vocabulary, workDirectory: app.paths.state)
    }

    func pipeline(source: AudioSource, threshold: Double) -> VoicePipeline {
        let use: VoicePipeline.FrontEndUse = settings.denoise == .auto && !settings.gainControl
            ? .belowSNR(Settings.denoiseBelowSNR) : .always
        return VoicePipeline(
            source: source, frontEnd: Self.frontEnd(settings), frontEndUse: use, endpointer: Self.endpointer(settings),
            recognizer: recognizer, threshold: threshold, interpret: interpret)
    }

    /// SpeexDSP, when noise suppression or gain control is on.
    static func frontEnd(_ settings: Settings) -> Preprocessor? {
        let denoise = settings.denoise != .off
        guard denoise || settings.gainControl else { return nil }
        return SpeexFrontEnd(settings: .init(denoise: denoise, gainControl: settings.gainControl))
    }

    static func endpointer(_ settings: Settings) -> Endpointer {
        var endpointing = Endpointer.Settings()
        endpointing.hangover = settings.hangover
        return Endpointer(settings: endpointing)
    }
}
