import Foundation

/// The speech the tests decode: ../shared/eval beside the checkout (as CI has it), or
/// $VSH_EVAL. A missing directory stops the tests with a message saying where to put it.
public enum EvalData {
    public static let directory: String = {
        if let eval = ProcessInfo.processInfo.environment["VSH_EVAL"], !eval.isEmpty { return eval }
        let path = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/eval").path
        precondition(FileManager.default.fileExists(atPath: path + "/real/goforward.raw"),
                     "the speech recordings are not at \(path): put shared/ beside the checkout or set VSH_EVAL")
        return path
    }()

    /// Human recordings with transcripts.
    public static var real: String { directory + "/real" }

    /// The repository checkout (for shipped files such as bench/commands.gram).
    public static let repository: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The librivox sentences and what is said in each, keyed by file path.
    public static func librivox() -> [(path: String, words: String)] {
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

    /// Word error rate of `hypothesis` against `reference`: word-level edit distance over
    /// the reference length.
    public static func wordErrorRate(_ hypothesis: String, _ reference: String) -> Double {
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
