import Foundation
import TOMLKit

/// Reads `vsh.toml` files into `Settings`, and writes single settings back into the
/// user's file without disturbing the rest of it (comments and order survive).
package enum ConfigFile {
    /// Applies the file at `path` on top of `settings`. A missing file is not an error.
    /// Problems never stop vsh: each becomes a warning naming the file, line or key,
    /// and the setting keeps its previous value.
    package static func apply(path: String, to settings: inout Settings) -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            return [isDirectory.boolValue
                ? "\(path): is a directory, not a settings file; move it aside; using defaults"
                : "\(path): cannot read the file (check its permissions); using defaults"]
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return ["\(path): is not UTF-8 text, so no setting in it was read; save it as UTF-8 TOML, or remove it; using defaults"]
        }
        return apply(text: text, path: path, to: &settings)
    }

    static func apply(text: String, path: String, to settings: inout Settings) -> [String] {
        var warnings: [String] = []
        guard let table = readable(text, path: path, warnings: &warnings) else { return warnings }
        let where_ = KeyLines(text)
        /// `path:line` of the key's assignment, or `path` when it cannot be found.
        func at(_ key: String) -> String { where_.line(of: key).map { "\(path):\($0)" } ?? path }
        func unknown(_ key: String) {
            var message = "\(at(key)): unknown setting '\(key)'"
            if let near = Suggest.closest(to: key, among: SettingKey.all.map(\.name)) { message += "; did you mean '\(near)'?" }
            warnings.append(message)
        }
        func set(_ setting: SettingKey, _ value: TOMLValueConvertible) {
            if let problem = setting.apply(value, &settings) { warnings.append("\(at(setting.name)): \(problem)") }
        }
        for (key, value) in table {
            if let setting = SettingKey.named(key) {
                set(setting, value)
            } else if SettingKey.tables.contains(key) {
                guard let sub = value.table else {
                    warnings.append("\(at(key)): '\(key)' must be a table ([\(key)])")
                    continue
                }
                for (subkey, subvalue) in sub {
                    if let setting = SettingKey.named(subkey, in: key) { set(setting, subvalue) } else { unknown("\(key).\(subkey)") }
                }
            } else {
                unknown(key)
            }
        }
        return warnings
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
