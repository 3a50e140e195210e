import Foundation

/// What a session keeps for command files: the files and the registry they were
/// loaded on top of, the keyword state, and the programs `start:` left running.
public final class CustomCommandState {
    /// The command files; nil until `Session.loadCommandFiles` first runs.
    public var files: CommandFiles?
    /// The registry before any command file joined it (built-ins).
    var base: CommandRegistry?
    public var keywords = KeywordState()
    /// How deep `run:` actions are nested (a loop guard).
    var depth = 0
    var started: [Process] = []

    public init() {}
}

extension Session {
    /// Loads the command files into the registry, replacing those loaded before;
    /// returns what was loaded and the problems. `checkAll` repeats warnings already given.
    @discardableResult
    public func loadCommandFiles(checkAll: Bool = false) -> CommandFiles.Loaded {
        let files = custom.files ?? CommandFiles(paths: paths, settings: settings)
        custom.files = files
        if custom.base == nil { custom.base = registry }
        let loaded = files.load(into: custom.base!, checkAll: checkAll)
        registry = loaded.registry
        var kinds: [String: CustomCommand.KeywordKind] = [:]
        for command in loaded.commands { if let kind = command.keyword { kinds[command.name] = kind } }
        custom.keywords.kinds = kinds
        return loaded
    }

    /// Loads the command files again if one of them (or a directory) changed since
    /// they were last loaded; nil when nothing changed or none were loaded.
    public func reloadCommandFilesIfChanged() -> CommandFiles.Loaded? {
        guard let files = custom.files, files.changed() else { return nil }
        return loadCommandFiles()
    }
}

extension Shell {
    /// Before each line: reloads the command files when they changed, and says so.
    func reloadChangedCommandFiles(interactive: Bool) {
        guard let loaded = session.reloadCommandFilesIfChanged() else { return }
        for problem in loaded.problems { error.line(problem.report) }
        if interactive {
            error.line("command files changed: \(loaded.commands.count) custom command(s) loaded")
        }
    }

    /// While a keyword command listens, lines that are not keyword commands give it
    /// their digits; returns false when the line should run as usual.
    func absorbedByKeyword(_ words: [String], interactive: Bool) -> Bool {
        guard let note = session.custom.keywords.absorb(words) else { return false }
        if interactive && !note.isEmpty { error.line(note) }
        return true
    }
}
