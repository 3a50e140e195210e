import Foundation

/// How a command reached the shell.
package enum InputSource: String, Sendable {
    case typed, spoken
}

/// One line of command history.
package struct HistoryEntry: Sendable, Equatable {
    package var time: Date
    package var source: InputSource
    /// Recognition confidence in 0…1 for spoken lines.
    package var confidence: Double?
    package var line: String
    /// The audio of a spoken line (a WAV file), while the clip store keeps it.
    package var clip: String?

    package init(time: Date, source: InputSource, confidence: Double? = nil, line: String, clip: String? = nil) {
        self.time = time
        self.source = source
        self.confidence = confidence
        self.line = line
        self.clip = clip
    }
}

/// Command history kept across runs in a plain file, one entry per line:
/// `time<TAB>typed|spoken<TAB>confidence or -<TAB>command`, and for spoken lines with
/// saved audio a fifth field, `<TAB>clip path` (commands never hold tabs). Several vsh processes
/// append to one file; it is trimmed to `limit` entries when it grows past it.
package final class CommandHistory {
    package private(set) var entries: [HistoryEntry] = []
    package let path: String?
    package let limit: Int
    /// Lines of the file that could not be read, for a warning.
    package private(set) var skippedLines = 0
    /// What went wrong reading the file, for a warning at start (the file, what is wrong
    /// with it, what to do); nil when all of it was read.
    package private(set) var problem: String?

    nonisolated(unsafe) private static let formatter: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f
    }()

    /// History backed by `path` (nil keeps it in memory only, as for scripts).
    package init(path: String?, limit: Int) {
        self.path = path
        self.limit = max(0, limit)
        load()
    }

    private func load() {
        var isDirectory: ObjCBool = false
        guard let path, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            problem = isDirectory.boolValue
                ? "\(path) is a directory, not a history file; move it aside, and vsh starts a new history there"
                : "cannot read the history file \(path) (check its permissions); this session starts with no history"
            return
        }
        // Read what can be read even of a damaged file; the lines that are no entry are
        // counted and said.
        let text = String(decoding: data, as: UTF8.self)
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = raw.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            if raw.hasPrefix("#") { continue }
            guard fields.count == 4 || fields.count == 5, let time = Self.formatter.date(from: String(fields[0])),
                  let source = InputSource(rawValue: String(fields[1])) else {
                skippedLines += 1
                continue
            }
            entries.append(HistoryEntry(
                time: time, source: source, confidence: Double(fields[2]), line: String(fields[3]),
                clip: fields.count == 5 && !fields[4].isEmpty ? String(fields[4]) : nil))
        }
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        guard skippedLines > 0 else { return }
        let lines = skippedLines == 1 ? "1 line" : "\(skippedLines) lines"
        problem = String(data: data, encoding: .utf8) == nil
            ? "\(path) is not a text file, so \(lines) of it could not be read as history; move it aside, and vsh starts a new history there"
            : "\(path): skipped \(lines) that \(skippedLines == 1 ? "is" : "are") not history (time, typed or spoken, confidence and command, "
                + "separated by tabs); correct or delete \(skippedLines == 1 ? "it" : "them")"
    }

    static func format(_ e: HistoryEntry) -> String {
        let confidence = e.confidence.map { String(format: "%.2f", $0) } ?? "-"
        let line = e.line.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
        let clip = e.clip.map { "\t" + $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ") } ?? ""
        return "\(formatter.string(from: e.time))\t\(e.source.rawValue)\t\(confidence)\t\(line)\(clip)\n"
    }

    /// Adds an entry and appends it to the file. Returns a message when the file could
    /// not be written (the entry is still kept for this session).
    @discardableResult
    package func append(_ entry: HistoryEntry) -> String? {
        guard limit > 0 else { return nil }
        entries.append(entry)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        guard let path else { return nil }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw CommandError(String(cString: strerror(errno))) }
            let bytes = Array(Self.format(entry).utf8)
            let n = bytes.withUnsafeBufferPointer { Foundation.write(fd, $0.baseAddress, $0.count) }
            close(fd)
            if n != bytes.count { throw CommandError(String(cString: strerror(errno))) }
            try trimIfNeeded(path: path)
        } catch {
            return "cannot save history to \(path): \(error)"
        }
        return nil
    }

    /// Rewrites the file with the newest `limit` entries once it holds a quarter more.
    private func trimIfNeeded(path: String) throws {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? Int else { return }
        // Only count lines when the file could plausibly be over the limit.
        guard size > limit * 40 else { return }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.count > limit + limit / 4 else { return }
        let kept = lines.suffix(limit).joined(separator: "\n") + "\n"
        try AtomicFile.write(kept, to: path)
    }
}
