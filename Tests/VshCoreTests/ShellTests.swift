import Testing
@testable import VshCore
import VshTestSupport
@testable import VshCommands

@Suite struct ShellTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var script: [String]
        var strict = false
        var output: String
        var error: String
        var status: Int32
        var testDescription: String { script.joined(separator: " ⏎ ") }
    }

    @Test(arguments: [
        Case(script: ["quality high", "quality", "exit"], output: "high\n", error: "", status: 0),
        Case(script: ["quality"], output: "medium\n", error: "", status: 0),
        Case(script: ["# a comment", "", "   ", "quality low; quality"], output: "low\n", error: "", status: 0),
        Case(script: ["lsit"], output: "",
             error: "line 1: error: unknown command 'lsit'; did you mean 'list'?\n", status: 1),
        Case(script: ["LIST"], output: "",
             error: "line 1: error: unknown command 'LIST'; did you mean 'list'?\n", status: 1),
        Case(script: ["quality", "hlep", "quality"], output: "medium\nmedium\n",
             error: "line 2: error: unknown command 'hlep'; did you mean 'help'?\n", status: 1),
        Case(script: ["hlep", "quality"], strict: true, output: "",
             error: "line 1: error: unknown command 'hlep'; did you mean 'help'?\n", status: 1),
        Case(script: ["quality ultra"], output: "",
             error: "line 1: error: quality: The value 'ultra' is invalid for '<low|medium|high>'. Please provide one of 'low', 'medium' or 'high'.\nusage: quality [<low|medium|high>]\n",
             status: 1),
        Case(script: ["quality low high"], output: "",
             error: "line 1: error: quality: Unexpected argument 'high'\nusage: quality [<low|medium|high>]\n", status: 1),
        Case(script: ["history --last 0"], output: "",
             error: "line 1: error: history: --last must be at least 1, not 0\nusage: history [<replay|export>] [<n|file>] [--last <n>] [--json]\n", status: 1),
        Case(script: ["history --last -1"], output: "",
             error: "line 1: error: history: --last must be at least 1, not -1\nusage: history [<replay|export>] [<n|file>] [--last <n>] [--json]\n", status: 1),
        Case(script: ["history replay 999"], output: "",
             error: "line 1: error: history: the history is empty, so there is no entry 999 to replay; type or say a command first\n", status: 1),
        Case(script: ["save 'unfinished"], output: "",
             error: "line 1: error: unterminated ' quote in: save 'unfinished\n", status: 1),
        Case(script: ["exit", "quality"], output: "", error: "", status: 0),
        Case(script: ["nope", "exit", "quality"], output: "",
             error: "line 1: error: unknown command 'nope'; type 'help' to see the commands\n", status: 1),
        Case(script: ["help nosuch"], output: "", error: "line 1: error: help: no command named 'nosuch'\n", status: 1),
        Case(script: ["encrypt maybe"], output: "",
             error: "line 1: error: encrypt: The value 'maybe' is invalid for '<on|off>'. Please provide one of 'on' and 'off'.\nusage: encrypt [<on|off>] [--json]\n",
             status: 1),
        Case(script: ["help qualty"], output: "",
             error: "line 1: error: help: no command named 'qualty'; did you mean 'quality'?\n", status: 1),
    ])
    func script(_ c: Case) {
        let harness = ShellHarness()
        let status = harness.script(c.script, strict: c.strict)
        #expect(harness.output.text == c.output)
        #expect(harness.error.text == c.error)
        #expect(status == c.status)
    }

    @Test func qualityIsSavedToTheUsersConfig() throws {
        let harness = ShellHarness()
        #expect(harness.script(["quality high"]) == 0)
        let saved = try #require(harness.directory.read("config/vsh.toml"))
        #expect(saved == "quality = \"high\"\n")
        var settings = Settings()
        #expect(ConfigFile.apply(path: harness.session.paths.userConfigFile, to: &settings) == [])
        #expect(settings.quality == .high)
    }

    /// A file where the configuration directory should be is named as such, not given
    /// as Foundation's "NSCocoaErrorDomain Code=516".
    @Test func aFileInPlaceOfTheConfigDirectoryIsNamed() {
        let harness = ShellHarness()
        let config = harness.session.paths.config
        harness.directory.write("not a directory\n", to: "config")
        #expect(harness.script(["quality low"]) == 1)
        #expect(harness.error.text == "line 1: error: quality: could not save quality to \(config)/vsh.toml: cannot create the directory "
            + "\(config): \(config) is a file, not a directory; the setting holds for this session only\n")
    }

    @Test func helpListsEveryCommandAndExplainsOne() {
        let harness = ShellHarness()
        #expect(harness.script(["help", "help quality"]) == 0)
        let text = harness.output.text
        for entry in Builtins.all { #expect(text.contains("  \(entry.info.name)  ") || text.contains("  \(entry.info.name) ")) }
        #expect(text.contains("quality — Show or set the recording quality"))
        #expect(text.contains("usage: quality [<low|medium|high>]"))
        #expect(text.contains("say:   \"quality (low | medium | high)\", \"set quality (low | medium | high)\""))
        #expect(!text.contains("--help"))
    }

    @Test func dashDashHelpShowsUsageAndSucceeds() {
        let harness = ShellHarness()
        #expect(harness.script(["quality --help"]) == 0)
        #expect(harness.output.text.contains("USAGE: quality [<low|medium|high>]"))
        #expect(harness.error.text == "")
    }

    @Test func interactiveLinesGoToHistoryAndRecall() {
        let harness = ShellHarness()
        let reader = ScriptedLineReader([.line("quality"), .interrupted, .line("  "), .line("hlep"), .line("history")])
        #expect(harness.shell.runInteractive(reader: reader) == 0)
        #expect(reader.recalled == ["quality", "hlep", "history"])
        #expect(reader.prompts.allSatisfy { $0 == "vsh> " })
        #expect(harness.output.text.hasSuffix("1  typed       quality\n2  typed       hlep\n3  typed       history\n\n"))
        #expect(harness.error.text == "error: unknown command 'hlep'; did you mean 'help'?\n")
        // A new session over the same file sees the same history.
        let again = CommandHistory(path: harness.session.paths.historyFile, limit: 10)
        #expect(again.entries.map(\.line) == ["quality", "hlep", "history"])
    }

    /// Ctrl-D that a hook takes (a question answered, a keyword command left) keeps vsh
    /// at the prompt; the next one, which no hook takes, leaves.
    @Test func ctrlDLeavesOnlyWhenNoHookTakesIt() {
        let harness = ShellHarness()
        var pending = 1
        harness.session.hooks.endOfInput.append { shell in
            guard pending > 0 else { return false }
            pending -= 1
            shell.error.line("(taken)")
            return true
        }
        let reader = ScriptedLineReader([.endOfInput, .line("quality"), .endOfInput, .line("quality high")])
        #expect(harness.shell.runInteractive(reader: reader) == 0)
        #expect(harness.output.text == "\nmedium\n\n")
        #expect(harness.error.text == "(taken)\n")
        #expect(reader.prompts.count == 3, "the line after the second Ctrl-D is never read")
    }

    @Test func exitEndsTheInteractiveLoop() {
        let harness = ShellHarness()
        let reader = ScriptedLineReader(lines: ["exit", "quality"])
        #expect(harness.shell.runInteractive(reader: reader) == 0)
        #expect(harness.output.text == "")
        #expect(reader.prompts.count == 1)
    }

    @Test func commandStringRunsInOrder() {
        let harness = ShellHarness()
        #expect(harness.shell.runCommandString("quality low; quality; bogus; quality", strict: false) == 1)
        #expect(harness.output.text == "low\nlow\n")
        #expect(harness.error.text == "error: unknown command 'bogus'; type 'help' to see the commands\n")
        let strict = ShellHarness()
        #expect(strict.shell.runCommandString("bogus; quality", strict: true) == 1)
        #expect(strict.output.text == "")
    }
}
