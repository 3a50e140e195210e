/// The state the shell and its commands share for one run of vsh.
public final class Session {
    public var registry: CommandRegistry
    public var settings: Settings
    public let paths: Paths
    public let history: CommandHistory
    /// Set by `exit`: the shell stops after the current command.
    public var exitRequested = false

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
