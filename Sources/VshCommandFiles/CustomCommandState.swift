import Foundation
import VshCore

/// What a session keeps for command files: the files and the registry they were
/// loaded on top of, the keyword state, and the programs `start:` left running.
package final class CustomCommandState {
    /// The command files; nil until `Session.loadCommandFiles` first runs.
    package var files: CommandFiles?
    /// The registry before any command file joined it (built-ins).
    var base: CommandRegistry?
    package var keywords = KeywordState()
    /// How deep `run:` actions are nested (a loop guard).
    var depth = 0
    var started: [Process] = []
    /// Whether the shell's hooks for command files are installed in the session.
    var hooked = false
    /// The problems said when vsh started, so a `reload` run before anything else does
    /// not print them a second time.
    package var reportedAtStart: [CommandFileProblem] = []

    package init() {}
}

extension Session {
    private enum Key: SessionKey { typealias Value = CustomCommandState }

    /// Command files, keyword commands and their state. Made on first use; the first
    /// `loadCommandFiles` hooks them into the shell.
    package var custom: CustomCommandState { part(Key.self) { CustomCommandState() } }

    /// Loads the command files into the registry, replacing those loaded before;
    /// returns what was loaded and the problems. `checkAll` repeats warnings already given.
    @discardableResult
    package func loadCommandFiles(checkAll: Bool = false) -> CommandFiles.Loaded {
        if !custom.hooked { installShellHooks() }
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
    package func reloadCommandFilesIfChanged() -> CommandFiles.Loaded? {
        guard let files = custom.files, files.changed() else { return nil }
        return loadCommandFiles()
    }

    /// What the person is told when command files changed and were loaded again: how many
    /// commands, theirs apart from the shipped ones.
    package func commandFilesChanged(_ loaded: CommandFiles.Loaded) -> String {
        "command files changed: " + (custom.files?.summary(of: loaded) ?? "\(loaded.commands.count) custom command(s) loaded")
    }

    /// What command files do around each line of the shell: reload when changed, let a
    /// listening keyword command take the line, and show it in the prompt.
    private func installShellHooks() {
        custom.hooked = true
        hooks.beforeLine.append { shell, interactive in
            // Before each line: reloads the command files when they changed, and says so.
            guard let loaded = shell.session.reloadCommandFilesIfChanged() else { return }
            for problem in loaded.problems { shell.error.line(problem.report) }
            if interactive {
                shell.error.line(shell.session.commandFilesChanged(loaded))
            }
        }
        hooks.absorb.append { shell, words, interactive, spoken in
            // While a keyword command listens, lines that are not keyword commands give
            // it their digits; false when the line should run as usual. A typed line that
            // names a command runs it: typing 'help' is not digits gone wrong.
            if !spoken, let first = words.first, shell.session.registry.lookup(first) != nil { return false }
            guard let note = shell.session.custom.keywords.absorb(words) else { return false }
            if interactive && !note.isEmpty { shell.error.line(note) }
            return true
        }
        let custom = custom
        hooks.prompt.append { prompt in custom.keywords.prompt(prompt) }
        hooks.endOfInput.append { shell in
            // Ctrl-D at `vsh [code 4]>` leaves the keyword command, not vsh.
            guard let note = custom.keywords.leave() else { return false }
            shell.error.line(note)
            return true
        }
    }
}
