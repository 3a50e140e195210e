import ArgumentParser
import VshCore

/// `exit`: leave vsh. In a script, the status says whether every command succeeded.
package struct ExitCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "exit", aliases: ["quit"], summary: "Leave vsh",
        spokenForms: [SpokenForm("exit", runs: "exit")], endsSession: true)

    package init() {}

    package func run(in context: CommandContext) throws {
        context.session.exitRequested = true
    }
}
