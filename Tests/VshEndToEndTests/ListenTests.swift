import Foundation
import Testing
import VshTestSupport

/// `vsh listen --from FILE`: real decoding of human recordings with PocketSphinx.
@Suite(.tags(.slow)) struct ListenTests {
    static let real = EvalData.real

    struct Line: Decodable {
        var text: String
        var command: String?
        var confidence: Double
        var start: Double
        var end: Double
    }

    func listen(_ vsh: VshBinary, _ arguments: [String]) throws -> [Line] {
        let result = try vsh.run(["listen", "--json"] + arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr == "", "PocketSphinx must log to its file, not the terminal")
        return try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Line.self, from: Data($0.utf8))
        }
    }

    @Test func rawFileWithItsGrammar() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let lines = try listen(vsh, ["--from", Self.real + "/goforward.raw", "--grammar", Self.real + "/goforward.gram"])
        #expect(lines.count == 1)
        #expect(lines.first?.text == "go forward ten meters")
        #expect(lines.first?.command == "go forward ten meters")
        if let line = lines.first {
            #expect(line.start >= 0 && line.start < line.end && line.end <= 2.79)  // 2.786 s of audio
            #expect(line.confidence > 0 && line.confidence <= 1)
        }
        // The decoder's log went to the state directory.
        #expect(FileManager.default.fileExists(atPath: vsh.home.file("state/vsh/pocketsphinx.log")))
    }

    /// --levels: a level every 25 ms of audio, in order, louder where the words are, and
    /// the utterance as before.
    @Test func levelsForAMeter() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run(["listen", "--from", Self.real + "/goforward.raw", "--grammar", Self.real + "/goforward.gram",
                                  "--json", "--levels"])
        #expect(result.status == 0)
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let levels = objects.compactMap { o -> (Double, Double)? in
            guard let l = o["level"] as? Double, let t = o["time"] as? Double else { return nil }
            return (l, t)
        }
        #expect(levels.count == Int(2.786 / 0.025))  // 2.786 s of audio
        #expect(zip(levels, levels.dropFirst()).allSatisfy { abs($1.1 - $0.1 - 0.025) < 1e-6 })
        let loudest = levels.map(\.0).max() ?? -120, quietest = levels.map(\.0).min() ?? 0
        #expect(loudest > -30 && loudest <= 0 && loudest - quietest > 20, "\(quietest)...\(loudest) dB")
        #expect(objects.contains { $0["text"] as? String == "go forward ten meters" })
        #expect(try vsh.run(["listen", "--from", Self.real + "/goforward.raw", "--levels"]).stderr.contains("--levels goes with --json"))
    }

    @Test(arguments: [
        ("001", "ten of clubs"),
        ("002", "four queen of clubs"),
        ("003", "seven of clubs"),
        ("004", "five five"),
        ("005", "eight of spades four of clubs seven of hearts"),
    ])
    func cards(_ file: String, _ said: String) throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let lines = try listen(vsh, [
            "--from", Self.real + "/cards/\(file).wav", "--grammar", Self.real + "/cards/cards.gram",
        ])
        #expect(lines.map(\.text) == [said])
    }

    /// Read sentences are speech, but not commands: none of them may run one, though the
    /// grammar search alone maps every one of them to some command.
    @Test func outOfGrammarSpeechRunsNothing() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let grammar = EvalData.repository + "/bench/commands.gram"
        let sentences = EvalData.librivox()
        #expect(sentences.count == 5, "the five librivox sentences of Tests/Fixtures")
        for sentence in sentences {
            let lines = try listen(vsh, ["--from", sentence.path, "--grammar", grammar])
            #expect(!lines.isEmpty, "the sentence is heard as speech")
            #expect(lines.allSatisfy { $0.command == nil }, "\(sentence.path): \(lines.map(\.text))")
        }
    }

    /// A word people say most, said on its own, is heard as itself by the prompt's grammar,
    /// whose likeliest everyday words weigh more (`CommandGrammar.weighsCommonWords`), and
    /// runs nothing. A grammar of one's own weighs every everyday word alike: given vsh's
    /// commands as a file, the same real "up"s are heard as `stop` and `help`, and `help`
    /// runs; `stop` does not, as its S is not there (`Hiss`). A real "stop" runs `stop`
    /// either way.
    @Test(arguments: [("up_4fd1443e_nohash_0", "stop", nil), ("up_50033893_nohash_2", "help", "help"),
                      ("stop_0cb74144_nohash_0", "stop", "stop")])
    func theLikeliestWordsWeighMoreAtThePromptOnly(_ name: String, heardFromFile: String, runsFromFile: String?) throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let clip = Self.real + "/speech-commands/\(name).flac"
        let word = String(name.prefix { $0 != "_" })
        let prompt = try listen(vsh, ["--from", clip])
        #expect(prompt.map(\.text) == [word])
        #expect(prompt.map(\.command) == [word == "stop" ? "stop" : nil])
        let file = try listen(vsh, ["--from", clip, "--grammar", EvalData.repository + "/bench/commands.gram"])
        #expect(file.map(\.text) == [heardFromFile])
        #expect(file.map(\.command) == [runsFromFile])
    }

    /// `--config DIR` is read wherever it stands: after `listen` (where the subcommand's
    /// help shows it) and before it (the root's option). A model directory that does not
    /// exist, set only in DIR's vsh.toml, shows which configuration was read.
    @Test func configDirectoryIsReadAfterOrBeforeTheSubcommand() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let config = vsh.home.file("elsewhere")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try Data("[voice]\nmodel = \"/nonexistent/model\"\n".utf8).write(to: URL(fileURLWithPath: config + "/vsh.toml"))
        let file = Self.real + "/cards/001.wav"
        for arguments in [["listen", "--from", file, "--config", config], ["--config", config, "listen", "--from", file],
                          ["transcribe", file, "--config", config]] {
            let result = try vsh.run(arguments)
            #expect(result.status != 0, "\(arguments): \(result.stdout)")
            #expect(result.stderr.contains("/nonexistent/model"), "\(arguments): \(result.stderr)")
        }
        #expect(try vsh.run(["listen", "--from", file]).status == 0, "without it, the default configuration")
    }

    @Test func missingFileIsAClearError() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run(["listen", "--from", "/nonexistent/x.wav"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot read audio file '/nonexistent/x.wav': no such file"))
        #expect(result.stderr.hasPrefix("error: "), "one form of error, as in the shell: \(result.stderr)")
    }
}
