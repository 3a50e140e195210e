import ArgumentParser
import VshCore
import VshCommandFiles

/// `reload`: reads the command files again and reports every problem in them (vsh
/// also reloads by itself when a file changes, but then repeats only new warnings).
package struct ReloadCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "reload", summary: "Read the command files again and check them",
        spokenForms: [SpokenForm("reload [commands]", runs: "reload")])

    package init() {}

    package func run(in context: CommandContext) throws {
        let session = context.session
        let loaded = session.loadCommandFiles(checkAll: true)
        // Said just above, at start, with nothing run since: not said again.
        let said = session.commandsRun == 1 ? session.custom.reportedAtStart : []
        for problem in loaded.problems where !said.contains(problem) { context.error.line(problem.report) }
        let files = loaded.files.count == 1 ? "1 file" : "\(loaded.files.count) files"
        context.confirm("\(loaded.commands.count) custom command(s) from \(files)")
        if loaded.errors > 0 {
            throw CommandError("\(loaded.errors) error(s) in the command files (above); fix them, then reload")
        }
    }
}
