import Foundation
import VshCore
import VshCommands

/// A shell over fakes: built-in registry, a temporary config and state directory,
/// output captured in buffers.
package final class ShellHarness {
    package let directory: TempDirectory
    package let output = BufferSink()
    package let error = BufferSink()
    package let session: Session
    package let shell: Shell

    package init(settings: Settings = Settings(), registry: CommandRegistry = Builtins.registry()) {
        directory = TempDirectory("vsh-shell")
        let paths = Paths(
            store: directory.file("store"), config: directory.file("config"),
            shipped: nil, state: directory.file("state"))
        session = Session(
            registry: registry, settings: settings, paths: paths,
            history: CommandHistory(path: paths.historyFile, limit: settings.historySize))
        shell = Shell(session: session, output: output, error: error, style: .plain, errorStyle: .plain)
    }

    /// Runs `lines` as a script; returns the exit status.
    package func script(_ lines: [String], strict: Bool = false) -> Int32 {
        shell.runScript(reader: ScriptedLineReader(lines: lines), strict: strict)
    }

    deinit { directory.remove() }
}
