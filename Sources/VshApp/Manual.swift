import ArgumentParser
import Foundation
import VshCore
import VshCommands

/// The manual page, vsh(1), in mdoc (`vsh --generate-manual`, which `make man` runs): the
/// command line from the parser's own description of it (the one `--help` and the
/// completion scripts are made from), the prompt's commands from their `CommandInfo`
/// (usage, what to say), and the sections only a manual has (COMMAND FILES, ENVIRONMENT,
/// FILES, EXAMPLES). Every line is valid mdoc: `man` shows it without a warning.
enum Manual {
    /// The page, dated `date`.
    static func page(date: Date = Date()) throws -> String {
        let tool = try CommandLineInfo.of(VshMain.self)
        var out = Page()
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.dateFormat = "MMMM d, yyyy"
        out.macro("Dd", day.string(from: date))
        out.macro("Dt", "VSH", "1")
        out.macro("Os")
        out.macro("Sh", "NAME")
        out.macro("Nm", "vsh")
        out.macro("Nd", tool.abstract ?? "")

        out.macro("Sh", "SYNOPSIS")
        out.macro("Nm")
        for argument in tool.shown where argument.kind != "positional" { out.synopsis(argument) }
        out.line(".Op Ar command Op Ar argument ...")
        for sub in tool.shownSubcommands {
            out.macro("Nm")
            out.macro("Cm", sub.commandName)
            for argument in sub.shown { out.synopsis(argument) }
        }

        out.macro("Sh", "DESCRIPTION")
        for paragraph in VshMain.overview.components(separatedBy: "\n\n") {
            out.macro("Pp")
            out.text(paragraph)
        }
        out.macro("Pp")
        out.text("The options:")
        out.list(tool.shown)
        for sub in tool.shownSubcommands {
            out.macro("Ss", "vsh \(sub.commandName)")
            out.text(sub.abstract ?? "")
            out.list(sub.shown)
        }

        out.macro("Sh", "PROMPT COMMANDS")
        out.text("Typed at the vsh> prompt, said to it, or given on the command line (vsh list). "
            + "A spoken form's (a | b) is a choice, [a] may be left out, <number> is a slot. "
            + "help NAME shows a command's options.")
        out.macro("Bl", "-tag", "-width", "Ds")
        for entry in Builtins.all {
            let info = entry.info
            out.macro("It", "Ic", entry.usage)
            out.text(info.summary + (info.summary.hasSuffix(")") || info.summary.last?.isLetter == true ? "." : "")
                + (info.aliases.isEmpty ? "" : " Also: " + info.aliases.joined(separator: ", ") + "."))
            if !info.spokenForms.isEmpty {
                out.macro("Pp")
                out.text("Say: " + info.spokenForms.map { "\"\($0.pattern)\"" }.joined(separator: ", ")
                    + (info.destructive ? "; vsh asks to confirm before it runs." : "."))
            }
        }
        out.macro("El")

        out.section(Self.sections)
        return out.text
    }

    /// What only a manual has; `.Sh`, `.Pp`, `.Bl -tag`/`.It`/`.El` lines, else text.
    static let sections = """
        .Sh COMMAND FILES
        Command files add commands you can both say and type. vsh reads every *.commands file \
        in its shipped commands directory, then those in $XDG_CONFIG_HOME/vsh/commands; a file \
        of yours with the name of a shipped one replaces it. It refuses a file or directory \
        other users can write. A file holds lists and commands:
        .Bl -tag -width Ds
        .It list NAME: a | b | spoken words = value
        The words a <NAME> slot accepts, and what each gives.
        .It command NAME
        Starts a command; the lines under it say what it is.
        .It say: PATTERN
        A spoken pattern: words, (a | b), [optional], and slots <digit>, <digits>, <number>, <number 1-20> or a list's <NAME>.
        .It run: COMMANDS
        vsh commands, separated by ';'; {slot} is replaced by the slot's value.
        .It exec: PROGRAM ARGUMENTS
        A program vsh runs and waits for, without a shell; Ctrl-C stops it.
        .It start: PROGRAM ARGUMENTS
        A program vsh starts and does not wait for.
        .It keyword: add | back | reset | done
        A keyword command with digit parameters (see the shipped keywords.commands).
        .It summary: TEXT
        The line help shows.
        .It destructive: yes
        When spoken, vsh asks to confirm before it runs.
        .El
        .Pp
        vsh reloads a changed file before the next line; reload reads them again and reports every problem with its file and line.
        .Sh ENVIRONMENT
        .Bl -tag -width Ds
        .It VSH_STORE
        The transcript store, unless --store is given.
        .It VSH_CONFIG
        The configuration directory, unless --config is given.
        .It VSH_SHARE
        Where the shipped config and commands directories are (default: share/vsh beside the binary's directory).
        .It XDG_DATA_HOME , XDG_CONFIG_HOME , XDG_STATE_HOME
        The bases of the default store, configuration and state directories (default ~/.local/share, ~/.config, ~/.local/state).
        .It NO_COLOR
        When set and not empty, no colours.
        .It TERM
        dumb, or unset, reads lines without line editing and without colours.
        .El
        .Sh FILES
        .Bl -tag -width Ds
        .It ~/.config/vsh/vsh.toml
        Your settings (the shipped config/vsh.toml documents every key); vsh writes here when a command changes one.
        .It ~/.config/vsh/key
        The key that encrypts audio at rest (encrypt on); back it up.
        .It ~/.config/vsh/commands/*.commands
        Your command files.
        .It ~/.local/share/vsh/
        The transcript store: ID.txt, ID.wav and ID.json for each transcript, drafts/, trash/, training/, model/, outputs.jsonl; FORMAT.md in the source describes it.
        .It ~/.local/state/vsh/history
        The command history; clips/ beside it holds the audio of spoken commands.
        .It ~/.local/state/vsh/pocketsphinx.log
        The recogniser's log.
        .It /usr/local/share/vsh/
        The shipped config/vsh.toml and commands/.
        .El
        .Sh EXIT STATUS
        0 when every command succeeded; 1 when one failed (in a script or -c); 64 for a mistake in the command line.
        .Sh EXAMPLES
        Start the shell, then record a note and keep it:
        .Bd -literal -offset indent
        $ vsh
        vsh> record
        vsh> save Groceries
        .Ed
        .Pp
        From another shell, list the notes, then show the first:
        .Bd -literal -offset indent
        $ vsh list
        $ vsh show 1
        .Ed
        .Pp
        Run a script, stopping at the first failure:
        .Bd -literal -offset indent
        $ printf 'quality high\\nlist --json\\n' | vsh --strict
        .Ed
        .Pp
        Transcribe a file, and hear what vsh would do with a spoken command:
        .Bd -literal -offset indent
        $ vsh transcribe --json talk.wav
        $ vsh listen --from command.wav
        .Ed
        .Sh SEE ALSO
        .Xr arecord 1 ,
        .Xr aplay 1
        """

    /// mdoc lines, escaped.
    struct Page {
        var text = ".\\\" Made by vsh --generate-manual (Sources/VshApp/Manual.swift).\n"

        mutating func line(_ raw: String) { text += raw + "\n" }

        /// A macro line; each argument quoted when it holds a space.
        mutating func macro(_ name: String, _ arguments: String...) { macro(name, arguments) }

        mutating func macro(_ name: String, _ arguments: [String]) {
            let words = arguments.map { word -> String in
                let escaped = Self.escape(word).replacingOccurrences(of: "\"", with: "\\(dq")
                return word.contains(" ") || word.isEmpty ? "\"\(escaped)\"" : escaped
            }
            line((["." + name] + words).joined(separator: " "))
        }

        /// Text: escaped, and each line kept from being read as a macro; blank lines
        /// (which mdoc warns of) become paragraph breaks.
        mutating func text(_ paragraph: String) {
            for raw in paragraph.components(separatedBy: "\n") {
                if raw.trimmingCharacters(in: .whitespaces).isEmpty {
                    line(".Pp")
                } else {
                    line((raw.hasPrefix(".") || raw.hasPrefix("'") ? "\\&" : "") + Self.escape(raw))
                }
            }
        }

        mutating func synopsis(_ argument: CommandLineInfo.Argument) {
            let macros = argument.macros
            macro(argument.isOptional ? "Op" : macros[0], argument.isOptional ? macros : Array(macros.dropFirst()))
        }

        mutating func list(_ arguments: [CommandLineInfo.Argument]) {
            guard !arguments.isEmpty else { return }
            macro("Bl", "-tag", "-width", "Ds")
            for argument in arguments {
                macro("It", argument.macros)
                text(argument.abstract ?? "")
            }
            macro("El")
        }

        /// Lines written as mdoc already (`.Sh`, `.It`…) go as they are; the rest as text.
        mutating func section(_ mdoc: String) {
            for raw in mdoc.components(separatedBy: "\n") {
                if raw.hasPrefix(".") { line(Self.escape(raw)) } else { text(raw) }
            }
        }

        /// A backslash as `\e`, and every character beyond ASCII as `\[uXXXX]`, so that
        /// "0…1" prints as written whatever the reader's locale.
        static func escape(_ s: String) -> String {
            var out = ""
            for scalar in s.unicodeScalars {
                if scalar == "\\" {
                    out += "\\e"
                } else if scalar.isASCII {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "\\[u" + String(format: "%04X", scalar.value) + "]"
                }
            }
            return out
        }
    }
}
