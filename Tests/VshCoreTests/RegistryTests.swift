import Testing
@testable import VshCore
import VshTestSupport
@testable import VshStore
@testable import VshCommands

@Suite struct RegistryTests {
    @Test func builtinNamesAndAliasesAreUnique() throws {
        var seen = Set<String>()
        for entry in Builtins.all {
            for name in [entry.info.name] + entry.info.aliases {
                #expect(seen.insert(name).inserted, "'\(name)' is used twice")
            }
        }
        // Registering them all must not throw either.
        var registry = CommandRegistry()
        for entry in Builtins.all { try registry.register(entry) }
        #expect(registry.entries.count == Builtins.all.count)
    }

    /// Commands whose arguments are free words, which a grammar of commands cannot hear,
    /// and `train`, a two-minute session a misheard word should not start.
    static let typedOnly: Set = ["search", "train"]

    @Test func everyBuiltinDescribesItself() {
        for entry in Builtins.all {
            #expect(!entry.info.summary.isEmpty, "\(entry.info.name) has no summary")
            #expect(entry.usage.hasPrefix(entry.info.name), "usage of \(entry.info.name): \(entry.usage)")
            #expect(!entry.info.spokenForms.isEmpty || Self.typedOnly.contains(entry.info.name),
                    "\(entry.info.name) has no spoken form")
        }
    }

    /// `history --last -1` gives -1 to --last: the options that take a value are read
    /// from the usage line, and a flag before a positional is not one of them.
    @Test func optionsWithAValueComeFromTheUsage() {
        #expect(CommandEntry.valuedOptions(in: "history [<replay|export>] [<n|file>] [--last <n>]") == ["--last"])
        #expect(CommandEntry.valuedOptions(in: "list [--on <date>] [--since <date>] [--until <date>] [--json]")
            == ["--on", "--since", "--until"])
        #expect(CommandEntry.valuedOptions(in: "show [--json] <n|id>") == [])
    }

    @Test func duplicateNamesAreRefused() throws {
        var registry = Builtins.registry()
        let clash = CommandEntry(
            info: CommandInfo(name: "hello", aliases: ["help"], summary: "x"),
            usage: "hello", helpText: { "" }, parse: { _ in .failure("never") })
        #expect(throws: CommandError("command name 'help' is already used by 'help'")) {
            try registry.register(clash)
        }
        #expect(registry.lookup("hello") == nil)
    }

    @Test(arguments: [
        ("lookup quit finds exit", "quit", "exit"),
        ("lookup exit", "exit", "exit"),
        ("lookup quality", "quality", "quality"),
    ])
    func lookup(_ label: String, _ name: String, _ expected: String) {
        #expect(Builtins.registry().lookup(name)?.info.name == expected, "\(label)")
    }

    @Test(arguments: [
        ("hlep", "help"),        // transposition
        ("qualty", "quality"),   // deletion
        ("histroy", "history"),
        ("exti", "exit"),
        ("xyz", nil),            // nothing close
        ("lsit", "list"),        // transposition
        ("q", nil),
    ] as [(String, String?)])
    func suggestions(_ typed: String, _ expected: String?) {
        #expect(Builtins.registry().suggestion(for: typed) == expected)
    }

    @Test(arguments: [
        ("", "", ["delete", "discard", "drafts", "encrypt", "exit", "help", "history", "list", "listen", "outputs", "play", "quality", "quit",
                  "record", "reload", "save", "search", "show", "stop", "train", "trash", "undo"]),
        ("h", "h", ["help", "history"]),
        ("qua", "qua", ["quality"]),
        ("quality ", "", ["low", "medium", "high"]),
        ("quality m", "m", ["medium"]),
        ("quality high ", "", []),
        ("trash ", "", ["empty"]),
        ("help; qu", "qu", ["quality", "quit"]),
        ("nosuch ", "", []),
        ("history ", "", ["replay", "export"]),
        ("history e", "e", ["export"]),
        ("history replay ", "", []),
        ("history replay 3 ", "", []),
        ("history --last 5 ", "", []),
        ("help quality ", "", []),
        ("listen o", "o", ["on", "off"]),
        ("", "", Builtins.registry().allNames),
    ])
    func completion(_ text: String, _ partial: String, _ matches: [String]) {
        let result = Completion.candidates(for: text, registry: Builtins.registry())
        #expect(result.partial == partial)
        #expect(result.matches == matches)
    }

    @Test func commonPrefix() {
        #expect(Completion.commonPrefix(["history", "help"]) == "h")
        #expect(Completion.commonPrefix(["quality"]) == "quality")
        #expect(Completion.commonPrefix([]) == "")
    }
}

/// Tab completion beyond command names and fixed values.
@Suite struct CompletionTests {
    @Test func optionsFilesAndHelpComplete() throws {
        let registry = Builtins.registry()
        #expect(Completion.candidates(for: "record --", registry: registry).matches == ["--from", "--title"])
        #expect(Completion.candidates(for: "record --f", registry: registry).matches == ["--from"])
        #expect(Completion.candidates(for: "help qu", registry: registry).matches == ["quality", "quit"])
        let dir = TempDirectory()
        defer { dir.remove() }
        dir.write("x", to: "notes/one.wav")
        dir.write("x", to: "notes/two.wav")
        dir.write("x", to: "notes/.hidden")
        dir.write("x", to: "notes/sub/three.wav")
        let base = dir.file("notes") + "/"
        #expect(Completion.candidates(for: "record --from \(base)", registry: registry).matches
                == [base + "one.wav", base + "sub/", base + "two.wav"])
        #expect(Completion.candidates(for: "record --from \(base)t", registry: registry).matches == [base + "two.wav"])
        #expect(Completion.candidates(for: "history export \(base)o", registry: registry).matches == [base + "one.wav"])
        #expect(Completion.candidates(for: "history export \(base)s", registry: registry).matches == [base + "sub/"])
    }

    /// Completion reads what each command declares its arguments to be; none is named in it.
    @Test func commandsDeclareWhatTheirArgumentsAre() throws {
        #expect(HelpCommand.info.arguments == [.commandName])
        #expect(HelpCommand.info.argumentKind(after: []) == .commandName)
        #expect(HelpCommand.info.argumentKind(after: ["record"]) == nil)
        let history = HistoryCommand.info
        #expect(history.argumentKind(after: []) == .subcommands([.init("replay"), .init("export", [.file])]))
        #expect(history.argumentKind(after: ["export"]) == .file)
        #expect(history.argumentKind(after: ["replay"]) == nil)
        #expect(history.argumentKind(after: ["export", "out.vsh"]) == nil)
        #expect(QualityCommand.info.argumentKind(after: []) == .values(["low", "medium", "high"]))
        // A command that declares a file at its first argument gets files there.
        let dir = TempDirectory()
        defer { dir.remove() }
        dir.write("x", to: "in/take.wav")
        var registry = CommandRegistry()
        try registry.register(CommandEntry(
            info: CommandInfo(name: "open", summary: "Open a file", arguments: [.file]), usage: "open <file>",
            helpText: { "" }, parse: { _ in .failure("") }))
        #expect(Completion.candidates(for: "open \(dir.file("in"))/", registry: registry).matches == [dir.file("in/take.wav")])
    }
}
