import Foundation
import TOMLKit

/// Reads `vsh.toml` files into `Settings`, and writes single settings back into the
/// user's file without disturbing the rest of it (comments and order survive).
package enum ConfigFile {
    /// Applies the file at `path` on top of `settings`. A missing file is not an error.
    /// Problems never stop vsh: each becomes a warning naming the file, line or key,
    /// and the setting keeps its previous value.
    package static func apply(path: String, to settings: inout Settings) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        if isDirectory.boolValue { return ["\(path): is a directory, not a settings file; move it aside; using defaults"] }
        guard let data = FileManager.default.contents(atPath: path) else {
            return ["\(path): cannot read the file (check its permissions); using defaults"]
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return ["\(path): is not UTF-8 text, so no setting in it was read; save it as UTF-8 TOML, or remove it; using defaults"]
        }
        return apply(text: text, path: path, to: &settings)
    }

    static func apply(text: String, path: String, to settings: inout Settings) -> [String] {
        var warnings: [Warning] = []
        guard let table = readable(text, warnings: &warnings) else { return Warning.texts(warnings, path: path) }
        let where_ = KeyLines(text)
        func unknown(_ key: String, isTable: Bool) {
            let names = isTable ? SettingKey.tables.sorted() : SettingKey.all.map(\.name)
            var message = isTable ? "unknown table [\(key)], so the settings under it are ignored" : "unknown setting '\(key)'"
            if isTable, let dot = key.firstIndex(of: ".") {
                message += "; [\(key[..<dot])] holds settings, not tables"
            } else if let near = Suggest.closest(to: key, among: names) {
                message += isTable ? "; did you mean [\(near)]?" : "; did you mean '\(near)'?"
            } else if isTable {
                message += "; the tables are " + names.map { "[\($0)]" }.joined(separator: ", ")
            }
            warnings.append(Warning(line: where_.line(of: key), message: message))
        }
        func set(_ setting: SettingKey, _ value: TOMLValueConvertible) {
            if let problem = setting.apply(value, &settings) { warnings.append(Warning(line: where_.line(of: setting.name), message: problem)) }
        }
        for (key, value) in table {
            if let setting = SettingKey.named(key) {
                set(setting, value)
            } else if SettingKey.tables.contains(key) {
                guard let sub = value.table else {
                    warnings.append(Warning(line: where_.line(of: key), message: "'\(key)' must be a table ([\(key)])"))
                    continue
                }
                for (subkey, subvalue) in sub {
                    if let setting = SettingKey.named(subkey, in: key) {
                        set(setting, subvalue)
                    } else {
                        unknown("\(key).\(subkey)", isTable: subvalue.table != nil)
                    }
                }
            } else {
                unknown(key, isTable: value.table != nil)
            }
        }
        return Warning.texts(warnings, path: path)
    }

    /// A problem with one line of the file (`line` nil: with the whole file).
    struct Warning {
        var line: Int?
        var message: String

        /// `path:line: message`, in the order of the file's lines (TOMLKit hands the
        /// keys over sorted by name, not by line); those about the whole file first.
        static func texts(_ warnings: [Warning], path: String) -> [String] {
            warnings.enumerated()
                .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
                .map { w in w.element.line.map { "\(path):\($0): \(w.element.message)" } ?? "\(path): \(w.element.message)" }
        }
    }

    /// Sets a top-level `key = "value"` in the file at `path`, creating it if needed.
    /// An existing assignment is replaced in place; otherwise the line goes before the
    /// first table. The write is atomic.
    package static func setTopLevel(key: String, value: String, in path: String) throws {
        let existing = FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
        let text = edited(existing ?? "", key: key, value: value)
        try AtomicFile.write(text, to: path)
    }

    static func edited(_ text: String, key: String, value: String) -> String {
        var lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        let assignment = "\(key) = \"\(value)\""
        var firstTable: Int?
        for (i, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") {
                firstTable = i
                break
            }
            if trimmed.hasPrefix(key) {
                let rest = trimmed.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
                if rest.hasPrefix("=") {
                    lines[i] = assignment
                    return lines.joined(separator: "\n") + "\n"
                }
            }
        }
        lines.insert(assignment, at: firstTable ?? lines.count)
        return lines.joined(separator: "\n") + "\n"
    }
}
