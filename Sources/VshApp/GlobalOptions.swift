import ArgumentParser

/// Options every vsh command line shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Transcript store directory (env VSH_STORE; default $XDG_DATA_HOME/vsh).", valueName: "dir"),
            completion: .directory)
    var store: String?

    @Option(name: .long, help: ArgumentHelp("Configuration directory (env VSH_CONFIG; default $XDG_CONFIG_HOME/vsh).", valueName: "dir"),
            completion: .directory)
    var config: String?

    @Flag(name: .customLong("no-voice"), help: "Do not open the microphone; typed commands only.")
    var noVoice = false

    @Option(name: .customLong("audio-in"), help: ArgumentHelp("The ALSA capture device (default: voice.device), or at the prompt an audio file played in as if it were the microphone.", valueName: "device|file"),
            completion: .file())
    var audioIn: String?

    @Option(name: .customLong("audio-out"), help: ArgumentHelp("The ALSA playback device (default: 'default').", valueName: "device"))
    var audioOut: String?

    @Flag(help: "Say more: the files vsh reads, and with --version the libraries it linked.")
    var verbose = false
}

/// What `vsh listen` and `vsh transcribe` take besides their own options: they read a
/// file, so the device options of the shell do not apply to them. The parser hands
/// `--config` to the root command wherever it stands on the line, so `directory` reads it
/// there too (`vsh listen --config DIR` and `vsh --config DIR listen` alike); the option is
/// declared here as well so that the subcommand's help shows it.
struct ToolOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Configuration directory (env VSH_CONFIG; default $XDG_CONFIG_HOME/vsh).", valueName: "dir"),
            completion: .directory)
    var config: String?

    /// The context of a subcommand of `root`: its `--config` (and the root's `--store`,
    /// whose adapted model it hears with).
    func app(root: VshMain) throws -> AppContext {
        try AppContext(store: root.global.store, config: config ?? root.global.config)
    }
}
