import Foundation
import Testing
@testable import VshCore
import VshTestSupport
@testable import VshStore
@testable import VshVoice
@testable import VshCommandFiles
@testable import VshCommands

/// Reading and checking command files: what loads, and every message a mistake gets.
/// Serialized: the cases share the dictionary lookups this process has made.
@Suite(.serialized) struct CustomCommandFileTests {
    @Test func aGoodFileLoadsItsCommandsIntoTheRegistry() throws {
        let fixture = CommandFileFixture(["paint.commands": CommandFileFixture.paint])
        let loaded = fixture.load()
        #expect(loaded.problems.map(fixture.shorten) == [])
        #expect(loaded.commands.map(\.name) == ["paint", "stack"])
        let paint = try #require(loaded.registry.lookup("paint"))
        #expect(paint.usage == "paint <colour>")
        #expect(paint.info.summary == "Paint the wall")
        #expect(paint.info.spokenForms == [
            SpokenForm("paint [the] wall (red | green | dark blue)", runs: "paint \"$1\""),
            SpokenForm("(colour | paint) it (red | green | dark blue) please", runs: "paint \"$2\""),
        ])
        #expect(paint.info.arguments == [.values(["red", "green", "navy"])])
        let stack = try #require(loaded.registry.lookup("stack"))
        #expect(stack.info.spokenForms == [SpokenForm("stack <number> (boxes | crates)", runs: "stack $1")])
        #expect(stack.info.summary == "exec: /bin/echo {number}", "without summary:, the action is the summary")
        // The grammar maps speech back to typed lines that parse.
        let grammar = VoiceGrammar(registry: loaded.registry)
        #expect(grammar.problems.isEmpty)
        #expect(grammar.interpret("paint the wall dark blue".split(separator: " ").map(String.init))?.line == "paint \"dark blue\"")
        #expect(grammar.interpret("paint it green please".split(separator: " ").map(String.init))?.line == "paint \"green\"")
        #expect(grammar.interpret(["stack", "twelve", "crates"])?.line == "stack 12")
    }

    /// Optional slots and groups around slots are spelt out, so `$N` always names the
    /// right capture whatever was said.
    @Test(arguments: [
        ("[please] (set | change) [the | a] level <digit> [now]", [
            "[please] (set | change) (the | a) level <digit> [now]",
            "[please] (set | change) level <digit> [now]",
        ], ["please set the level seven now": "level 7", "change level oh": "level 0"]),
        ("(go to <digit> | <digit> go)", ["go to <digit>", "<digit> go"], ["go to three": "level 3", "five go": "level 5"]),
        ("level <digits> [twice]", ["level <digits> [twice]"], ["level one two twice": "level 12"]),
    ] as [(String, [String], [String: String])])
    func patternsAreSpeltOutIntoFixedCaptures(_ say: String, _ forms: [String], _ heard: [String: String]) throws {
        let fixture = CommandFileFixture(["l.commands": "command level\nsay: \(say)\nrun: help\n"])
        let loaded = fixture.load()
        #expect(loaded.problems.map(fixture.shorten) == [])
        let entry = try #require(loaded.registry.lookup("level"))
        #expect(entry.info.spokenForms.map(\.pattern) == forms)
        let grammar = VoiceGrammar(registry: loaded.registry)
        for (said, line) in heard {
            #expect(grammar.interpret(said.split(separator: " ").map(String.init))?.line == line, "\(said)")
        }
    }

    /// Every message a mistake in a command file gets: the file, the line, what is
    /// wrong and what to do. The rest of the file still loads.
    @Test(arguments: [
        // Syntax.
        ("command Paint\nsay: paint\nrun: help",
         ["error: x.commands:1: 'Paint' cannot name a command; write 'command NAME' with a lower-case name of letters, digits and '-' (it is what you type)"]),
        ("command\nsay: paint\nrun: help",
         ["error: x.commands:1: 'command' needs a name; write 'command NAME' with a lower-case name of letters, digits and '-' (it is what you type)"]),
        ("list colour red | green",
         ["error: x.commands:1: a list needs a name and its words: 'list NAME: one | two | three'"]),
        ("list Colour: red",
         ["error: x.commands:1: 'Colour' cannot name a list; use lower-case letters, digits and '_', as in 'list colour: red | green'"]),
        ("list number: one | two",
         ["error: x.commands:1: 'number' is a built-in slot; give the list another name"]),
        ("list colour: red || green",
         ["error: x.commands:1: list 'colour' has an empty item; remove the extra '|'"]),
        ("list colour: red | #00f",
         ["error: x.commands:1: '#00f' in list 'colour' is not something to say; use words of letters (and ' or -), then '= value' for what it gives"]),
        ("list colour: red | blue =",
         ["error: x.commands:1: 'blue =' in list 'colour' gives nothing; write the value after '=' or drop the '='"]),
        ("list colour: red | Red",
         ["error: x.commands:1: 'red' is in list 'colour' twice; remove one"]),
        ("list colour: red\nlist colour: green",
         ["warning: x.commands:2: list 'colour' is also defined on line 1; these words are added to it (write the list on one line to say so)"]),
        ("command paint\nsay paint",
         ["error: x.commands:1: command 'paint' has nothing to say; add a 'say:' line with the words that run it",
          "error: x.commands:2: cannot read 'say paint'; expected 'command NAME', 'list NAME: …' or 'KEY: VALUE' with KEY one of summary, say, run, exec, start, keyword, destructive"]),
        ("command paint\nsya: paint\nsay: paint\nrun: help",
         ["error: x.commands:2: unknown key 'sya'; did you mean 'say'?"]),
        ("command paint\nsay: paint\nrun: help\nbananas: yes",
         ["error: x.commands:4: unknown key 'bananas'; use one of summary, say, run, exec, start, keyword, destructive"]),
        ("say: paint\ncommand paint\nsay: paint\nrun: help",
         ["error: x.commands:1: 'say:' is outside any command; start one with 'command NAME' above it"]),
        ("command paint\nsay: paint\nsummary:\nrun: help",
         ["error: x.commands:3: 'summary:' has no value; write it after the colon"]),
        // Commands.
        ("command paint\nsummary: one\nsummary: two\nsay: paint\nrun: help",
         ["error: x.commands:3: 'summary:' is given twice for 'paint' (first on line 2); keep one"]),
        ("command paint\nrun: help",
         ["error: x.commands:1: command 'paint' has nothing to say; add a 'say:' line with the words that run it"]),
        ("command paint\nsay: paint",
         ["error: x.commands:1: command 'paint' does nothing; add 'run:' (vsh commands), 'exec:' or 'start:' (a program), or 'keyword:'"]),
        ("command paint\nsay: paint\ndestructive: maybe\nrun: help",
         ["error: x.commands:3: destructive: must be yes or no, not 'maybe'"]),
        // Patterns.
        ("command paint\nsay: paint (red | green\nsay: paint\nrun: help",
         ["error: x.commands:2: missing ')' at column 19 of \"paint (red | green\"; fix the pattern (see 'Your own voice commands' in the README)"]),
        ("command paint\nsay: paint red)\nsay: paint\nrun: help",
         ["error: x.commands:2: unexpected ')' at column 10 of \"paint red)\"; fix the pattern (see 'Your own voice commands' in the README)"]),
        ("command paint\nsay: paint <colour>\nrun: help",
         ["error: x.commands:2: unknown slot <colour> in \"paint <colour>\"; use <digit>, <digits>, <number>, <number 1-20> or a list of this file ('list colour: …')"]),
        ("list colour: red\ncommand paint\nsay: paint <color>\nrun: help",
         ["error: x.commands:3: unknown slot <color> in \"paint <color>\"; did you mean <colour>? (lists are defined with 'list NAME: …')"]),
        ("command paint\nsay: paint <number 5>\nrun: help",
         ["error: x.commands:2: <number 5> is not a range; write it as <number 1-20>"]),
        ("command paint\nsay: paint <number 1-500>\nrun: help",
         ["error: x.commands:2: <number 1-500> reaches beyond 0-99, the numbers vsh can hear; narrow the range"]),
        ("command paint\nsay: [paint]\nrun: help",
         ["error: x.commands:2: \"[paint]\" can be said as nothing at all; make at least one word required"]),
        ("command paint\nsay: paint [a | b] [c | d] [e | f] [g | h] [i | j] [k | l] [m | n]\nrun: help",
         ["error: x.commands:2: \"paint [a | b] [c | d] [e | f] [g | h] [i | j] [k | l] [m | n]\" has 128 ways to be said once its optional slots and groups are spelt out; split it into several 'say:' lines",
          ]),
        ("command volume\nsay: volume <number>\nsay: (mute | volume <number>)\nrun: help",
         ["error: x.commands:3: \"mute\" fills no <number>; every way of saying 'volume' must fill the same slots (<number>), so say this in a command of its own"]),
        ("command volume\nsay: (mute | volume <number>)\nsay: level <number>\nrun: help",
         ["error: x.commands:2: \"volume <number>\" has <number>, which other ways of saying 'volume' do not fill; every way of saying it must fill the same slots (none), so say this in a command of its own"]),
        ("command volume\nsay: volume <number>\nsay: volume <number> <digit>\nrun: help",
         ["error: x.commands:3: \"volume <number> <digit>\" has <digit>, which other ways of saying 'volume' do not fill; every way of saying it must fill the same slots (<number>), so say this in a command of its own"]),
        ("command volume\nsay: volume <number>\nsay: level <number 1-5>\nrun: help",
         ["error: x.commands:3: \"level <number 1-5>\" has <number 1-5> where other ways of saying 'volume' have <number>; use the same slot"]),
        ("list colour: #1\ncommand paint\nsay: paint <colour>\nrun: help",
         ["error: x.commands:1: '#1' in list 'colour' is not something to say; use words of letters (and ' or -), then '= value' for what it gives",
          "error: x.commands:1: list 'colour' has no items, so <colour> can never be filled; give it some"]),
        // Actions.
        ("command paint\nsay: paint\nkeyword: add\nrun: help",
         ["error: x.commands:4: 'paint' is a keyword command (line 3); it cannot also run something — move this to a command of its own"]),
        ("command paint\nsay: paint\nkeyword: finish",
         ["error: x.commands:3: keyword: must be add, back, reset or done, not 'finish'"]),
        ("command paint\nsay: paint <number>\nkeyword: add",
         ["error: x.commands:3: a keyword command takes digits, but 'paint' has <number>; use <digit> or <digits>"]),
        ("command paint\nsay: paint <digit>\nkeyword: back",
         ["error: x.commands:3: keyword: back takes no digits, but 'paint' has <digit>; remove it"]),
        ("command paint\nsay: paint\nrun: quality 'low",
         ["error: x.commands:3: unterminated ' quote in: quality 'low; close the quote"]),
        ("command paint\nsay: paint\nrun: help; paint",
         ["error: x.commands:3: 'paint' runs itself, which would never end; run other commands"]),
        ("command paint\nsay: paint\nexec: /bin/echo a; rm x",
         ["error: x.commands:3: exec: runs one program, and no shell reads it, so ';' separates nothing; put it in quotes, or use one 'exec:' line per program"]),
        ("command paint\nsay: paint <digit>\nexec: {digit}",
         ["error: x.commands:3: the program's name cannot come from a slot ('{digit}'); name the program, and pass the slot as an argument"]),
        ("command paint\nsay: paint\nexec: no-such-program-vsh --now",
         ["error: x.commands:3: program 'no-such-program-vsh' is not installed (not found on PATH); install it, or give its full path"]),
        ("command paint\nsay: paint\nstart: /nowhere/paint",
         ["error: x.commands:3: program '/nowhere/paint' does not exist or cannot be run; check the path, or make it executable (chmod +x)"]),
        ("list colour: red\ncommand paint\nsay: paint <colour>\nexec: /bin/echo {color}",
         ["error: x.commands:4: {color} is not a slot of 'paint'; its slots are {colour}"]),
        ("command paint\nsay: paint\nrun: quality {level}",
         ["error: x.commands:3: {level} is not a slot of 'paint'; 'paint' has no slots"]),
        ("command paint\nsay: paint\nrun: qualty high",
         ["warning: x.commands:3: 'paint' runs 'qualty', which is not a command; did you mean 'quality'?"]),
        // Against the built-ins.
        ("command help\nsay: assist me\nrun: quality",
         ["error: x.commands:1: 'help' is a built-in command; give yours another name"]),
        ("command assist\nsay: help\nsay: assist me\nrun: help",
         ["error: x.commands:2: saying \"help\" could mean 'assist' or the built-in 'help'; change the words of one of them"]),
        ("command loud\nsay: make it loud\nsay: quality (high | higher)\nrun: quality high",
         ["error: x.commands:3: saying \"quality high\" could mean 'loud' or the built-in 'quality'; change the words of one of them"]),
        // Words vsh cannot hear.
        ("command paint\nsay: paint the wallz\nsay: paint\nrun: help",
         ["error: x.commands:2: 'wallz' is not in the pronunciation dictionary, so vsh cannot hear \"paint the wallz\"; did you mean 'wall' or 'walla' or 'walle'? use words it knows (typing 'paint' still works)"]),
        ("command paint\nsay: zqxv\nsay: paint\nrun: help",
         ["error: x.commands:2: 'zqxv' is not in the pronunciation dictionary, so vsh cannot hear \"zqxv\"; use words it knows (typing 'paint' still works)"]),
    ] as [(String, [String])])
    func mistakes(_ text: String, _ expected: [String]) {
        let fixture = CommandFileFixture(["x.commands": text])
        #expect(fixture.problems() == expected)
    }

    @Test func clashesAndSoundAlikesAcrossFiles() {
        let fixture = CommandFileFixture([
            "a.commands": "command lights-on\nsay: lights on\nrun: help\n\ncommand jump\nsay: jump <digit>\nrun: help\n",
            "b.commands": "command lamp\nsay: lights on\nsay: lamp on\nrun: help\n\ncommand goal\nsay: jump five\nrun: help\n"
                + "\ncommand tights\nsay: tights on\nrun: help\n",
            "c.commands": "command lamp\nsay: lantern\nrun: help\n",
        ])
        #expect(fixture.problems() == [
            "error: b.commands:2: saying \"lights on\" could mean 'lamp' or 'lights-on' (a.commands:2); change the words of one of them",
            "error: b.commands:7: saying \"jump five\" could mean 'goal' or 'jump' (a.commands:6); change the words of one of them",
            "warning: b.commands:11: \"tights on\" sounds like \"lights on\" of 'lights-on' (a.commands:2), so the recogniser may take one for the other; choose words that sound more different",
            "error: c.commands:1: command 'lamp' is already defined at b.commands:1; rename one of them (to replace a shipped file, give yours the same file name)",
        ])
    }

    /// The sound-alike index finds what comparing every pair would: one phone apart for
    /// short phrases, two for long ones (substitutions, insertions and deletions mixed).
    @Test func soundAlikesMatchPairwiseDistance() {
        let long = "A B C D E F G H I J K L M N".split(separator: " ").map(String.init)
        var twoApart = long
        twoApart[3] = "X"
        twoApart.remove(at: 8)
        var threeApart = long
        threeApart[0] = "Y"
        threeApart[5] = "Z"
        threeApart[10] = "W"
        let phones: [String: [String]] = [
            "long": long, "twoapart": twoApart, "threeapart": threeApart,
            "play": ["P", "L", "EY"], "pay": ["P", "EY"], "bay": ["B", "EY"],
        ]
        var checks = CommandFileChecks()
        for (i, word) in ["long", "twoapart", "threeapart", "play", "pay", "bay"].enumerated() {
            checks.add(word, owner: .init(command: word, file: "f", line: i + 1), command: i, index: 0)
        }
        let warned = checks.soundAlikes(phones: phones, changed: ["f"]).map { "\($0.line!): \($0.message.prefix { $0 != "," })" }
        #expect(warned == [
            "2: \"twoapart\" sounds like \"long\" of 'long' (f:1)",
            "5: \"pay\" sounds like \"play\" of 'play' (f:4)",
            "6: \"bay\" sounds like \"pay\" of 'pay' (f:5)",
        ])
        #expect(PhoneDistance.within([1, 2, 3], [1, 3], 1))
        #expect(!PhoneDistance.within([1, 2, 3], [3, 1], 1))
    }

    /// A broken file next to good ones: its problems are reported, the rest load.
    @Test func aBrokenFileDoesNotStopTheOthers() {
        let fixture = CommandFileFixture([
            "a.commands": "command alpha\nsay: alpha\nrun: help\n",
            "b.commands": "command beta\nsay: beta (gamma\nrun: help\n\ncommand gamma\nsay: gamma\nrun: help\n",
            "c.commands": "\u{FF}\u{FE}not text",
            "d.commands": "command delta\nsay: delta\nrun: help\n",
        ])
        fixture.directory.write("", to: "commands/ignored.txt")
        try? Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: fixture.directory.file("commands/c.commands")))
        let loaded = fixture.load()
        #expect(loaded.commands.map(\.name) == ["alpha", "gamma", "delta"])
        #expect(loaded.problems.map(fixture.shorten) == [
            "error: b.commands:2: missing ')' at column 12 of \"beta (gamma\"; fix the pattern (see 'Your own voice commands' in the README)",
            "error: c.commands: is not UTF-8 text; save it as UTF-8",
        ])
    }

    /// Like ssh with its keys: a file others may write is refused, with the fix.
    @Test func filesOthersCanWriteAreRefused() throws {
        let fixture = CommandFileFixture([
            "open.commands": "command alpha\nsay: alpha\nrun: help\n",
            "theirs.commands": "command beta\nsay: beta\nrun: help\n",
            "mine.commands": "command gamma\nsay: gamma\nrun: help\n",
        ])
        let open = fixture.directory.file("commands/open.commands")
        chmod(open, 0o666)
        let theirs = fixture.directory.file("commands/theirs.commands")
        if getuid() == 0 { chown(theirs, 4321, 4321) }
        let loaded = fixture.load()
        #expect(loaded.commands.map(\.name) == (getuid() == 0 ? ["gamma"] : ["gamma", "beta"]))
        var expected = ["error: \(open): refused: the file is writable by other users (mode 666), so they could make vsh run any program; run 'chmod go-w \(open)'"]
        if getuid() == 0 {
            expected.append("error: \(theirs): refused: the file belongs to another user (uid 4321), who could make vsh run any program; copy it into a file of your own")
        }
        #expect(loaded.problems.map(\.report) == expected)

        chmod(fixture.commandsDirectory, 0o777)
        #expect(fixture.load().problems.map(\.report) == [
            "error: \(fixture.commandsDirectory): refused: the directory is writable by other users (mode 777), so they could make vsh run any program; run 'chmod go-w \(fixture.commandsDirectory)'",
        ])
    }

    /// A user file replaces the shipped file of the same name; other names add up.
    @Test func userFilesOverrideShippedOnesByName() {
        let shipped = CommandFileFixture([
            "keywords.commands": "command code\nsay: code <digit>\nkeyword: add\n",
            "extra.commands": "command alpha\nsay: alpha\nrun: help\n",
        ])
        let user = CommandFileFixture(["keywords.commands": "command pin\nsay: pin <digit>\nkeyword: add\n"])
        let files = CommandFiles(directories: [shipped.commandsDirectory, user.commandsDirectory],
                                 dictionaryPath: CommandFileFixture.dictionary, cachePath: nil)
        let loaded = files.load(into: Builtins.registry())
        #expect(loaded.problems.isEmpty)
        #expect(loaded.commands.map(\.name) == ["alpha", "pin"])
        #expect(loaded.files == [shipped.commandsDirectory + "/extra.commands", user.commandsDirectory + "/keywords.commands"])
    }

    @Test func theShippedCommandFilesLoadCleanly() throws {
        let files = CommandFiles(directories: [EvalData.repository + "/commands"],
                                 dictionaryPath: CommandFileFixture.dictionary, cachePath: nil)
        let loaded = files.load(into: Builtins.registry(), checkAll: true)
        #expect(loaded.problems.map(\.report) == [])
        for name in ["code", "count", "back", "reset", "done"] {
            #expect(loaded.registry.lookup(name) != nil, "\(name) is shipped")
        }
        #expect(VoiceGrammar(registry: loaded.registry).problems.isEmpty)
    }
}
