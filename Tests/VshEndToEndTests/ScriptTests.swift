import Foundation
import Testing
import VshTestSupport

/// The built binary, driven through pipes as scripts and `-c`.
@Suite(.tags(.slow)) struct ScriptTests {
    @Test func qualityRoundTripThroughAPipe() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run([], stdin: "quality high\nquality\nexit\n")
        #expect(result.stdout == "high\n")
        #expect(result.stderr == "")
        #expect(result.status == 0)
        // The setting was saved in the user's config and holds in the next run.
        #expect(vsh.home.read("config/vsh/vsh.toml") == "quality = \"high\"\n")
        #expect(try vsh.run(["-c", "quality"]).stdout == "high\n")
    }

    @Test func misspelledCommandFailsWithAClearMessage() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run(["-c", "qualtiy"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: unknown command 'qualtiy'; did you mean 'quality'?\n")
        #expect(result.stdout == "")
        let unknown = try vsh.run(["-c", "lsit"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("error: unknown command 'lsit'"))
    }

    @Test func scriptErrorsNameTheLineAndTheRestStillRuns() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let script = """
            # set up
            quality low

            hlep
            quality
            quality ultra
            quality
            """
        let result = try vsh.run([], stdin: script)
        #expect(result.stdout == "low\nlow\n")
        #expect(result.stderr == """
            line 4: error: unknown command 'hlep'; did you mean 'help'?
            line 6: error: quality: The value 'ultra' is invalid for '<low|medium|high>'. Please provide one of 'low', 'medium' or 'high'.
            usage: quality [<low|medium|high>]

            """)
        #expect(result.status == 1)
    }

    @Test func strictStopsAtTheFirstFailure() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run(["--strict"], stdin: "quality low\nbogus\nquality\n")
        #expect(result.stdout == "")
        #expect(result.stderr == "line 2: error: unknown command 'bogus'; type 'help' to see the commands\n")
        #expect(result.status == 1)
        let dashC = try vsh.run(["--strict", "-c", "bogus; quality"])
        #expect(dashC.stdout == "")
        #expect(dashC.status == 1)
    }

    @Test func dashCRunsSeveralCommands() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run(["-c", "quality medium; quality; help quality"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("medium\nquality — Show or set the recording quality"))
    }

    @Test func pipedOutputHasNoEscapeCodesAndNoBanner() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run([], stdin: "help\n", environment: ["TERM": "xterm-256color"])
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(!result.stdout.contains("vsh>"))
        #expect(result.stdout.hasPrefix("Commands:\n"))
    }

    @Test func brokenConfigWarnsWithFileAndLineAndVshStillRuns() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        vsh.home.write("# mine\nquality = high\n", to: "config/vsh/vsh.toml")
        let result = try vsh.run(["-c", "quality"])
        #expect(result.status == 0)
        #expect(result.stdout == "medium\n")
        #expect(result.stderr.hasPrefix("warning: \(vsh.home.file("config/vsh/vsh.toml")):2: "))
        #expect(result.stderr.contains("that line is ignored until it is fixed"))
    }

    @Test func configDirectoryFromOptionAndEnvironment() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        vsh.home.write("quality = \"low\"\n", to: "elsewhere/vsh.toml")
        #expect(try vsh.run(["--config", vsh.home.file("elsewhere"), "-c", "quality"]).stdout == "low\n")
        #expect(try vsh.run(["-c", "quality"], environment: ["VSH_CONFIG": vsh.home.file("elsewhere")]).stdout == "low\n")
        #expect(try vsh.run(["-c", "quality"]).stdout == "medium\n")
    }

    /// `vsh -c reload` says each problem once: at start, and reload does not repeat what
    /// was just said; after another command it says them all again.
    @Test func reloadSaysEachProblemOnce() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        vsh.home.write("command paint\nsay: paint\n", to: "config/vsh/commands/x.commands")
        chmod(vsh.home.file("config/vsh/commands"), 0o700)
        chmod(vsh.home.file("config/vsh/commands/x.commands"), 0o600)
        let problem = "command 'paint' does nothing"
        let once = try vsh.run(["-c", "reload"])
        #expect(once.stderr.components(separatedBy: problem).count - 1 == 1, "\(once.stderr)")
        #expect(once.stderr.contains("error: reload: 1 error(s) in the command files (above)"))
        let again = try vsh.run(["-c", "quality; reload"])
        #expect(again.stderr.components(separatedBy: problem).count - 1 == 2, "\(again.stderr)")
    }

    /// A shell command typed where the command line expects options runs, as with -c.
    @Test func aShellCommandAsTheFirstArgumentRuns() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let list = try vsh.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout == "No transcripts yet.\n")
        let set = try vsh.run(["--no-voice", "quality", "low"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try vsh.run(["quality"]).stdout == "low\n")
        // Words keep their quoting; the command line's own subcommands keep their meaning.
        #expect(try vsh.run(["search", "two \"words\""]).stdout == "No transcript contains 'two \"words\"'.\n")
        #expect(try vsh.run(["listen"]).stderr.contains("--from"))
    }

    /// A prompt command from the shell's command line gives what the prompt gives: `vsh
    /// help NAME` its help, a mistyped name "did you mean" (issue 28, item 5), and a
    /// command file's command runs; the command line's own subcommands keep their help.
    @Test func theCommandLineGivesThePromptsHelpAndDidYouMean() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let atPrompt = try vsh.run([], stdin: "help quality\n")
        let help = try vsh.run(["help", "quality"])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.hasPrefix("quality — "), "\(help.stdout)")
        #expect(help.stdout == atPrompt.stdout)
        let typo = try vsh.run(["qualty"])
        #expect(typo.status == 1)
        #expect(typo.stderr == "error: unknown command 'qualty'; did you mean 'quality'?\n")
        let helpTypo = try vsh.run(["--no-voice", "help", "qualty"])
        #expect(helpTypo.status == 1)
        #expect(helpTypo.stderr == "error: help: no command named 'qualty'; did you mean 'quality'?\n")
        vsh.home.write("command greet\n    say: greet\n    run: quality\n", to: "config/vsh/commands/x.commands")
        chmod(vsh.home.file("config/vsh/commands"), 0o700)
        chmod(vsh.home.file("config/vsh/commands/x.commands"), 0o600)
        let custom = try vsh.run(["greet"])
        #expect(custom.status == 0, "\(custom.stderr)")
        #expect(custom.stdout == "medium\n")
        #expect(try vsh.run(["help", "transcribe"]).stdout.hasPrefix("OVERVIEW: Transcribe"))
        #expect(try vsh.run(["help"]).stdout.hasPrefix("OVERVIEW: A voice shell"))
    }

    /// Messages that misled (issue 28, item 13) say what is wrong and what to do.
    @Test func messagesSayWhatIsWrongAndWhatToDo() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let train = try vsh.run(["--no-voice", "-c", "train"])
        #expect(train.status == 1)
        #expect(train.stderr.contains("'train --from DIR' trains on a directory of them"), "\(train.stderr)")
        let listen = try vsh.run(["--audio-in", EvalData.real + "/goforward.raw", "-c", "listen"])
        #expect(listen.stdout == "not listening: vsh listens only at its interactive prompt, not in 'vsh -c' or a script; "
            + "start vsh at a terminal to speak commands\n")
        vsh.home.write("x\n", to: "a-file")
        let config = try vsh.run(["--config", vsh.home.file("a-file"), "-c", "quality"])
        #expect(config.stderr == "warning: the configuration directory \(vsh.home.file("a-file")) is a file: vsh reads vsh.toml "
            + "and commands/ in a directory; give --config (or VSH_CONFIG) a directory; using defaults\n")
        // Training that ends before any take: nothing is said to be kept.
        let silence = vsh.home.file("silence.wav")
        try VshBinary.shell("sox -n -r 16000 -c 1 -b 16 \(silence) trim 0 0.5")
        let paused = try vsh.run(["--audio-in", silence, "-c", "train"])
        #expect(paused.stdout.contains("the input ended at phrase 1 of"), "\(paused.stdout)\(paused.stderr)")
        #expect(paused.stdout.contains("; no take is recorded yet. 'train' starts again from there.\n"), "\(paused.stdout)")
        #expect(!paused.stdout.contains("0 takes"), "\(paused.stdout)")
    }

    /// Completion scripts for bash, zsh and fish come from the same definitions as --help,
    /// and --help lists the prompt's commands from their own declarations.
    @Test func completionScriptsAndHelpComeFromTheDefinitions() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        for shell in ["bash", "zsh", "fish"] {
            let script = try vsh.run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            #expect(script.stdout.contains("--audio-in") && script.stdout.contains("transcribe"), "\(shell)")
        }
        // listen and transcribe read a file: the shell's device and store options are not theirs.
        for tool in ["listen", "transcribe"] {
            let help = try vsh.run(["help", tool]).stdout
            #expect(help.contains("--config"), "\(tool)")
            for option in ["--no-voice", "--audio-in", "--audio-out", "--store"] {
                #expect(!help.contains(option), "\(tool) --help lists \(option)")
            }
        }
        let help = try vsh.run(["--help"], environment: ["COLUMNS": "80"])
        #expect(help.stdout.contains("  exit, quit    Leave vsh\n"))
        #expect(help.stdout.contains("  record        Record a note"))
        // A summary too long for a line goes on under itself, not at column 0, so the
        // names stand out as in `git help -a` (issue 36, item 3).
        let list = try #require(help.stdout.components(separatedBy: "'help NAME' shows how):\n").dropFirst().first)
        let lines = try #require(list.components(separatedBy: "\n\n").first).split(separator: "\n")
        var wrapped = 0
        for line in lines {
            #expect(line.count <= 80, "\(line)")
            if line.hasPrefix(String(repeating: " ", count: 16)) {
                wrapped += 1
                #expect(line.dropFirst(16).first != " ", "\(line)")
            } else {
                #expect(line.hasPrefix("  ") && line.dropFirst(2).first != " " && line.count > 16, "not a command's first line: \(line)")
            }
        }
        #expect(lines.count > 20 && wrapped > 0, "\(list)")
    }

    @Test func versionVerboseNamesEveryLinkedLibraryAndTheModel() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run(["--version", "--verbose"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "vsh 0.1.0")
        for library in ["alsa", "speexdsp", "pocketsphinx", "libedit"] {
            let line = lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(library + " ") }
            #expect(line != nil, "no line for \(library) in:\n\(result.stdout)")
            #expect(line?.contains(".so.") == true, "\(library) does not name its shared object")
            #expect(line?.contains("FAILED") == false)
        }
        #expect(result.stdout.contains("model /usr/share/pocketsphinx/model/en-us"))
        #expect(!result.stdout.contains("MISSING"))
        #expect(result.stderr == "", "PocketSphinx must not log to the terminal")
    }

    @Test func badOptionIsReportedByTheCommandLineParser() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run(["--stor", "x"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("Unknown option '--stor'"))
    }

    @Test func tenThousandLineScript() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let script = String(repeating: "quality\n# comment\n", count: 5_000)
        let result = try vsh.run([], stdin: script)
        #expect(result.status == 0)
        #expect(result.stdout == String(repeating: "medium\n", count: 5_000))
    }
}
