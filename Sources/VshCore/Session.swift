/// The state the shell and its commands share for one run of vsh.
public final class Session {
    public var registry: CommandRegistry
    public var settings: Settings
    public let paths: Paths
    public let history: CommandHistory
    /// Set by `exit`: the shell stops after the current command.
    public var exitRequested = false
    /// Command files, keyword commands and their state (CustomCommands/).
    public let custom = CustomCommandState()
    /// The transcript store at `paths.store`.
    public lazy var store = TranscriptStore(directory: paths.store)
    /// The ids the last `list` or `search` numbered, so `show 2` means its second line.
    public var listing: [String]?
    /// The recording the recorder made last and has not saved: what `save` saves.
    public var currentDraft: TranscriptStore.Draft?
    /// Microphone, files and recognisers for record and play; nil with `--no-voice`.
    public var voice: VoiceServices?
    /// Asks whether the person wants a long-running command (record, play) to stop:
    /// returns what they did ("Enter", "Ctrl-C"), or nil to go on. Set by the app.
    public var stopRequest: () -> String? = { nil }
    /// Listening at the prompt (`listen on|off`); nil when vsh does not listen there.
    public var listening: ListeningControl?

    public init(registry: CommandRegistry, settings: Settings, paths: Paths, history: CommandHistory) {
        self.registry = registry
        self.settings = settings
        self.paths = paths
        self.history = history
    }

    /// Saves a top-level setting into the user's `vsh.toml`.
    public func saveSetting(_ key: String, _ value: String) throws {
        do {
            try ConfigFile.setTopLevel(key: key, value: value, in: paths.userConfigFile)
        } catch {
            throw CommandError("could not save \(key) to \(paths.userConfigFile): \(error); the setting holds for this session only")
        }
    }
}
