import TOMLKit
import Foundation

extension ConfigFile {
    /// The file's table, reading past mistakes: a line TOML cannot read is left out and
    /// named in a warning, and so are the settings under a table header it cannot read
    /// (they would otherwise land in the wrong table); everything else still applies.
    /// Nil, with a warning, only when the file cannot be read at all.
    static func readable(_ text: String, warnings: inout [Warning]) -> TOMLTable? {
        var lines = text.components(separatedBy: "\n")
        var left = Set<Int>()
        /// Leaves line `n` out (and, for a header, the lines up to the next one); false
        /// when there is nothing left to leave out.
        func leaveOut(_ n: Int, _ reason: String) -> Bool {
            guard (1...lines.count).contains(n), !left.contains(n) else { return false }
            let header = lines[n - 1].trimmingCharacters(in: .whitespaces).hasPrefix("[")
            var end = n
            if header {
                while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("[") { end += 1 }
            }
            let under = end > n ? (n + 1...end).filter { !Self.blank(lines[$0 - 1]) } : []
            var message = "\(reason); that line is ignored"
            if header && !under.isEmpty {
                message += ", and so are the settings under it (line\(under.count == 1 ? "" : "s") \(Self.ranges(under)))"
            }
            warnings.append(Warning(line: n, message: message + " until it is fixed"))
            for i in n...end {
                left.insert(i)
                lines[i - 1] = ""
            }
            return true
        }
        for _ in 0..<64 {
            let current = lines.joined(separator: "\n")
            if let (line, reason) = unparsable(current) {
                if leaveOut(line, reason) { continue }
                break
            }
            do {
                return try TOMLTable(string: current)
            } catch let error as TOMLParseError {
                if leaveOut(Int(error.source.begin.line), error.description) { continue }
                break
            } catch {
                break
            }
        }
        warnings.append(Warning(line: nil, message: "cannot be read as TOML; this file is ignored until it is fixed"))
        return nil
    }

    /// A top-level string setting as the file at `path` now reads, mistakes skipped.
    static func topLevelString(_ key: String, in path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var ignored: [Warning] = []
        return readable(text, warnings: &ignored)?[key]?.string
    }

    static func blank(_ line: String) -> Bool {
        let t = line.trimmingCharacters(in: .whitespaces)
        return t.isEmpty || t.hasPrefix("#")
    }

    /// `3`, `3-5`, `3-5, 8`.
    static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var start = numbers.first ?? 0, last = start
        for n in numbers.dropFirst() {
            if n == last + 1 { last = n; continue }
            parts.append(start == last ? "\(start)" : "\(start)-\(last)")
            start = n
            last = n
        }
        if !numbers.isEmpty { parts.append(start == last ? "\(start)" : "\(start)-\(last)") }
        return parts.joined(separator: ", ")
    }

    /// Where each `table.key` is assigned, and each `[table]` header stands, in the text,
    /// for warnings that name the line. Enough of TOML for vsh's own file: `[table]`
    /// headers and `key = value` lines.
    struct KeyLines {
        private var lines: [String: Int] = [:]

        init(_ text: String) {
            var table = ""
            for (i, raw) in text.components(separatedBy: "\n").enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("["), let close = line.firstIndex(of: "]") {
                    table = line[line.index(after: line.startIndex)..<close]
                        .trimmingCharacters(in: CharacterSet(charactersIn: "[] \t"))
                    if lines[table] == nil { lines[table] = i + 1 }
                } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                    let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                    let full = table.isEmpty ? key : "\(table).\(key)"
                    if lines[full] == nil { lines[full] = i + 1 }
                }
            }
        }

        func line(of key: String) -> Int? { lines[key] }
    }
}
