import VshSpoken

/// The state the shell and its commands share for one run of vsh.
///
/// The core knows the registry, settings, paths and history. The modules above it (the
/// store, the voice pipeline, command files) keep their own per-session state here too,
/// each under a key of its own (`SessionKey`), and give it a typed property in an
/// extension, so that `session.store` reads as if it were declared here while the core
/// does not depend on the store.
package final class Session {
    package var registry: CommandRegistry
    package var settings: Settings
    package let paths: Paths
    package let history: CommandHistory
    /// Set by `exit`: the shell stops after the current command.
    package var exitRequested = false
    /// Commands the shell has started in this session (the one running included).
    package internal(set) var commandsRun = 0
    /// What the shell does around each line; modules above the core add to it.
    package var hooks = ShellHooks()
    /// Whether Ctrl-C was pressed since it was last asked, so that a program a command
    /// runs (`exec:`) is stopped. Set by the app at an interactive prompt (the line
    /// editor's signal pipe); until then it always answers false.
    package var interrupted: () -> Bool = { false }
    /// What the person has typed, not yet ended with Enter, while a long command runs
    /// (record, play, train): the terminal does not echo it then, so the command's status
    /// line shows it (`CommandContext.typed`). Set by the app at a prompt libedit edits;
    /// until then it is always "".
    package var typedWhileRunning: () -> String = { "" }
    /// The question a command asked at the prompt, which the next line answers.
    package var question: ShellQuestion?

    private var parts: [ObjectIdentifier: Any] = [:]

    package init(registry: CommandRegistry, settings: Settings, paths: Paths, history: CommandHistory) {
        self.registry = registry
        self.settings = settings
        self.paths = paths
        self.history = history
    }

    /// A module's state for this session, or nil when it has none yet.
    package subscript<Key: SessionKey>(key: Key.Type) -> Key.Value? {
        get { parts[ObjectIdentifier(key)] as? Key.Value }
        set { parts[ObjectIdentifier(key)] = newValue }
    }

    /// A module's state, made by `make` the first time it is asked for.
    package func part<Key: SessionKey>(_ key: Key.Type, orMake make: () -> Key.Value) -> Key.Value {
        if let value = self[key] { return value }
        let value = make()
        self[key] = value
        return value
    }

    /// Saves a top-level setting into the user's `vsh.toml`, and reads it back: a change
    /// the next start would not see is reported, never claimed.
    package func saveSetting(_ key: String, _ value: String) throws {
        let file = paths.userConfigFile
        do {
            try ConfigFile.setTopLevel(key: key, value: value, in: file)
        } catch {
            throw CommandError("could not save \(key) to \(file): \(error); the setting holds for this session only")
        }
        guard ConfigFile.topLevelString(key, in: file) == value else {
            throw CommandError("\(key) was written to \(file), but the file cannot be read back as setting it "
                + "(see the warnings when vsh starts); it holds for this session only until the file is fixed")
        }
    }
}

/// Names one module's state in a `Session`: an empty enum whose `Value` is the type kept.
package protocol SessionKey {
    associatedtype Value
}

/// What the shell asks of the modules above the core around each line. Command files
/// use these: a keyword command changes the prompt and takes the lines it listens for,
/// and changed command files are loaded again before a line runs.
package struct ShellHooks {
    /// Before each line, interactive or not: a chance to reload what changed.
    package var beforeLine: [(_ shell: Shell, _ interactive: Bool) -> Void] = []
    /// Returns true when it took the line's words, so the shell runs nothing.
    package var absorb: [(_ shell: Shell, _ words: [String], _ interactive: Bool, _ spoken: Bool) -> Bool] = []
    /// Changes the prompt text.
    package var prompt: [(String) -> String] = []
    /// Ctrl-D at the prompt. Each returns true when it took it (answered vsh's question
    /// "no", left a keyword command) and said so; the first that takes it ends the round,
    /// and vsh leaves only when none does: Ctrl-D leaves vsh only at a plain prompt.
    package var endOfInput: [(_ shell: Shell) -> Bool] = []
    /// After each line of the interactive prompt has run: the line, how it was heard (nil
    /// when typed), and whether it ran without an error.
    package var afterLine: [(_ line: String, _ spoken: SpokenLine?, _ succeeded: Bool) -> Void] = []
    /// When the interactive prompt ends.
    package var finished: [() -> Void] = []

    package init() {}
}
