import Foundation
import VshAudio
import VshAudioFiles
import VshCore
import VshStore
import VshVoice
import VshCommandFiles
import VshCommands

/// What every vsh command line needs first: paths, settings (with warnings), and the
/// voice pipeline those settings make.
struct AppContext: SpeechModelOwner {
    let environment: [String: String]
    let paths: Paths
    let settings: Settings
    let warnings: [String]

    init(global: GlobalOptions) throws {
        try self.init(store: global.store, config: global.config)
    }

    init(store: String?, config: String?) throws {
        environment = ProcessInfo.processInfo.environment
        paths = Paths.resolve(
            store: store, config: config, environment: environment,
            // Not argv[0], which says only `vsh` when it was found on PATH.
            executable: Paths.runningExecutable ?? CommandLine.arguments.first ?? "vsh")
        // Encrypted store audio (`encrypt on`) is read with this key wherever it is opened.
        KeyFile.current = KeyFile(path: paths.keyFile)
        var settings = Settings()
        var warnings: [String] = []
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: paths.config, isDirectory: &isDirectory), !isDirectory.boolValue {
            warnings.append("the configuration directory \(paths.config) is a file: vsh reads vsh.toml and commands/ "
                + "in a directory; give --config (or VSH_CONFIG) a directory; using defaults")
        }
        for file in [paths.shippedConfigFile, paths.userConfigFile].compactMap({ $0 }) {
            warnings += ConfigFile.apply(path: file, to: &settings)
        }
        self.settings = settings
        self.warnings = warnings
    }

    /// The voice pipeline with the real parts (SpeexDSP, PocketSphinx).
    var voiceFactory: VoiceFactory { .system(settings: settings, paths: paths) }

    /// A JSGF file's phrases, each its own command (`vsh listen --grammar FILE`).
    func grammar(file: String) throws -> JSGFGrammar {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw AudioError("cannot read the grammar file \(file)")
        }
        return try JSGFGrammar(text: text, file: file)
    }

    /// vsh's commands, built-in and from command files, as a fresh session has them;
    /// the command files' problems are told on standard error unless `tellingProblems`
    /// is false (the shell's completion).
    func registry(tellingProblems: Bool = true) -> CommandRegistry {
        let loaded = CommandFiles(paths: paths, settings: settings).load(into: Builtins.registry())
        for problem in loaded.problems where tellingProblems { FileDescriptorSink.standardError.line(problem.report) }
        return loaded.registry
    }
}
