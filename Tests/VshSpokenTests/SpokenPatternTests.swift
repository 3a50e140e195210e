import Testing
@testable import VshCore
@testable import VshVoice
@testable import VshCommands
@testable import VshSpoken

@Suite struct SpokenPatternTests {
    @Test(arguments: [
        ("stop recording", "stop recording"),
        ("quality (low | medium | high)", "quality (low | medium | high)"),
        ("[set] quality (low|high)", "[set] quality (low | high)"),
        ("delete [transcript] <number>", "delete [transcript] <number>"),
        ("count <digits>", "count <digit>+"),
        ("Help", "help"),
    ])
    func parsesToJSGF(_ pattern: String, _ jsgf: String) throws {
        #expect(try SpokenPattern.parse(pattern).jsgf == jsgf)
    }

    @Test(arguments: [
        ("quality (low | high", "missing ')' at column 20 of \"quality (low | high\""),
        ("quality low)", "unexpected ')' at column 12 of \"quality low)\""),
        ("delete <thing>", "unknown slot <thing> in \"delete <thing>\"; use <digit>, <digits> or <number>"),
        ("say (a | )", "empty choice at column 10 of \"say (a | )\""),
        ("play #2", "unexpected '#' at column 6 of \"play #2\""),
    ])
    func errors(_ pattern: String, _ message: String) {
        #expect(throws: SpokenPattern.ParseError(message: message)) { try SpokenPattern.parse(pattern) }
    }

    @Test(arguments: [
        ("quality (low | medium | high)", "quality medium", ["medium"]),
        ("quality (low | medium | high)", "quality", nil),
        ("[set] quality (low | high)", "set quality high", ["high"]),
        ("[set] quality (low | high)", "quality low", ["low"]),
        ("delete [transcript] <number>", "delete transcript seven", ["7"]),
        ("delete [transcript] <number>", "delete twenty one", ["21"]),
        ("delete [transcript] <number>", "delete twenty", ["20"]),
        ("delete [transcript] <number>", "delete fifteen", ["15"]),
        ("code <digit>", "code oh", ["0"]),
        ("code <digit>", "code seven three", nil),
        ("count <digits>", "count one two three", ["123"]),
        ("listen (on | off)", "listen off", ["off"]),
        ("(start recording | record)", "record", ["record"]),
        ("(start recording | record)", "start recording", ["start recording"]),
    ] as [(String, String, [String]?)])
    func matches(_ pattern: String, _ said: String, _ captures: [String]?) throws {
        let words = said.split(separator: " ").map(String.init)
        #expect(try SpokenPattern.parse(pattern).match(words) == captures)
    }

    @Test func builtinGrammarCoversItsFormsAndMapsBack() {
        let grammar = VoiceGrammar(registry: Builtins.registry())
        #expect(grammar.problems.isEmpty)
        #expect(grammar.jsgf.hasPrefix("#JSGF V1.0;\ngrammar vsh;\npublic <command> = <form0> | "))
        #expect(grammar.vocabulary.isSuperset(of: ["quality", "low", "medium", "high", "help", "exit", "history", "set"]))
        #expect(grammar.interpret(["set", "quality(2)", "high"])?.line == "quality high")
        #expect(grammar.interpret(["<sil>", "help", "</s>"])?.line == "help")
        #expect(grammar.interpret(["show", "history"])?.command == "history")
        #expect(grammar.interpret(["quality", "loud"]) == nil)
        #expect(grammar.interpret([]) == nil)
    }

    @Test func everyBuiltinSpokenFormParses() throws {
        for entry in Builtins.all {
            for form in entry.info.spokenForms {
                _ = try SpokenPattern.parse(form.pattern)
            }
        }
    }

    /// The words a phrase can begin with: past optional parts, into alternatives, never a
    /// slot's number words (what names the word a lone number lacks).
    @Test func firstWords() throws {
        #expect(try SpokenPattern.parse("play <number>").firstWords == ["play"])
        #expect(try SpokenPattern.parse("(show | list) [all]").firstWords == ["show", "list"])
        #expect(try SpokenPattern.parse("[please] [go] back").firstWords == ["please", "go", "back"])
        #expect(try SpokenPattern.parse("<number> times").firstWords == [])
    }
}
