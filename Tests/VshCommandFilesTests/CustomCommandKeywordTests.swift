import Foundation
import Testing
@testable import VshCore
import VshSpoken
import VshTestSupport
@testable import VshStore
@testable import VshVoice
@testable import VshCommandFiles
@testable import VshCommands

/// The keyword commands shipped in commands/keywords.commands, through the shell.
@Suite(.serialized) struct CustomCommandKeywordTests {
    /// A shell with the shipped command files.
    static func shell() -> ShellHarness {
        let harness = ShellHarness()
        harness.session.custom.files = CommandFiles(
            directories: [EvalData.repository + "/commands"],
            dictionaryPath: CommandFileFixture.dictionary, cachePath: harness.directory.file("state/command-words"))
        harness.session.loadCommandFiles()
        return harness
    }

    @Test func theStateMachineThroughAScript() {
        let shell = Self.shell()
        let status = shell.script([
            "done",                 // waiting: nothing to record
            "back",                 // waiting: nothing to clear
            "code 7",               // starts 'code' with 7
            "seven three",          // listening: digits are added
            "hello there",          // listening: other words are ignored
            "back",                 // clears the digits, keeps 'code'
            "done",                 // no digits yet
            "count 4 5",            // adds a row
            "code nine",            // adds one more
            "done",                 // records code 459, back to waiting
            "quality",              // runs again
            "count one two three",
            "reset",                // drops it
            "done",
            "code 0",
            "done",
            "outputs",
            "outputs delete 1",
            "outputs --json",
            "outputs delete 5",
        ])
        #expect(status == 1)
        #expect(shell.output.text == """
            {"command": "code", "value": "459"}
            medium
            {"command": "code", "value": "0"}
            1  code  459
            2  code  0
            [
            {"command": "code", "value": "0"}
            ]

            """)
        #expect(shell.error.text == """
            line 1: error: done: no keyword command is active, so there is nothing to record; start with a keyword such as 'code'
            line 2: error: back: no keyword command is active, so there are no digits to clear; start with a keyword such as 'code'
            line 7: error: done: 'code' has no digits yet; say some first, or reset
            line 14: error: done: no keyword command is active, so there is nothing to record; start with a keyword such as 'code'
            line 20: error: outputs: there is no output 5; 'outputs' numbers them 1 to 1

            """)
        let file = OutputsFile(store: shell.session.paths.store)
        #expect((try? String(contentsOfFile: file.path, encoding: .utf8)) == "{\"command\": \"code\", \"value\": \"0\"}\n")
        #expect(posixMode(file.path) == 0o600)
        #expect(posixMode(shell.session.paths.store) == 0o700)
    }

    /// The prompt shows what vsh listens to; ignored words get a note at the prompt.
    @Test func thePromptShowsTheState() {
        let shell = Self.shell()
        let reader = ScriptedLineReader(lines: ["code 7", "3", "hello", "back", "count 12", "done", "quality"])
        #expect(shell.shell.runInteractive(reader: reader) == 0)
        #expect(reader.prompts == [
            "vsh> ", "vsh [code 7]> ", "vsh [code 7 3]> ", "vsh [code 7 3]> ", "vsh [code]> ", "vsh [code 1 2]> ", "vsh> ", "vsh> ",
        ])
        #expect(shell.output.text == "{\"command\": \"code\", \"value\": \"12\"}\nmedium\n\n")
        #expect(shell.error.text == "listening to 'code': 'hello' ignored; say digits, or 'reset' to stop (typed commands still run)\n")
    }

    /// Ctrl-D at `vsh [code 4]>` leaves the keyword command and says so; vsh leaves only
    /// at the plain prompt.
    @Test func ctrlDLeavesTheKeywordCommandFirst() {
        let shell = Self.shell()
        let reader = ScriptedLineReader([.line("code 4"), .endOfInput, .line("done"), .endOfInput, .line("quality")])
        #expect(shell.shell.runInteractive(reader: reader) == 0)
        #expect(reader.prompts == ["vsh> ", "vsh [code 4]> ", "vsh> ", "vsh> "])
        #expect(shell.output.text == "\n\n")
        #expect(shell.error.text == """
            left the keyword command 'code 4' without recording it; Ctrl-D again leaves vsh
            error: done: no keyword command is active, so there is nothing to record; start with a keyword such as 'code'

            """)
    }

    /// While a keyword command listens, a typed command runs (typing 'quality high' is not
    /// digits gone wrong); spoken words other than digits are still ignored.
    @Test func typedCommandsRunWhileAKeywordCommandListens() {
        let shell = Self.shell()
        let spokenHelp = SpokenLine(line: "help", heard: "help", confidence: 0.9)
        let reader = ScriptedLineReader([
            .line("code 7"), .line("quality high"), .line("quality"), .spoken(spokenHelp), .line("3"), .line("done"),
        ])
        #expect(shell.shell.runInteractive(reader: reader) == 0)
        #expect(shell.output.text == "quality: high (48 kHz, 16-bit mono)\nhigh\n{\"command\": \"code\", \"value\": \"73\"}\n\n")
        #expect(shell.error.text == "listening to 'code': 'help' ignored; say digits, or 'reset' to stop (typed commands still run)\n")
        #expect(reader.prompts[1...2] == ["vsh [code 7]> ", "vsh [code 7]> "])
    }

    @Test func heardKeywordsMapToTheirTypedLines() {
        let shell = Self.shell()
        let grammar = VoiceGrammar(registry: shell.session.registry)
        #expect(grammar.interpret(["code", "seven"])?.line == "code 7")
        #expect(grammar.interpret(["count", "one", "two", "three"])?.line == "count 123")
        #expect(grammar.interpret(["code", "seven", "three"]) == nil, "code takes one digit")
        for word in ["back", "reset", "done"] { #expect(grammar.interpret([word])?.line == word) }
    }

    func posixMode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1
    }
}

/// What a reload says it loaded: the person's commands apart from the shipped ones.
@Suite struct CommandFilesSummaryTests {
    @Test func theSummarySeparatesYourCommandsFromTheShippedOnes() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        dir.write("command wipe\nsay: wipe [the] wall\nrun: help\n", to: "mine/wipe.commands")
        chmod(dir.file("mine"), 0o700)
        chmod(dir.file("mine/wipe.commands"), 0o600)
        let shipped = EvalData.repository + "/commands"
        let files = CommandFiles(
            directories: [shipped, dir.file("mine")], trusted: [shipped],
            dictionaryPath: CommandFileFixture.dictionary, cachePath: dir.file("words"))
        let loaded = files.load(into: Builtins.registry())
        #expect(loaded.problems.isEmpty, "\(loaded.problems.map(\.report))")
        let ours = loaded.commands.filter { !$0.file.hasPrefix(shipped + "/") }.count
        #expect(ours == 1)
        #expect(files.summary(of: loaded) == "\(loaded.commands.count) custom command(s) loaded (1 from your files, \(loaded.commands.count - 1) shipped)")
    }
}
