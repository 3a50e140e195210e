import ArgumentParser
import Foundation
import VshAudio
import VshCore
import VshLineEditor
import VshStore
import VshVoice
import VshCommandFiles
import VshCommands
import VshTraining
import VshListening

/// The `vsh` command line. With no command it is the shell: an interactive prompt on a
/// terminal, a script reader when standard input is a file or pipe.
package struct VshMain: ParsableCommand {
    package static let version = "0.1.0"

    /// `--help`, the manual page (`make man`) and the completion scripts are all made
    /// from this, and the commands of the prompt from their own `CommandInfo`.
    package static let configuration = CommandConfiguration(
        commandName: "vsh",
        abstract: "A voice shell: type or speak commands, keep voice notes as plain files.",
        // The parser would write `-- [<command> ...] <subcommand>`: the command needs no
        // `--` (`arguments(_:)`), and none is required.
        usage: """
            vsh [<options>] [<command> [<argument> ...]]
              vsh listen --from <file> [<options>]
              vsh transcribe <file> ... [<options>]
            """,
        discussion: overview + """


            Commands at the prompt (type or say them; 'help NAME' shows how):

            """ + promptCommands,
        subcommands: [ListenSubcommand.self, TranscribeSubcommand.self])

    /// What vsh is, for `--help` and the manual page.
    static let overview = """
        At a terminal vsh shows the vsh> prompt. With standard input from a file or pipe it \
        runs the lines as a script (no prompt; '#' starts a comment) and exits 0 when every \
        command succeeded, 1 otherwise. A command of the prompt given as the first argument \
        runs as with -c: 'vsh list', 'vsh help quality'; a word that is no command gets "did you mean".
        """

    /// One entry per built-in command: its names, then its summary, whose later lines
    /// line up under its first (as `git help -a` lists commands). Wrapped to 79 columns:
    /// the parser leaves lines that fit the terminal as they are (80 columns when it
    /// cannot tell).
    static var promptCommands: String {
        Builtins.all.map { entry in
            let info = entry.info
            let names = ([info.name] + info.aliases).joined(separator: ", ")
            return hanging("  " + names.padding(toLength: 14, withPad: " ", startingAt: 0), info.summary, width: 79)
        }.joined(separator: "\n")
    }

    /// `label`, then `text` wrapped at `width` columns, its later lines indented as far
    /// as the label.
    static func hanging(_ label: String, _ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = label
        var lineHasWords = false
        for word in text.split(separator: " ") {
            if lineHasWords && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: label.count)
                lineHasWords = false
            }
            line += (lineHasWords ? " " : "") + word
            lineHasWords = true
        }
        return (lines + [line]).joined(separator: "\n")
    }

    @OptionGroup var global: GlobalOptions

    @Option(name: .customShort("c"), help: ArgumentHelp("Run these commands (separated by ';') and exit.", valueName: "commands"))
    var commands: String?

    @Flag(help: "In a script or -c, stop at the first command that fails.")
    var strict = false

    @Flag(help: "Show the version.")
    var version = false

    @Flag(help: "With --audio-in FILE at the prompt, play the file into the voice pipeline as fast as it decodes, not in real time.")
    var fast = false

    /// `vsh list`, `vsh show 2`: a command of the prompt and its words, run as with `-c`
    /// (`arguments(_:)` turns them into `-c` before parsing; here so that `--help` and the
    /// completion scripts name them, and the shell offers them: `ShellCompletion`).
    @Argument(
        parsing: .postTerminator,
        help: ArgumentHelp("A command of the prompt and its arguments, run as with -c (vsh list, vsh help quality).",
                           valueName: "command"),
        completion: .custom(ShellCompletion.promptLine))
    var line: [String] = []

    /// `make man`: the manual page (`Manual`), made from these definitions.
    @Flag(name: .customLong("generate-manual"), help: .hidden)
    var generateManual = false

    package init() {}

    package mutating func validate() throws {
        guard !line.isEmpty else { return }
        // `arguments(_:)` made a prompt command into -c; words left over came after -c or --.
        guard commands == nil else {
            throw ValidationError("'\(line.joined(separator: " "))' follows -c COMMANDS; give the commands in -c's one argument ('-c \"list; show 1\"') or without -c ('vsh list')")
        }
        commands = line.map(Words.quote).joined(separator: " ")
    }

    /// Parses the command line and runs it. Mistakes in the command line are reported by
    /// the parser, with usage; a failure while running is `error: …` as in the shell.
    package static func start(_ arguments: [String]) -> Never {
        if arguments.count == 2, arguments[0] == "--generate-completion-script",
           let shell = CompletionShell(rawValue: arguments[1]) {
            FileDescriptorSink.standardOutput.write(ShellCompletion.script(for: shell))
            exit()
        }
        var command: ParsableCommand
        do {
            command = try parseAsRoot(Self.arguments(arguments))
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
            exit()
        } catch let error as ExitCode {
            exit(withError: error)
        } catch {
            if exitCode(for: error) == .success || error is CleanExit { exit(withError: error) }
            FileDescriptorSink.standardError.line("error: \(error)")
            exit(withError: ExitCode.failure)
        }
    }

    /// `vsh list`, `vsh record --from x.wav`, `vsh help quality`: a word where the command
    /// line expects options is run as if given with `-c` (the words quoted as they were),
    /// so a person who types a prompt command from their shell gets what the prompt gives:
    /// the command, its help, or "did you mean" for a word that is none (the shell knows
    /// the command files' commands too), never "unexpected argument". The command line's
    /// own subcommands keep their meaning: `listen`, `transcribe`, and `help` alone or
    /// before one of them (`vsh help listen`).
    package static func arguments(_ arguments: [String]) -> [String] {
        if arguments.contains("-c") { return arguments }  // commands given already: the parser says what is extra
        guard let i = promptCommandStart(arguments) else { return arguments }
        let line = arguments[i...].map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: " ")
        return Array(arguments[..<i]) + ["-c", line]
    }

    /// Where a command of the prompt starts in `arguments`: the first word that is no
    /// option or option value, nor the command line's own subcommand (`listen`,
    /// `transcribe`, `help` alone or before one of them); nil when there is none.
    static func promptCommandStart(_ arguments: [String]) -> Int? {
        let valued: Set<String> = ["--store", "--config", "--audio-in", "--audio-out", "-c", "--generate-completion-script"]
        let subcommands = Set(configuration.subcommands.compactMap { $0.configuration.commandName })
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            if word == "--" { return nil }
            if word.hasPrefix("-") {
                i += valued.contains(word) ? 2 : 1
                continue
            }
            if subcommands.contains(word) { return nil }
            if word == "help" {
                let next = arguments[(i + 1)...].first { !$0.hasPrefix("-") }
                if next.map(subcommands.contains) ?? true { return nil }
            }
            return i
        }
        return nil
    }

    package mutating func run() throws {
        if generateManual { return FileDescriptorSink.standardOutput.write(try Manual.page()) }
        let app = try AppContext(global: global)
        let (environment, paths, settings, warnings) = (app.environment, app.paths, app.settings, app.warnings)
        let verbose = global.verbose
        let stdout = FileDescriptorSink.standardOutput
        let stderr = FileDescriptorSink.standardError

        if version {
            stdout.line("vsh \(Self.version)")
            if verbose {
                for line in LibraryReport.lines(model: app.speechModel) + [LineEditorReport.line()] {
                    stdout.line("  \(line.library.padding(toLength: 13, withPad: " ", startingAt: 0))\(line.detail)")
                }
            }
            return
        }

        for warning in warnings { stderr.line("warning: \(warning)") }
        if verbose {
            stderr.line("config: \(paths.shippedConfigFile ?? "(no shipped config found)"), then \(paths.userConfigFile)")
            stderr.line("store: \(paths.store)")
            stderr.line("speech model: \(app.speechModel.adaptationDescription)")
            stderr.line("history: \(paths.historyFile)")
        }

        let history = CommandHistory(path: paths.historyFile, limit: settings.historySize)
        if let problem = history.problem { stderr.line("warning: \(problem)") }
        let session = Session(registry: Builtins.registry(), settings: settings, paths: paths, history: history)
        let problems = session.loadCommandFiles().problems
        for problem in problems { stderr.line(problem.report) }
        session.custom.reportedAtStart = problems
        // With --no-voice no device opens, but files are still recorded (`record --from`).
        let services = SystemAudioServices(
            settings: settings, paths: paths, input: global.audioIn, output: global.audioOut, devices: !global.noVoice)
        session.voice = services
        session.training = services
        let shell = Shell(
            session: session, output: stdout, error: stderr,
            style: Style.detect(isTerminal: stdout.isTerminal, environment: environment),
            errorStyle: Style.detect(isTerminal: stderr.isTerminal, environment: environment))

        let status: Int32
        let scripted = "vsh listens only at its interactive prompt, not in 'vsh -c' or a script; start vsh at a terminal to speak commands"
        if let commands {
            session.notListeningBecause = scripted
            status = shell.runCommandString(commands, strict: strict)
        } else if isatty(0) == 0 {
            session.notListeningBecause = scripted
            status = shell.runScript(reader: PlainLineReader(promptSink: nil), strict: strict)
        } else {
            status = runInteractive(shell: shell, session: session, environment: environment)
        }
        if status != 0 { throw ExitCode(status) }
    }

    private func runInteractive(shell: Shell, session: Session, environment: [String: String]) -> Int32 {
        let stdout = FileDescriptorSink.standardOutput
        let canEdit = stdout.isTerminal && !["dumb", ""].contains(environment["TERM"] ?? "")
        var reader: LineReader
        var keyboard = KeyboardWatch(takesKeys: false)
        if canEdit, let editor = LibEditReader(historySize: session.settings.historySize, completer: { text in
            Completion.candidates(for: text, registry: session.registry)
        }) {
            reader = editor
            keyboard = editor.keyboard
            // Listening at the prompt (VshVoice/Listening): speech and typing share the line.
            if global.noVoice {
                session.notListeningBecause = "vsh was started with --no-voice; start it without that option to speak commands"
            } else if !session.settings.listenAtPrompt {
                session.notListeningBecause = "voice.listen is false in vsh.toml; set it to true (or remove it) and start vsh again"
            }
            if !global.noVoice, session.settings.listenAtPrompt {
                reader = ListeningSetup.attach(
                    to: editor, session: session,
                    options: .init(audioIn: global.audioIn, fast: fast, verbose: global.verbose),
                    environment: environment, output: stdout)
            }
        } else {
            let term = environment["TERM"].map { $0.isEmpty ? "(empty)" : $0 } ?? "(unset)"
            session.notListeningBecause = !stdout.isTerminal
                ? "vsh listens only when its output is the terminal, and here it goes elsewhere; start vsh without redirecting its output"
                : canEdit ? "the line editor (libedit) did not start, and vsh listens only at a prompt it edits"
                : "vsh listens only at a prompt it can edit, and TERM=\(term) cannot be edited; start vsh in a terminal such as xterm"
            // Without line editing, Ctrl-C still must not end vsh: the terminal drops the line.
            signal(SIGINT, SIG_IGN)
            reader = PlainLineReader(promptSink: stdout)
        }
        for entry in session.history.entries { reader.addToRecall(entry.line) }
        let watch = keyboard
        session.stopRequest = watch.stopRequested
        session.typedWhileRunning = { watch.typed }
        session.interrupted = KeyboardWatch.interrupted
        stdout.line("vsh \(Self.version): type 'help' for the commands, Ctrl-D or 'exit' to leave.")
        Self.offerDrafts(session.store, to: stdout)
        return shell.runInteractive(reader: reader)
    }

    /// Recordings that were never saved (vsh was left, or killed, while one was current)
    /// are offered at start, so none is forgotten; what the store put right after a
    /// change cut short (vsh killed, a full disk) is told first.
    static func offerDrafts(_ store: TranscriptStore, to out: TextSink) {
        guard let (drafts, warnings) = try? store.drafts() else { return }
        for warning in warnings { out.line("warning: " + warning) }
        guard !drafts.isEmpty else { return }
        out.line(drafts.count == 1 ? "You have an unsaved recording:" : "You have \(drafts.count) unsaved recordings:")
        for draft in drafts.suffix(5) {
            let words = draft.transcript.split(separator: " ").prefix(8).joined(separator: " ")
            let pending = DraftsCommand.pendingNote(draft).map { (words.isEmpty ? "" : " … ") + $0 } ?? ""
            out.line(String(format: "  %@  %.1f s  ", draft.id, draft.duration)
                + (words.isEmpty && pending.isEmpty ? "(no words)" : words) + pending)
        }
        out.line("'save --draft ID [TITLE]' keeps one, 'discard ID' moves it to the trash, 'drafts' lists them all.")
    }
}
