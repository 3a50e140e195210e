import Foundation
import VshCommands
import VshCore

/// The speech the tests decode: `Tests/Fixtures` in the checkout (small real recordings
/// and the generator of the synthetic corpus), so a plain clone runs every test.
/// Benchmarks read the larger evaluation data from ../shared/eval instead.
package enum EvalData {
    /// The repository checkout (for shipped files such as bench/commands.gram).
    package static let repository: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `Tests/Fixtures` in the checkout.
    package static let directory: String = repository + "/Tests/Fixtures"

    /// Human recordings with transcripts.
    package static var real: String { directory + "/real" }

    /// The librivox sentences and what is said in each, keyed by file path.
    package static func librivox() -> [(path: String, words: String)] {
        let dir = real + "/librivox"
        guard let text = try? String(contentsOfFile: dir + "/transcription", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            // "<s> words </s> (file-id)"
            guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
            let id = line[line.index(after: open)..<close]
            let words = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(of: "</s>", with: "")
            return (dir + "/\(id).wav", words.trimmingCharacters(in: .whitespaces))
        }
    }

    /// One file of the spoken-command corpus: what it says (commands separated by ` | `).
    package struct Spoken: Sendable {
        package var id: String
        package var path: String
        package var condition: String
        package var expected: String
    }

    private static let corpusMaking = Locked(())

    package static var corpusDirectory: String {
        let stamp = (try? FileManager.default.attributesOfItem(atPath: directory + "/make-commands-corpus")[.modificationDate] as? Date)
            .map { Int($0.timeIntervalSince1970) } ?? 0
        return FileManager.default.temporaryDirectory.path + "/vsh-corpus-\(getuid())-\(stamp)"
    }

    /// The spoken-command corpus, made by Tests/Fixtures/make-commands-corpus (espeak-ng,
    /// flite, sox; about 3 s) into `out` when it is not there yet: by default a temporary
    /// directory named for the generator's version, so it is made once.
    package static func commandCorpus(in out: String = corpusDirectory) throws -> [Spoken] {
        let generator = directory + "/make-commands-corpus"
        let manifest = out + "/manifest.tsv"
        // Tests run in parallel: one generator at a time in this process, each into a
        // scratch of its own, so a copy renamed into place is never still being written.
        try corpusMaking.withLock { _ in
            guard !FileManager.default.fileExists(atPath: manifest) else { return }
            let scratch = out + ".\(getpid()).\(UUID().uuidString)"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: generator)
            process.arguments = [scratch]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            precondition(process.terminationStatus == 0, "\(generator) failed (it needs espeak-ng, flite, sox and python3-numpy)")
            // Another test process may have finished first; either copy will do.
            if rename(scratch, out) != 0 { try? FileManager.default.removeItem(atPath: scratch) }
        }
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard c.count >= 4 else { return nil }
            return Spoken(id: c[0], path: out + "/" + c[1], condition: c[2], expected: c[3])
        }
    }

    /// Word error rate of `hypothesis` against `reference`: word-level edit distance over
    /// the reference length.
    package static func wordErrorRate(_ hypothesis: String, _ reference: String) -> Double {
        let h = hypothesis.lowercased().split(separator: " "), r = reference.lowercased().split(separator: " ")
        var row = Array(0...h.count)
        for i in 1...max(1, r.count) where !r.isEmpty {
            var next = [i] + Array(repeating: 0, count: h.count)
            for j in 1...max(1, h.count) where !h.isEmpty {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (r[i - 1] == h[j - 1] ? 0 : 1))
            }
            row = next
        }
        return Double(row[h.count]) / Double(max(1, r.count))
    }
}
