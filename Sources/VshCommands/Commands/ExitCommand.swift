import ArgumentParser
import VshCore
import VshStore
import VshVoice
import VshCommandFiles

/// `exit`: leave vsh. In a script, the status says whether every command succeeded.
public struct ExitCommand: ShellCommand {
    public static let info = CommandInfo(
        name: "exit", aliases: ["quit"], summary: "Leave vsh",
        spokenForms: [SpokenForm("exit", runs: "exit")], endsSession: true)

    public init() {}

    public func run(in context: CommandContext) throws {
        context.session.exitRequested = true
    }
}
