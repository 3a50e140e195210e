import Foundation
import Testing
@testable import VshCore
import VshTestSupport
@testable import VshStore

/// The transcript commands over a store holding two transcripts: "groceries" (1 in a
/// listing, id 20261121-jg54) and "plumber" (2, id 20261120-f000).
@Suite struct StoreCommandTests {
    static func fixture() throws -> (StoreFixture, ShellHarness) {
        let f = StoreFixture()
        try f.save("call the plumber", at: "2026-11-20T11:22:40", title: "plumber")
        try f.save("milk eggs bread", at: "2026-11-21T14:02:11", title: "groceries")
        f.now = StoreFixture.date("2026-11-21T15:00:00")
        return (f, f.harness())
    }

    static let listed = "Today\n  1  14:02   0:01  groceries\nYesterday\n  2  11:22   0:01  plumber\n"

    struct Case: CustomTestStringConvertible, Sendable {
        var script: [String]
        var output: String
        var error: String
        var testDescription: String { script.joined(separator: " ⏎ ") }
    }

    @Test(arguments: [
        Case(script: ["show 1"], output: "",
             error: "line 1: error: show: '1' refers to a numbered listing, and there is none yet: run 'list' (or 'search WORDS') first, or give an id\n"),
        Case(script: ["list", "show 3"], output: listed,
             error: "line 2: error: show: there is no number 3 in the last listing (it has 1–2); run 'list' to see the numbers\n"),
        Case(script: ["search nothing", "show 1"], output: "No transcript contains 'nothing'.\n",
             error: "line 2: error: show: there is no number 1 in the last listing (it was empty); run 'list' to see the numbers\n"),
        Case(script: ["show 20261121-zzzz"], output: "",
             error: "line 1: error: show: no transcript with id '20261121-zzzz'; run 'list' to see the transcripts and their ids\n"),
        Case(script: ["delete 20261121-jg54", "show 20261121-jg54"], output: "",
             error: "line 2: error: show: transcript '20261121-jg54' is in the trash; 'undo' restores the last deletion, 'trash' lists them\n"),
        Case(script: ["list", "delete 2 9"], output: listed,
             error: "line 2: error: delete: there is no number 9 in the last listing (it has 1–2); run 'list' to see the numbers\n"),
        Case(script: ["delete"], output: "",
             error: "line 1: error: delete: say which transcripts to delete: numbers from 'list', or ids\nusage: delete [<number|id> ...]\n"),
        Case(script: ["search"], output: "",
             error: "line 1: error: search: give the words to search for\nusage: search [<words> ...] [--json]\n"),
        Case(script: ["undo"], output: "", error: "line 1: error: undo: nothing to undo: the trash is empty\n"),
        Case(script: ["list", "delete 1", "trash empty"], output: listed,
             error: "line 3: error: trash: emptying the trash removes 1 transcript for good; to do it, run 'trash empty --yes'\n"),
        Case(script: ["trash empty --yes", "trash"], output: "The trash is already empty.\nThe trash is empty.\n", error: ""),
        Case(script: ["list --on 21/11/2026"], output: "",
             error: "line 1: error: list: The value '21/11/2026' is invalid for '--on <date>'\nusage: list [--on <date>] [--since <date>] [--until <date>] [--json]\n"),
        Case(script: ["list --on today --since today"], output: "",
             error: "line 1: error: list: give either --on or --since/--until, not both\nusage: list [--on <date>] [--since <date>] [--until <date>] [--json]\n"),
        Case(script: ["list --since today --until yesterday"], output: "",
             error: "line 1: error: list: --since is after --until: no day is in that range\n"),
        Case(script: ["discard"], output: "",
             error: "line 1: error: discard: no recording was made in this session; give a draft's id ('drafts' lists them)\n"),
        Case(script: ["save --draft 20261121-none"], output: "",
             error: "line 1: error: save: no unsaved draft '20261121-none'; 'drafts' lists them\n"),
        Case(script: ["drafts"], output: "No unsaved drafts.\n", error: ""),
        Case(script: ["list", "delete 1", "undo", "list"],
             output: listed + "restored 1 transcript (20261121-jg54)\n" + listed,
             error: ""),
    ])
    func script(_ c: Case) throws {
        let (f, harness) = try Self.fixture()
        defer { withExtendedLifetime(f) {} }
        _ = harness.script(c.script)
        #expect(harness.output.text == c.output)
        #expect(harness.error.text == c.error)
    }

    @Test func showPrintsTheHeaderTextAndASparkline() throws {
        let (f, harness) = try Self.fixture()
        defer { withExtendedLifetime(f) {} }
        #expect(harness.script(["list", "show 1"]) == 0)
        let shown = harness.output.text.components(separatedBy: "\n").drop { $0 != "groceries" }
        #expect(Array(shown.prefix(7)) == [
            "groceries",
            "Id:       20261121-jg54",
            "Created:  Sat 21 Nov 2026 14:02",
            "Duration: 0:01 (medium, 16000 Hz, microphone default)",
            "Audio:    \(f.path)/20261121-jg54.wav",
            "",
            "milk eggs bread",
        ])
        let sparkline = Array(shown)[8]
        #expect(sparkline.count == 60)
        #expect(sparkline.first == "▁" && sparkline.last == "█", "the fixture's tone rises: \(sparkline)")
        try FileManager.default.removeItem(atPath: f.path + "/20261121-jg54.wav")
        let again = f.harness()
        #expect(again.script(["show 20261121-jg54"]) == 0)
        #expect(again.output.text.contains("Audio:    missing (\(f.path)/20261121-jg54.wav)\n\nmilk eggs bread\n"))
    }

    @Test func jsonOutputHasTheDocumentedFields() throws {
        let (f, harness) = try Self.fixture()
        defer { withExtendedLifetime(f) {} }
        #expect(harness.script(["show 20261121-jg54 --json"]) == 0)
        // An object, not an array of one (issue 28, item 11).
        let object = try #require(try JSONSerialization.jsonObject(with: Data(harness.output.text.utf8)) as? [String: Any])
        #expect(object["number"] == nil)
        #expect(object["id"] as? String == "20261121-jg54")
        #expect(object["title"] as? String == "groceries")
        #expect(object["created"] as? String == "2026-11-21T14:02:11+01:00")
        #expect(object["duration"] as? Double == 1)
        #expect(object["quality"] as? String == "medium")
        #expect(object["transcript"] as? String == "milk eggs bread")
        #expect(object["audio"] as? String == f.path + "/20261121-jg54.wav")
    }

    /// One rule for what a script sees (README, Scripts): a line that only repeats what
    /// the script said is left out; what a command shows, made or found is printed. At
    /// the prompt both are (issue 28, item 12).
    @Test(arguments: [false, true]) func scriptsSeeOnlyWhatTheyDidNotSay(interactive: Bool) throws {
        let (f, harness) = try Self.fixture()
        f.directory.write("", to: "store/model/mdef")  // an adapted model, for 'train reset'
        let lines = ["quality high", "list", "delete 1", "undo", "history export \(harness.directory.file("out.vsh"))", "train reset"]
        if interactive {
            #expect(harness.shell.runInteractive(reader: ScriptedLineReader(lines: lines)) == 0)
        } else {
            #expect(harness.script(lines) == 0)
        }
        #expect(harness.error.text == "")
        let said = harness.output.text
        #expect(said.contains(Self.listed))
        #expect(said.contains("restored 1 transcript (20261121-jg54)\n"))
        for echo in ["quality: high (48 kHz, 16-bit mono)", "deleted 'groceries'", "wrote ", "The stock speech model is in use again"] {
            #expect(said.contains(echo) == interactive, "\(echo)")
        }
    }

    /// The numbers of the last listing carry over to the next vsh (a new session over the
    /// same store): `vsh list`, then `vsh show 1`, with the ids they stood for, and a
    /// warning once the store changed since (issue 28, item 4).
    @Test func listNumbersCarryOverToTheNextSession() throws {
        let (f, first) = try Self.fixture()
        #expect(first.script(["list"]) == 0)
        #expect(first.output.text == Self.listed)

        let second = f.harness()
        #expect(second.script(["show 2"]) == 0, "\(second.error.text)")
        #expect(second.output.text.hasPrefix("plumber\n"), "\(second.output.text)")
        #expect(second.error.text == "")

        // A transcript saved since: the numbers still mean what they meant, and vsh says so.
        try f.save("new words", at: "2026-11-21T14:30:00", title: "newer")
        let changed = f.harness()
        #expect(changed.script(["show 1", "show 2"]) == 0, "\(changed.error.text)")
        #expect(changed.output.text.hasPrefix("groceries\n"), "\(changed.output.text)")
        #expect(changed.output.text.contains("\nplumber\n"))
        #expect(changed.error.text == "warning: the store changed since the last 'list' or 'search' numbered its transcripts; "
            + "each number still means the transcript it stood for then ('list' numbers them anew)\n")

        // An empty search is a listing too: it leaves no numbers.
        #expect(changed.script(["search nothing"]) == 0)
        let third = f.harness()
        #expect(third.script(["show 1"]) == 1)
        #expect(third.error.text == "line 1: error: show: there is no number 1 in the last listing (it was empty); run 'list' to see the numbers\n")
    }

    /// The kept listing is a plain file in the store's cache: its ids, number 1 first.
    @Test func theKeptListingIsAPlainFile() throws {
        let f = StoreFixture()
        f.store.keepListing(["a"])
        #expect(f.store.lastListing() == nil, "no store yet: nothing is kept")
        try f.save("milk eggs bread", at: "2026-11-21T14:02:11")
        f.store.keepListing(["20261121-jg54", "20261120-f000"])
        let text = try #require(f.directory.read("store/.cache/listing"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 5)
        #expect(lines.first == "vsh-listing 1" && lines[1].hasPrefix("@ "))
        #expect(Array(lines.dropFirst(2)) == ["20261121-jg54", "20261120-f000", ""])
        #expect(f.store.lastListing() == LastListing(ids: ["20261121-jg54", "20261120-f000"], storeChangedSince: false))
        var info = stat()
        #expect(stat(f.store.listingPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
        f.directory.write("vsh-listing 1\n@ x\n../etc\n", to: "store/.cache/listing")
        #expect(f.store.lastListing() == nil, "a damaged file is no listing")
    }
}

/// Titles are the person's (or a file's) text: their control characters are shown, never
/// sent to the terminal, wherever a title is printed.
@Suite struct TitleEscapeTests {
    @Test func listShowAndSearchShowEscapesInsteadOfObeyingThem() throws {
        let f = StoreFixture()
        _ = try f.save("plumber notes", at: "2026-11-21T10:00:00", title: "evil \u{1B}[2J\u{1B}]0;owned\u{07} title")
        f.now = StoreFixture.date("2026-11-21T15:00:00")
        let harness = f.harness()
        #expect(harness.script(["list", "show 1", "search plumber"]) == 0)
        #expect(!harness.output.text.contains("\u{1B}"), "\(harness.output.text)")
        #expect(!harness.output.text.contains("\u{07}"))
        #expect(harness.output.text.contains("evil \\x1b[2J\\x1b]0;owned\\x07 title"))
    }

    @Test(arguments: [("plain", "plain"), ("tab\there", "tab here"), ("nl\nx", "nl\\x0ax"), ("c1\u{9B}2J", "c1\\x9b2J"),
                      ("café ☕️", "café ☕️"), ("del\u{7F}", "del\\x7f")])
    func visibleText(_ input: String, _ shown: String) {
        #expect(input.visible == shown)
    }
}

/// Long queries: the words are made plain once, and plain words skip the argument parser.
@Suite struct SearchQueryTests {
    @Test func repeatedAndContainedWordsAreDroppedLongestFirst() throws {
        let search = try #require(TextSearch(["Cat", "category", "cat", "dog", "", "do"]))
        #expect(search.words.map { String(decoding: $0, as: UTF8.self) } == ["category", "dog"])
    }

    @Test func plainWordsGiveTheSameCommandAsTheParser() throws {
        let (store, harness) = try StoreCommandTests.fixture()
        defer { withExtendedLifetime(store) {} }
        let many = (0..<5_000).map { "w\($0)" }
        #expect(harness.script(["search \(many.joined(separator: " "))", "search milk", "search --json milk"]) == 0)
        #expect(harness.output.text.hasPrefix("No transcript contains 'w0' and 'w1' and 'w2' and 'w3' and 'w4' and 'w5' and 'w6' and 'w7' and 4992 more words.\n"))
        #expect(harness.output.text.contains("  1  14:02   0:01  groceries\n"), "\(harness.output.text)")
        #expect(harness.output.text.contains("\"title\": \"groceries\""))
        // A negative number is a number that is not in the listing, not an unknown option.
        harness.error.clear()
        #expect(harness.script(["list", "show -1"]) == 1)
        #expect(harness.error.text == "line 2: error: show: there is no number -1 in the last listing (it has 1–2); run 'list' to see the numbers\n")
        // Checked as the parser checks: no words is an error either way.
        #expect(harness.script(["delete"]) == 1)
        #expect(harness.error.text.contains("say which transcripts to delete"))
    }
}
