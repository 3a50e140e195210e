import Foundation
import Testing
@testable import VshCore
import VshTestSupport
@testable import VshStore
@testable import VshCommandFiles
@testable import VshCommands

/// Seeded fuzzing of the readers of files people edit or damage (issue 7): the config
/// reader, the command-file parser and checker, and the store's transcript and cache
/// readers. Each gets `Fuzzer.cases` mutated inputs (`VSH_FUZZ_CASES`; `bench/fuzz.sh` runs
/// 100,000): every one must give a clear message naming the file, never crash, and finish
/// within 2 s. A failure prints the input's bytes, to paste into a regression case.
@Suite(.serialized, .tags(.slow)) struct FuzzTests {
    static let limit = Duration.seconds(2)

    /// Runs `body` on each input, checking each finishes in time.
    static func run(_ target: String, _ fuzzer: inout Fuzzer, _ body: (Int, [UInt8]) throws -> Void) rethrows {
        let clock = ContinuousClock()
        var count = 0
        let start = clock.now
        for index in 0..<Fuzzer.cases {
            let input = fuzzer.next()
            let began = clock.now
            try body(index, input)
            let took = began.duration(to: clock.now)
            #expect(took < limit, "case \(index) took \(took): \(Fuzzer.show(input))")
            count += 1
        }
        let seconds = start.duration(to: clock.now) / .seconds(1)
        print("fuzz: \(target): \(count) cases in \(String(format: "%.2f", seconds)) s (\(Int(Double(count) / max(seconds, 1e-9))) cases/s)")
    }

    static let configSeeds = [
        """
        # vsh settings
        quality = "high"

        [history]
        size = 500
        clips = true

        [voice]
        model = "/usr/share/pocketsphinx/model/en-us"
        device = "default"
        threshold = 0.5
        denoise = "auto"
        gain_control = false
        hangover_ms = 300
        reject_below = 0.2
        wake_phrase = "hey shell"
        confirm_destructive = true
        listen = "push"
        answer_seconds = 4
        """,
        "quality = 'low'\nvoice = { model = \"m\", threshold = 1 }\nhistory.size = 3\n",
        "[voice]\ndenoise = true\nthreshold = 2\n[[history]]\nsize = -1\n",
    ].map { Array($0.utf8) }

    static let header = "a table header must start with a name, like [voice]"
    static let brace = "expected a value or ']' in the list, saw '}'"
    static let separator = "a line separator character outside quotes"
    /// Files that made toml++ abort (found by the fuzzer: the first of each kind is its
    /// input, the rest variants); each must now give a warning that names the line, among
    /// the file's others in line order.
    static let unparsable: [([UInt8], Int, String)] = [
        ([0x5B, 0xF0, 0xB6, 0x8C, 0x9D] + Array("voice]\ndenoise = true\nth|reshold = 2\n#[[history]]\nsize = -1\n".utf8), 1, header),
        (Array("[|]".utf8), 1, header),
        (Array("quality = 'low'\n\n  [[ =x]]\n".utf8), 3, header),
        (Array("[\n".utf8), 1, header),
        (Array("a = \"\"\"\n[x]\n\"\"\"\n[\u{A0}voice]\n".utf8), 4, header),
        (Array("quality = 'low'\nvoice =[[[[[[[[[[[[[[[[[[[[[[}[[[[[[[[[ { model = \"m\", threshold = 1 }\nhistory.".utf8), 2, brace),
        (Array("a = [1, # c\n }]".utf8), 2, brace),
        (Array("a = [\u{2028}]".utf8), 1, separator),
        (Array("a = [\n\u{85}1]".utf8), 2, separator),
    ]

    @Test(arguments: unparsable)
    func unparsableFilesAreReportedNotACrash(_ input: [UInt8], _ line: Int, _ reason: String) {
        let dir = TempDirectory("vsh-fuzz-config")
        defer { dir.remove() }
        let path = dir.file("vsh.toml")
        _ = FileManager.default.createFile(atPath: path, contents: Data(input))
        var settings = Settings()
        // The line is named with the reason, and left out; the rest of the file is read.
        let warnings = ConfigFile.apply(path: path, to: &settings)
        #expect(warnings.contains { $0.hasPrefix("\(path):\(line): \(reason); that line is ignored") }, "\(warnings)")
    }

    /// Brackets in values, strings and comments are not headers; braces close inline tables.
    @Test func valuesThatLookLikeHeadersAreNotReported() {
        let text = "a = [\n  [1, 2],\n  [ {x = 1}, {} ],\n]\nt = { a = [1], b = {} }\nb = \"\"\"\n[|not a header\n\"\"\"\n# [|comment\n[ voice ]\n[[ \"h\" ]]\n"
        #expect(ConfigFile.unparsable(text) == nil)
        #expect(ConfigFile.unparsable("\u{FEFF}[=]")?.line == 1)
    }

    @Test func theConfigReaderAlwaysAnswersWithWarningsNamingTheFile() {
        let dir = TempDirectory("vsh-fuzz-config")
        defer { dir.remove() }
        let path = dir.file("vsh.toml")
        var fuzzer = Fuzzer(seed: 7_001, seeds: Self.configSeeds, structural: "[]=\"'(){}.,#|<>:\n\\")
        Self.run("config", &fuzzer) { index, input in
            _ = FileManager.default.createFile(atPath: path, contents: Data(input))
            var settings = Settings()
            for warning in ConfigFile.apply(path: path, to: &settings) where !warning.hasPrefix(path + ":") {
                Issue.record("case \(index): warning does not name the file: \(warning); input \(Fuzzer.show(input))")
            }
        }
    }

    static let commandSeeds = [
        CommandFileFixture.paint,
        """
        command level
        say: [please] (set | change) [the | a] level <digit> [now]
        say: (go to <digit> | <digit> go)
        run: help; quality high
        destructive: yes

        command greet
        keyword: hello there
        start: /bin/true {x}
        """,
    ].map { Array($0.utf8) }

    @Test func theCommandFileReaderAlwaysAnswersWithProblemsNamingFileAndLine() {
        let dir = TempDirectory("vsh-fuzz-commands")
        defer { dir.remove() }
        let commands = dir.file("commands")
        let path = commands + "/fuzz.commands"
        try? FileManager.default.createDirectory(atPath: commands, withIntermediateDirectories: true)
        let base = Builtins.registry()
        let dictionary = Settings().modelDirectory + "/cmudict-en-us.dict"
        // Trusted, so the pronunciation dictionary is read only for the cases that check all.
        let files = CommandFiles(directories: [commands], trusted: [commands], dictionaryPath: dictionary, cachePath: nil)
        let checked = CommandFiles(directories: [commands], dictionaryPath: dictionary, cachePath: nil)
        var fuzzer = Fuzzer(seed: 7_002, seeds: Self.commandSeeds, structural: "[]=\"()|<>:;{}$#-\n ")
        Self.run("command-files", &fuzzer) { index, input in
            #expect(FileManager.default.createFile(atPath: path, contents: Data(input)), "case \(index): not written")
            let loaded = index % 500 == 0 ? checked.load(into: base, checkAll: true) : files.load(into: base)
            for problem in loaded.problems {
                let prefix = path + (problem.line.map { ":\($0)" } ?? "") + ": "
                let lines = input.split(separator: 10, omittingEmptySubsequences: false).count
                if problem.file != path || !problem.description.hasPrefix(prefix) || (problem.line ?? 1) > lines {
                    Issue.record("case \(index): \(problem.report); input \(Fuzzer.show(input))")
                }
            }
        }
    }

    @Test func theTranscriptReaderReportsDamageAndLeavesTheFile() throws {
        let f = StoreFixture()
        let good = try f.save("hello there, general text", at: "2026-11-21T10:00:00", title: "a title")
        let seeds = [
            StoreFiles.read(f.path + "/\(good.id).txt") ?? [],
            Array("Id: x\r\nTitle: t\r\nCreated: 2026-11-21T14:02:11+01:00\r\nDuration: 1.50\r\nSample-Rate: 16000\r\n\r\nbody\n".utf8),
            Array("Created: 2026-02-29T23:59:60Z\nX-Other: kept\n\n".utf8),
        ]
        var fuzzer = Fuzzer(seed: 7_003, seeds: seeds, structural: ":\n\r -+TZ0123456789.")
        Self.run("transcript", &fuzzer) { index, input in
            do {
                _ = try TranscriptFile.read(input)
            } catch let error as DamagedFile {
                #expect(!error.reason.isEmpty)
            } catch {
                Issue.record("case \(index): unexpected \(error); input \(Fuzzer.show(input))")
            }
            guard index % 100 == 0 else { return }
            // Through the store: skipped with a warning naming the file, which is left as it was.
            let name = "20261101-\(index)"
            let file = f.path + "/\(name).txt"
            _ = FileManager.default.createFile(atPath: file, contents: Data(input))
            let listing = try? f.makeStore().items()
            #expect(listing != nil, "case \(index): listing failed; input \(Fuzzer.show(input))")
            for warning in listing?.warnings ?? [] where !warning.contains(file) {
                Issue.record("case \(index): \(warning); input \(Fuzzer.show(input))")
            }
            #expect(StoreFiles.read(file) == input, "case \(index): the file was changed")
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    @Test func theStoreCacheReaderRejectsDamageWithoutCrashing() throws {
        let f = StoreFixture()
        try f.save("alpha", at: "2026-11-21T10:00:00")
        try f.save("beta", at: "2026-11-21T11:00:00")
        _ = try f.store.items()
        try f.store.delete([try f.store.items().items[0].id])
        let index = try #require(StoreFiles.read(f.path + "/.cache/index"))
        let stamp = try #require(String(decoding: index, as: UTF8.self).split(separator: "\n").last { $0.hasPrefix("@ ") }).dropFirst(2)
        #expect(StoreIndex.parse(SharedBytes(index), expecting: String(stamp)) != nil, "the seed is valid")
        var fuzzer = Fuzzer(seed: 7_004, seeds: [index], structural: "+-!@ a\n0123456789")
        Self.run("store-cache", &fuzzer) { _, input in
            let bytes = SharedBytes(input)
            if let snapshot = StoreIndex.parse(bytes, expecting: String(stamp)) {
                for record in snapshot.records {
                    #expect(record.content.lowerBound >= 0 && record.content.upperBound <= input.count)
                }
            }
        }
    }
}
