import Foundation
import VshCore

/// What keyword commands record: `<store>/outputs.jsonl`, one JSON object per line,
/// `{"command": "code", "value": "7"}`. Appends are one `O_APPEND` write and an fsync;
/// deleting rewrites the file atomically.
package struct OutputsFile {
    package struct Record: Equatable, Sendable {
        package var command: String
        package var value: String

        package init(command: String, value: String) {
            self.command = command
            self.value = value
        }

        /// The line as stored.
        package var json: String { JSONWriter.text(write) }

        /// The record as one JSON object: `{"command": "code", "value": "73"}`.
        package func write(to json: inout JSONWriter) {
            json.object { json in
                json.field("command", command)
                json.field("value", value)
            }
        }
    }

    /// A line of the file: a record, or text that is not one (kept, shown, never lost).
    package struct Line: Equatable {
        package var text: String
        package var record: Record?
    }

    package let path: String
    let store: String

    package init(store: String) {
        self.store = store
        path = store + "/outputs.jsonl"
    }

    package func append(_ record: Record) throws {
        try FileManager.default.createDirectory(
            atPath: store, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CommandError("cannot write \(path): \(String(cString: strerror(errno))); check the store's permissions") }
        defer { close(fd) }
        let bytes = Array((record.json + "\n").utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            throw CommandError("cannot write \(path): \(String(cString: strerror(errno))); the output was not recorded")
        }
    }

    /// The lines, oldest first; none when there is no file yet.
    package func read() throws -> [Line] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError("cannot read \(path); check its permissions")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { text in
            Line(text: String(text), record: Self.record(in: String(text)))
        }
    }

    /// Removes line `number` (1 is the oldest) and returns it.
    @discardableResult
    package func delete(_ number: Int) throws -> Line {
        var lines = try read()
        guard (1...max(1, lines.count)).contains(number), !lines.isEmpty else {
            throw CommandError(lines.isEmpty ? "there are no outputs to delete"
                               : "there is no output \(number); 'outputs' numbers them 1 to \(lines.count)")
        }
        let removed = lines.remove(at: number - 1)
        try AtomicFile.write(lines.map { $0.text + "\n" }.joined(), to: path)
        return removed
    }

    static func record(in text: String) -> Record? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let command = object["command"] as? String, let value = object["value"] as? String else { return nil }
        return Record(command: command, value: value)
    }
}
