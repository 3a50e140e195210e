import Foundation
import Testing
@testable import VshCore
import VshTestSupport
@testable import VshVoice
@testable import VshCommandFiles
@testable import VshCommands

/// Custom commands at work: typed with their slots, heard through the grammar, in
/// help and completion, reloaded, and never a way to run what the file did not say.
@Suite(.serialized) struct CustomCommandRunTests {
    static let paint = """
        list colour: red | green | dark blue = navy

        command paint
            summary: Paint the wall
            say: paint [the] wall <colour> <number 1-20> times
            exec: /bin/echo painted {colour} {number} times

        command favourite
            say: my favourite [colour]
            run: paint navy 3; quality

        command wipe
            summary: Wipe the wall clean
            say: wipe [the] wall
            exec: /bin/echo wiped
            destructive: yes
        """

    @Test func typedWithSlots() {
        let shell = customShell(["paint.commands": Self.paint])
        #expect(shell.error.text == "")
        let status = shell.script([
            "paint red 2", "paint 'dark blue' 20", "paint navy 1", "favourite",
            "paint purple 2", "paint red 21", "paint red",
        ])
        #expect(status == 1)
        #expect(shell.output.text == "painted red 2 times\npainted navy 20 times\npainted navy 1 times\npainted navy 3 times\nmedium\n")
        #expect(shell.error.text == """
            line 5: error: paint: 'purple' is not one of: red, green, navy (say "dark blue")
            usage: paint <colour> <number 1-20>
            line 6: error: paint: '21' is not a whole number from 1 to 20
            usage: paint <colour> <number 1-20>
            line 7: error: paint: takes 2 values: <colour> <number 1-20>, not 'red'
            usage: paint <colour> <number 1-20>

            """)
    }

    @Test func heardThroughTheGrammarRunsTheSameLine() throws {
        let shell = customShell(["paint.commands": Self.paint])
        let grammar = VoiceGrammar(registry: shell.session.registry)
        #expect(grammar.problems.isEmpty)
        #expect(grammar.jsgf.contains("paint [the] wall (red | green | dark blue) <number> times"))
        let heard = try #require(grammar.interpret("paint the wall dark blue twelve times".split(separator: " ").map(String.init)))
        #expect(heard.command == "paint")
        #expect(heard.line == "paint \"dark blue\" 12")
        shell.shell.execute(heard.line, interactive: false)
        #expect(grammar.interpret(["my", "favourite", "colour"])?.line == "favourite")
        #expect(shell.output.text == "painted navy 12 times\n")
    }

    @Test func inHelpAndCompletion() {
        let shell = customShell(["paint.commands": Self.paint])
        #expect(shell.script(["help paint", "help wipe"]) == 0)
        let path = shell.directory.file("config/commands/paint.commands")
        #expect(shell.output.text == """
            paint — Paint the wall
            usage: paint <colour> <number 1-20>
            say:   "paint [the] wall (red | green | dark blue) <number> times"

            ARGUMENTS:
              <colour>               one of: red, green, navy (say "dark blue")
              <number 1-20>          a whole number from 1 to 20

            RUNS:
              exec: /bin/echo painted {colour} {number} times

            DEFINED IN:
              \(path):3
            wipe — Wipe the wall clean
            usage: wipe
            say:   "wipe [the] wall"
            When spoken, vsh asks you to confirm before it runs.

            """)
        let registry = shell.session.registry
        #expect(Completion.candidates(for: "pai", registry: registry).matches == ["paint"])
        #expect(Completion.candidates(for: "paint ", registry: registry).matches == ["red", "green", "navy"])
        #expect(Completion.candidates(for: "paint g", registry: registry).matches == ["green"])
        #expect(registry.lookup("wipe")?.info.destructive == true)
    }

    /// Slot values reach programs as single arguments and as VSH_SLOT_ variables, and
    /// vsh lines with them quoted: nothing typed, said or listed becomes a command.
    @Test func slotValuesCannotInject() throws {
        let temp = TempDirectory("vsh-inject")
        defer { temp.remove() }
        let trap = temp.file("pwned")
        let shell = customShell(["inject.commands": """
            list level: low | loud = low; exit
            list name: mine = $(touch \(trap)) `touch \(trap)` ; touch \(trap) | yours = '; touch \(trap); '

            command set-level
                say: set level <level>
                run: quality {level}

            command show-name
                say: show name <name>
                exec: /bin/echo {name}

            command env-name
                say: env name <name>
                exec: /bin/sh -c 'echo "$VSH_SLOT_name"'
            """])
        #expect(shell.error.text == "")
        let status = shell.script([
            "set-level loud", "set-level 'low; exit'", "set-level low", "show-name mine", "show-name yours",
            "env-name mine", "show-name '$(touch \(trap))'", "show-name mine; touch \(trap)", "quality",
        ])
        #expect(status == 1)
        #expect(!FileManager.default.fileExists(atPath: trap), "no slot value ran as a command")
        #expect(!shell.session.exitRequested, "'exit' inside a value is not a command")
        #expect(shell.output.text == """
            $(touch \(trap)) `touch \(trap)` ; touch \(trap)
            '; touch \(trap); '
            $(touch \(trap)) `touch \(trap)` ; touch \(trap)
            $(touch \(trap)) `touch \(trap)` ; touch \(trap)
            low

            """)
        let errors = shell.error.text.split(separator: "\n").map(String.init)
        #expect(errors.filter { $0.hasPrefix("line ") } == [
            "line 1: error: set-level: quality: The value 'low; exit' is invalid for '<low|medium|high>'. Please provide one of 'low', 'medium' or 'high'.",
            "line 2: error: set-level: quality: The value 'low; exit' is invalid for '<low|medium|high>'. Please provide one of 'low', 'medium' or 'high'.",
            "line 7: error: show-name: '$(touch \(trap))' is not one of: $(touch \(trap)) `touch \(trap)` ; touch \(trap) (say \"mine\"), '; touch \(trap); ' (say \"yours\")",
            "line 8: error: unknown command 'touch'; type 'help' to see the commands",
        ])
        // Speech can only give the grammar's words.
        let grammar = VoiceGrammar(registry: shell.session.registry)
        #expect(grammar.interpret(["show", "name", "mine"])?.line == "show-name mine")
        #expect(grammar.interpret(["show", "name", "touch"]) == nil)
    }

    @Test func programFailuresLoopsAndStartedPrograms() throws {
        let temp = TempDirectory("vsh-start")
        defer { temp.remove() }
        let shell = customShell(["x.commands": """
            command fail
                say: fail now
                exec: /bin/false

            command ping
                say: ping
                run: pong

            command pong
                say: pong
                run: ping

            command launch
                say: launch it
                start: /usr/bin/touch \(temp.file("started"))
            """])
        #expect(shell.script(["fail", "ping", "launch"]) == 1)
        #expect(shell.error.text.hasPrefix("""
            line 1: error: fail: program '/bin/false' failed (exit status 1)
            line 2: error: ping: 'ping' and the commands it runs call each other without end (8 deep); check the run: lines in
            """))
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: temp.file("started")) && Date() < deadline { usleep(10_000) }
        #expect(FileManager.default.fileExists(atPath: temp.file("started")))
    }

    /// `exec:` arguments keep the backslashes of "…" that the program reads itself
    /// (printf's `\n`), and output that does not end a line is ended before the prompt.
    @Test func execKeepsEscapesAndEndsTheLastLine() {
        let shell = customShell(["x.commands": #"""
            command fruit
                say: fruit
                exec: /usr/bin/printf "fruit=%s\n" apple
                exec: /usr/bin/printf "no newline"
                exec: /bin/sh -c 'printf oops >&2'
            """#])
        #expect(shell.error.text == "")
        #expect(shell.script(["fruit"]) == 0)
        #expect(shell.output.text == "fruit=apple\nno newline\n")
        #expect(shell.error.text == "oops\n")
    }

    /// Ctrl-C while vsh waits for an `exec:` program stops it: SIGINT to its process
    /// group, then SIGTERM and SIGKILL after a grace each for one that goes on; the
    /// command fails saying so, and its steps after the program do not run.
    @Test func ctrlCStopsAnExecProgram() throws {
        let shell = customShell(["x.commands": """
            command nap
                say: nap
                exec: /bin/sh -c 'echo started; sleep 30; echo woke'
                exec: /bin/echo after

            command stubborn
                say: stubborn
                exec: /bin/sh -c 'trap "" INT TERM; echo started; sleep 30'
            """])
        #expect(shell.error.text == "")
        // Ctrl-C comes once, a little after the program started.
        func pressCtrlC(after seconds: Double) {
            let at = Date().addingTimeInterval(seconds)
            var pressed = false
            shell.session.interrupted = {
                guard !pressed, Date() >= at else { return false }
                pressed = true
                return true
            }
        }
        pressCtrlC(after: 0.3)
        var started = Date()
        #expect(shell.script(["nap"]) == 1)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(shell.output.text == "started\n")
        #expect(shell.error.text == "line 1: error: nap: program '/bin/sh' was stopped by Ctrl-C (SIGINT)\n")

        shell.output.clear()
        shell.error.clear()
        pressCtrlC(after: 0.3)
        started = Date()
        #expect(shell.script(["stubborn"]) == 1)
        let took = Date().timeIntervalSince(started)
        #expect(took >= 2 * ProgramRunner.grace && took < 2 * ProgramRunner.grace + 5, "\(took) s")
        #expect(shell.output.text == "started\n")
        #expect(shell.error.text == """
            line 1: error: stubborn: program '/bin/sh' was stopped by Ctrl-C: it went on after SIGINT and SIGTERM, so vsh sent SIGKILL

            """)
    }

    /// A file that changes is read again before the next line; `reload` reports every
    /// problem and fails when there are errors.
    @Test func reloadsWhenFilesChange() {
        let shell = customShell(["a.commands": "command alpha\nsay: alpha\nexec: /bin/echo alpha\n"])
        #expect(shell.script(["alpha"]) == 0)
        shell.directory.write("command beta\nsay: beta\nexec: /bin/echo beta\n", to: "config/commands/b.commands")
        #expect(shell.script(["beta"]) == 0)
        shell.directory.write("command alpha\nsay: alpha\nexec: /bin/echo changed alpha\n", to: "config/commands/a.commands")
        #expect(shell.script(["alpha"]) == 0)
        #expect(shell.output.text == "alpha\nbeta\nchanged alpha\n")
        shell.directory.write("command gamma\nsay: gamma (\nexec: /bin/echo gamma\n", to: "config/commands/b.commands")
        #expect(shell.script(["beta", "reload"]) == 1)
        let file = shell.directory.file("config/commands/b.commands")
        #expect(shell.error.text == """
            error: \(file):2: missing ')' at column 8 of "gamma ("; fix the pattern (see 'Your own voice commands' in the README)
            line 1: error: unknown command 'beta'; type 'help' to see the commands
            error: \(file):2: missing ')' at column 8 of "gamma ("; fix the pattern (see 'Your own voice commands' in the README)
            line 2: error: reload: 1 error(s) in the command files (above); fix them, then reload

            """)
    }
}
