import Foundation
import VshCore
import VshCommandFiles
import VshCommands

/// Command files in a temporary directory, loaded on top of the built-ins.
package final class CommandFileFixture {
    package let directory = TempDirectory("vsh-commands")
    package static let dictionary = Settings().modelDirectory + "/cmudict-en-us.dict"

    /// A good file with a list, alternatives, optional words, a number range and both
    /// kinds of action: the parsing tests' example and a fuzz seed.
    package static let paint = """
        # Painting, by voice.
        list colour: red | green | dark blue = navy

        command paint
            summary: Paint the wall
            say: paint [the] wall <colour>
            say: (colour | paint) it <colour> please
            run: quality low

        command stack
            say: stack <number 1-20> (boxes | crates)
            exec: /bin/echo {number}
        """

    package init(_ files: [String: String] = [:]) {
        for (name, text) in files { write(name, text) }
    }

    deinit { directory.remove() }

    package var commandsDirectory: String { directory.file("commands") }

    package func write(_ name: String, _ text: String) {
        directory.write(text, to: "commands/" + name)
    }

    package func files(cache: Bool = false) -> CommandFiles {
        CommandFiles(
            directories: [commandsDirectory], dictionaryPath: Self.dictionary,
            cachePath: cache ? directory.file("state/command-words") : nil)
    }

    package func load(checkAll: Bool = true) -> CommandFiles.Loaded {
        files().load(into: Builtins.registry(), checkAll: checkAll)
    }

    /// The problems as printed, with the directory left out of file names.
    package func problems(checkAll: Bool = true) -> [String] {
        load(checkAll: checkAll).problems.map(shorten)
    }

    package func shorten(_ problem: CommandFileProblem) -> String {
        problem.report.replacingOccurrences(of: commandsDirectory + "/", with: "")
    }
}

/// A shell over fakes whose user configuration has these command files.
package func customShell(_ files: [String: String]) -> ShellHarness {
    let harness = ShellHarness()
    for (name, text) in files { harness.directory.write(text, to: "config/commands/" + name) }
    harness.session.loadCommandFiles()
    return harness
}
