import Foundation
import Testing
import VshCore
import VshTestSupport

/// The shell's completion of vsh (`vsh --generate-completion-script bash|zsh|fish`), as a
/// person meets it: `vsh <Tab>` offers the prompt's commands as well as `listen` and
/// `transcribe`, each command's own values follow, and files complete after `--from`,
/// `transcribe` and `--store` (issue 28, item 6).
@Suite(.serialized, .tags(.slow)) struct CompletionTests {
    /// A directory holding a recording, a grammar and a subdirectory.
    static func files(_ vsh: VshBinary) -> String {
        vsh.home.write("", to: "files/note.wav")
        vsh.home.write("", to: "files/digits.gram")
        vsh.home.write("", to: "files/inner/x.txt")
        return vsh.home.file("files")
    }

    /// What vsh tells the completion scripts for the last of `words` (those after `vsh`).
    static func offered(_ vsh: VshBinary, _ words: [String]) throws -> [String] {
        let typed = words.last?.count ?? 0  // the cursor is at the end of the word
        let result = try vsh.run(["---completion", "--", "positional@0", "\(words.count)", "\(typed)", "vsh"] + words)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func theCommandWordAndWhatFollowsAreCompletedAsAtThePrompt() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let dir = Self.files(vsh)
        let first = try Self.offered(vsh, [""])
        #expect(Set(["quality", "record", "undo", "help", "listen", "transcribe"]).isSubset(of: first), "\(first)")
        #expect(try Self.offered(vsh, ["qu"]) == ["quality", "quit"])
        #expect(try Self.offered(vsh, ["--no-voice", "quality", ""]) == ["low", "medium", "high"])
        let all = [dir + "/digits.gram", dir + "/inner/", dir + "/note.wav"]
        #expect(try Self.offered(vsh, ["record", "--from", dir + "/"]) == all)
        #expect(try Self.offered(vsh, ["transcribe", dir + "/"]) == all)
        #expect(try Self.offered(vsh, ["listen", "--from", dir + "/"]) == all)
        #expect(try Self.offered(vsh, ["listen", "--grammar", dir + "/"]) == [dir + "/digits.gram", dir + "/inner/"])
        #expect(try Self.offered(vsh, ["listen", "--at"]) == ["--attention"])
    }

    /// The command files' commands are the prompt's commands too: the shipped keyword
    /// commands and the person's own, and those of the directory `--config` names
    /// (issue 36, item 4).
    @Test func commandFilesCommandsAreOfferedAfterVsh() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        vsh.home.write("command paint\n    summary: Paint\n    say: paint\n    run: quality\n", to: "config/vsh/commands/paint.commands")
        vsh.home.write("command greet\n    summary: Greet\n    say: good morning\n    run: quality\n", to: "other/commands/greet.commands")
        let first = try Self.offered(vsh, [""])
        #expect(Set(["code", "count", "paint", "quality", "listen"]).isSubset(of: first), "\(first)")
        #expect(!first.contains("greet"), "\(first)")
        #expect(try Self.offered(vsh, ["co"]) == ["code", "count"])
        #expect(try Self.offered(vsh, ["--config", vsh.home.file("other"), "gr"]) == ["greet"])
    }

    /// The bash script, run by bash as completion runs it: `_vsh` with COMP_WORDS.
    @Test func bashCompletes() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let dir = Self.files(vsh)
        let script = try vsh.run(["--generate-completion-script", "bash"]).stdout
        vsh.home.write(script, to: "vsh.bash")
        func complete(_ line: String) throws -> [String] {
            let driver = """
                source \(vsh.home.file("vsh.bash"))
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                read -ra COMP_WORDS <<< "$COMP_LINE"; [[ "$COMP_LINE" == *' ' ]] && COMP_WORDS+=('')
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                _vsh vsh "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            vsh.home.write(driver, to: "driver.bash")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [vsh.home.file("driver.bash")]
            process.environment = vsh.environment(["PATH": (VshBinary.path as NSString).deletingLastPathComponent + ":/usr/bin:/bin"])
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readToEndRetrying()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        #expect(Set(["quality", "record", "listen"]).isSubset(of: try complete("vsh ")))
        #expect(try complete("vsh quality ") == ["low", "medium", "high"])
        #expect(try complete("vsh --store \(dir)/").sorted() == [dir + "/inner"])
        #expect(try complete("vsh record --from \(dir)/n") == [dir + "/note.wav"])
        #expect(try complete("vsh transcribe \(dir)/d") == [dir + "/digits.gram"])
    }

    /// zsh and fish at a real terminal: Tab lists what the script offers.
    @Test(arguments: ["zsh", "fish"]) func zshAndFishComplete(_ shell: String) throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let dir = Self.files(vsh)
        let script = try vsh.run(["--generate-completion-script", shell]).stdout
        let command: [String]
        if shell == "zsh" {
            vsh.home.write(script, to: "zfunctions/_vsh")
            vsh.home.write("fpath=(\(vsh.home.file("zfunctions")) $fpath)\nautoload -U compinit && compinit -u\nPS1='%% '\n", to: "zdot/.zshrc")
            command = ["zsh"]
        } else {
            vsh.home.write(script, to: "vsh.fish")
            command = ["fish", "--no-config", "-C", "source \(vsh.home.file("vsh.fish")); function fish_prompt; echo '% '; end"]
        }
        let tty = try TmuxSession(command: command, environment: [
            "PATH": (VshBinary.path as NSString).deletingLastPathComponent + ":/usr/bin:/bin", "TERM": "xterm",
            "HOME": vsh.home.path, "ZDOTDIR": vsh.home.file("zdot"), "XDG_CONFIG_HOME": vsh.home.file("config"),
        ], width: 120)
        try tty.waitFor("% ")
        for (line, shown) in [("vsh qu", ["quality", "quit"]), ("vsh quality ", ["low", "medium", "high"]),
                              ("vsh record --from \(dir)/", ["note.wav", "digits.gram", "inner/"]),
                              ("vsh transcribe \(dir)/", ["note.wav", "digits.gram"]), ("vsh --store \(dir)/", ["inner/"])] {
            try tty.type(line)
            try tty.send("Tab")
            try tty.waitFor("\(shown) after '\(line)'") { screen in shown.allSatisfy(screen.contains) }
            try tty.send("C-c")
            // zsh drops keys that arrive before it has handled the interrupt: wait for the
            // new, empty prompt, then clear the screen (again, if a Ctrl-L was dropped).
            try tty.waitFor("an empty prompt") { screen in
                screen.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) == "%" } ?? false
            }
            var cleared = false
            for _ in 0..<5 where !cleared {
                try tty.send("C-l")
                cleared = (try? tty.waitFor("the prompt again", timeout: 3) { !$0.contains(line) }) != nil
            }
            #expect(cleared, "the screen still shows '\(line)'")
        }
    }
}
