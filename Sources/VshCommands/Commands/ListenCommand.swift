import ArgumentParser
import VshCore
import VshListening

/// `listen [on|off|always|wake|key]`: turns listening at the prompt on or off, sets when
/// spoken commands are taken for the session (`voice.attention`), or says what it does.
/// Off, vsh still hears, but only the wake phrase (`voice.wake_phrase`) turns it back on.
/// (Not `vsh listen --from FILE`, the command-line tool in VshApp.)
package struct ListenCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "listen", summary: "Turn listening on or off, set when commands are taken (always, wake, key), or show it",
        spokenForms: [SpokenForm("listen (on | off)", runs: "listen $1")],
        arguments: [.values(Switch.allCases.map(\.rawValue))])

    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off, always, wake, key
    }

    @Argument(help: ArgumentHelp(
        "on or off; or always, wake (after the wake phrase) or key (after Ctrl-T), for this session. Without it, shows whether vsh listens.",
        valueName: "on|off|always|wake|key"))
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
        switch state {
        case .on, .off: context.output.line(try control.setListening(state == .on))
        case .always: context.output.line(control.setAttention(.always))
        case .wake: context.output.line(control.setAttention(.wake))
        case .key: context.output.line(control.setAttention(.key))
        }
    }
}
