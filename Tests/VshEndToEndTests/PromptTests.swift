import Foundation
import Testing
import VshTestSupport

/// The interactive prompt in a real pseudo-terminal (tmux): typing, completion,
/// history recall, Ctrl-C and Ctrl-D, as a person would use them.
@Suite(.serialized, .tags(.slow)) struct PromptTests {
    func start(_ vsh: VshBinary, term: String = "xterm", arguments: [String] = []) throws -> TmuxSession {
        let env = vsh.environment(["TERM": term, "PATH": "/usr/bin:/bin"])
        return try TmuxSession(command: [VshBinary.path] + arguments, environment: env)
    }

    @Test func typingCompletionHistoryAndExit() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let tty = try start(vsh)
        try tty.waitFor("vsh> ")
        let banner = try tty.screen()
        #expect(banner.contains("type 'help' for the commands"))

        // Tab on an ambiguous prefix lists the choices; more letters then complete.
        try tty.type("qu")
        try tty.send("Tab")
        try tty.waitFor("quality  quit")
        try tty.type("a")
        try tty.send("Tab")
        try tty.waitFor("vsh> quality ")
        // Fixed arguments complete too.
        try tty.send("Tab")
        try tty.waitFor("low  medium  high")
        try tty.type("h")
        try tty.send("Tab")
        try tty.waitFor("vsh> quality high ")
        try tty.send("Enter")
        try tty.waitFor("quality: high (48 kHz, 16-bit mono)")
        // The next prompt first: keys typed while a command runs are the terminal's until
        // then (its Ctrl-C would reach the command, not the line).
        try tty.waitFor("the prompt after 'quality high'") { $0.hasSuffix("16-bit mono)\nvsh> ") }

        // Ctrl-C abandons the line: nothing runs, a fresh prompt comes back.
        // Wait for the echo first: the terminal discards input it holds when Ctrl-C
        // comes (no NOFLSH), so keys vsh has not read yet would never reach the line.
        try tty.type("bogus words")
        try tty.waitFor("the typed line") { $0.hasSuffix("vsh> bogus words") }
        try tty.send("C-c")
        try tty.waitFor("fresh prompt after Ctrl-C") { $0.hasSuffix("vsh> bogus words\nvsh> ") }
        #expect(!(try tty.screen()).contains("unknown command 'bogus'"))

        // Up recalls the last line; Enter runs it again.
        try tty.type("quality")
        try tty.send("Enter")
        try tty.waitFor("\nhigh\n")
        try tty.send("Up")
        try tty.send("Up")
        try tty.waitFor("recall of 'quality high'") { $0.hasSuffix("vsh> quality high") }
        try tty.send("C-u")
        try tty.type("history")
        try tty.send("Enter")
        try tty.waitFor("3  typed       history")
        let screen = try tty.screen()
        #expect(screen.contains("1  typed       quality high"))
        #expect(screen.contains("2  typed       quality\n"))

        try tty.send("C-d")
        #expect(try tty.waitForExit() == 0)

        // History survives the run: a new vsh recalls it with Up.
        let again = try start(vsh)
        try again.waitFor("vsh> ")
        try again.send("Up")
        try again.waitFor("recall from the last run") { $0.hasSuffix("vsh> history") }
        try again.send("C-u")
        try again.type("exit")
        try again.send("Enter")
        #expect(try again.waitForExit() == 0)
    }

    @Test func controlRSearchesHistory() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let tty = try start(vsh)
        try tty.waitFor("vsh> ")
        for line in ["quality low", "help quality", "quality"] {
            try tty.type(line)
            try tty.send("Enter")
        }
        try tty.waitFor("\nlow\n")
        try tty.send("C-r")
        try tty.type("help")
        try tty.waitFor("the search finds 'help quality'") { $0.contains("help quality") && $0.contains("bck:") }
        try tty.send("Enter")
        try tty.waitFor("2 runs of 'help quality'") { $0.components(separatedBy: "usage: quality").count == 3 }
        try tty.type("exit")
        try tty.send("Enter")
        #expect(try tty.waitForExit() == 0)
    }

    /// Ctrl-D at a keyword command's prompt leaves the keyword command, not vsh, with the
    /// line editor and with plain reading (where C's end of input would otherwise stick).
    @Test(arguments: ["xterm", "dumb"]) func ctrlDLeavesAKeywordCommandThenVsh(term: String) throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let tty = try start(vsh, term: term, arguments: ["--no-voice"])
        try tty.waitFor("vsh> ")
        try tty.type("code 4")
        try tty.send("Enter")
        try tty.waitFor("vsh [code 4]> ")
        try tty.send("C-d")
        try tty.waitFor("the note and a plain prompt") {
            $0.contains("left the keyword command 'code 4' without recording it; Ctrl-D again leaves vsh\nvsh> ")
        }
        try tty.type("quality")
        try tty.send("Enter")
        try tty.waitFor("\nmedium\nvsh> ")
        #expect(try tty.exitStatus() == nil, "vsh is still running")
        try tty.send("C-d")
        #expect(try tty.waitForExit() == 0)
    }

    /// Ctrl-C at the terminal while an `exec:` program runs stops it and says so; the
    /// prompt comes back at once, not when the program would have ended. With plain
    /// reading (TERM=dumb), where vsh ignores Ctrl-C at the prompt, too.
    @Test(arguments: ["xterm", "dumb"]) func ctrlCStopsAnExecProgram(term: String) throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        vsh.home.write("command nap\n    say: nap\n    exec: /bin/sh -c 'echo started; sleep 30'\n",
                       to: "config/vsh/commands/x.commands")
        chmod(vsh.home.file("config/vsh/commands"), 0o700)
        chmod(vsh.home.file("config/vsh/commands/x.commands"), 0o600)
        let tty = try start(vsh, term: term, arguments: ["--no-voice"])
        try tty.waitFor("vsh> ")
        try tty.type("nap")
        try tty.send("Enter")
        try tty.waitFor("nap\nstarted")
        try tty.send("C-c")
        try tty.waitFor("error: nap: program '/bin/sh' was stopped by Ctrl-C (SIGINT)\nvsh> ", timeout: 5)
        try tty.send("C-d")
        #expect(try tty.waitForExit() == 0)
    }

    /// `vsh -c` at a terminal: Ctrl-C would end vsh and leave the program running in its
    /// own process group; instead the program is stopped, vsh says so and stops there.
    @Test func ctrlCStopsAnExecProgramUnderDashC() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let marker = "vsh-ctrl-c-\(getpid())"
        vsh.home.write("command nap\n    say: nap\n    exec: /bin/sh -c 'echo started; sleep 30; echo \(marker)'\n",
                       to: "config/vsh/commands/x.commands")
        chmod(vsh.home.file("config/vsh/commands"), 0o700)
        chmod(vsh.home.file("config/vsh/commands/x.commands"), 0o600)
        let tty = try TmuxSession(command: [VshBinary.path, "-c", "nap; quality"],
                                  environment: vsh.environment(["TERM": "xterm", "PATH": "/usr/bin:/bin"]))
        try tty.waitFor("started")
        try tty.send("C-c")
        #expect(try tty.waitForExit(timeout: 5) == 1)
        let screen = try tty.screen()
        #expect(screen.contains("error: nap: program '/bin/sh' was stopped by Ctrl-C (SIGINT); vsh stops here"), "\(screen)")
        #expect(!screen.contains("medium"), "the command after it did not run")
        let left = Process()
        left.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        left.arguments = ["-f", marker]
        left.standardOutput = FileHandle.nullDevice
        try left.run()
        left.waitUntilExit()
        #expect(left.terminationStatus == 1, "no program of the command is left running")
    }

    /// At a terminal that cannot edit a line, `listen` says that is why vsh does not
    /// listen, not that an audio input is missing when one was given.
    @Test func listenAtADumbTerminalNamesTheTerminal() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let tty = try start(vsh, term: "dumb", arguments: ["--audio-in", EvalData.real + "/goforward.raw"])
        try tty.waitFor("vsh> ")
        try tty.type("listen")
        try tty.send("Enter")
        let screen = try tty.waitFor("the reason, on two lines of the screen") { $0.contains("such as xterm\nvsh> ") }
        #expect(screen.replacingOccurrences(of: "\n", with: "").contains(
            "not listening: vsh listens only at a prompt it can edit, and TERM=dumb cannot be edited; start vsh in a terminal such as xterm"),
                "\(screen)")
        #expect(!screen.contains("with an audio input"), "\(screen)")
        try tty.send("C-d")
        #expect(try tty.waitForExit() == 0)
    }

    @Test func dumbTerminalFallsBackToPlainReading() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let tty = try start(vsh, term: "dumb")
        try tty.waitFor("vsh> ")
        try tty.type("quality low")
        try tty.send("Enter")
        try tty.waitFor("vsh> quality low\nquality: low (8 kHz, 16-bit mono)\nvsh> ")
        try tty.type("quality")
        try tty.send("Enter")
        let screen = try tty.waitFor("\nlow\n")
        #expect(!screen.contains("\u{1B}"))
        try tty.send("C-d")
        #expect(try tty.waitForExit() == 0)
    }
}
