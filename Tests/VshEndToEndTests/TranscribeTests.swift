import Foundation
import Testing
import VshTestSupport

/// `vsh transcribe`: dictation with the language model and keyword spotting, on human
/// recordings.
@Suite(.tags(.slow)) struct TranscribeTests {
    struct Line: Decodable {
        var file: String
        var text: String?
        var partial: String?
        var start: Double?
        var end: Double?
    }

    func transcribe(_ vsh: VshBinary, _ arguments: [String]) throws -> [Line] {
        let result = try vsh.run(["transcribe", "--json"] + arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr == "", "PocketSphinx must log to its file, not the terminal")
        return try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Line.self, from: Data($0.utf8))
        }
    }

    /// Read sentences come out close to what was said (PocketSphinx's stock decoder gets
    /// these two at 13% and 29% word error; the bench compares all five).
    @Test func dictationOfReadSentences() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let sentences = EvalData.librivox().filter { $0.path.hasSuffix("0920.wav") || $0.path.hasSuffix("0930.wav") }
        #expect(sentences.count == 2)
        for sentence in sentences {
            let lines = try transcribe(vsh, [sentence.path])
            let text = lines.compactMap(\.text).joined(separator: " ")
            let wer = EvalData.wordErrorRate(text, sentence.words)
            #expect(wer < 0.35, "heard \"\(text)\" for \"\(sentence.words)\": \(wer)")
            #expect(lines.allSatisfy { $0.file == sentence.path })
        }
    }

    /// Partial results come while the utterance is decoded, then the final text.
    @Test func interimResults() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let file = EvalData.real + "/cards/001.wav"
        let lines = try transcribe(vsh, ["--interim", file])
        let partials = lines.compactMap(\.partial)
        #expect(partials.count >= 2)
        #expect(partials.allSatisfy { !$0.isEmpty })
        #expect(lines.last?.text == "ten of clubs")
    }

    /// A keyphrase is spotted, with its time, where it is said, and not in other speech.
    @Test func keywordSpotting() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let cards = try transcribe(vsh, ["--keywords", "ten of clubs, stop recording", EvalData.real + "/cards/001.wav"])
        #expect(cards.map(\.text) == ["ten of clubs"])
        if let hit = cards.first, let start = hit.start, let end = hit.end {
            #expect(start >= 0 && start < end && end <= 1.1)
        }
        let elsewhere = try transcribe(vsh, ["--keywords", "ten of clubs, stop recording"] + EvalData.librivox().map(\.path))
        #expect(elsewhere.isEmpty, "spotted \(elsewhere.compactMap(\.text))")
    }

    @Test func badArgumentsAreClearErrors() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let missing = try vsh.run(["transcribe", "/nonexistent/a.wav"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read audio file '/nonexistent/a.wav'"))
        let threshold = try vsh.run(["transcribe", "--keywords", "stop", "--keywords-threshold", "2", "x.wav"])
        #expect(threshold.status != 0)
        #expect(threshold.stderr.contains("--keywords-threshold must be above 0 and at most 1"))
        let unknown = try vsh.run(["transcribe", "--keywords", "stop vshzzq", EvalData.real + "/cards/001.wav"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("vshzzq"))
        #expect(missing.stderr.hasPrefix("error: "), "one form of error for every command: \(missing.stderr)")
    }

    /// A file with no speech says so rather than printing nothing.
    @Test func noSpeechIsSaid() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let quiet = vsh.home.file("quiet.raw")
        try Data(count: 32_000).write(to: URL(fileURLWithPath: quiet))
        let result = try vsh.run(["transcribe", quiet])
        #expect(result.status == 0)
        #expect(result.stdout == "")
        #expect(result.stderr == "\(quiet): no speech was found\n")
    }

    /// `listen --from` on a file with no speech says so too, rather than printing nothing
    /// (issue 28, item 15); with --json stdout stays empty, so a reader of the objects
    /// sees none.
    @Test func listenSaysWhenThereIsNoSpeech() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let quiet = vsh.home.file("quiet.raw")
        try Data(count: 32_000).write(to: URL(fileURLWithPath: quiet))
        for json in [false, true] {
            let result = try vsh.run(["listen", "--from", quiet] + (json ? ["--json"] : []))
            #expect(result.status == 0)
            #expect(result.stdout == "")
            #expect(result.stderr == "\(quiet): no speech was found\n")
        }
    }

    /// `listen` checks its threshold and that a grammar is one.
    @Test func listenRefusesABadThresholdOrGrammar() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let card = EvalData.real + "/cards/001.wav"
        let threshold = try vsh.run(["listen", "--from", card, "--threshold", "5"])
        #expect(threshold.status != 0)
        #expect(threshold.stderr.contains("--threshold must be a number from 0 to 1, not 5.0"), "\(threshold.stderr)")
        let notGrammar = vsh.home.file("passwd")
        try "root:x:0:0:root:/root:/bin/bash\n".write(toFile: notGrammar, atomically: true, encoding: .utf8)
        let grammar = try vsh.run(["listen", "--from", card, "--grammar", notGrammar])
        #expect(grammar.status != 0)
        #expect(grammar.stderr.contains("\(notGrammar) is not a JSGF grammar"), "\(grammar.stderr)")
        #expect(!grammar.stderr.contains("root:x"))
        #expect(!grammar.stderr.contains("bench/"), "no path inside the repository: \(grammar.stderr)")
        // A syntax error is named as one, with the log that says where; a word the
        // dictionary lacks is named as that.
        let broken = vsh.home.file("broken.gram")
        try "#JSGF V1.0;\ngrammar g;\npublic <c> = go | stop\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let syntax = try vsh.run(["listen", "--from", card, "--grammar", broken])
        #expect(syntax.status != 0)
        #expect(syntax.stderr.contains("not valid JSGF: it has a syntax error") && syntax.stderr.contains("pocketsphinx.log"),
                "\(syntax.stderr)")
        #expect(!syntax.stderr.contains("dictionary"))
    }
}
