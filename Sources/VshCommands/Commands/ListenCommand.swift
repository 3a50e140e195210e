import ArgumentParser
import VshCore
import VshListening

/// `listen [on|off]`: turns listening at the prompt on or off, or says what it does.
/// Off, vsh still hears, but only the wake phrase (`voice.wake_phrase`) turns it back on.
/// (Not `vsh listen --from FILE`, the command-line tool in VshApp.)
package struct ListenCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "listen", summary: "Turn listening at the prompt on or off, or show whether vsh listens",
        spokenForms: [SpokenForm("listen (on | off)", runs: "listen $1")],
        arguments: [.values(Switch.allCases.map(\.rawValue))])

    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @Argument(help: ArgumentHelp("on or off. Without it, shows whether vsh listens.", valueName: "on|off"))
    var state: Switch?

    package init() {}

    package func run(in context: CommandContext) throws {
        guard let control = context.session.listening else {
            let why = context.session.notListeningBecause
            if state == nil {
                context.output.line("not listening: " + (why ?? "vsh listens only at an interactive prompt with an audio input (--audio-in DEVICE or FILE)"))
                return
            }
            throw CommandError(why ?? "vsh listens only at an interactive prompt with an audio input; start it at a terminal with --audio-in DEVICE or FILE, without --no-voice")
        }
        guard let state else {
            context.output.line(control.status)
            return
        }
        context.output.line(try control.setListening(state == .on))
    }
}
