import Foundation
import TOMLKit

/// Reads `vsh.toml` files into `Settings`, and writes single settings back into the
/// user's file without disturbing the rest of it (comments and order survive).
package enum ConfigFile {
    /// Every key vsh understands, as `table.key` (top-level keys have no table).
    static let keys = ["quality", "history.size", "voice.model", "voice.device", "voice.threshold",
                       "voice.denoise", "voice.gain_control", "voice.hangover_ms", "voice.early_end_ms", "voice.reject_below",
                       "voice.wake_phrase", "voice.confirm_destructive", "voice.listen", "voice.answer_seconds", "history.clips"]

    /// Applies the file at `path` on top of `settings`. A missing file is not an error.
    /// Problems never stop vsh: each becomes a warning naming the file, line or key,
    /// and the setting keeps its previous value.
    package static func apply(path: String, to settings: inout Settings) -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) else {
            return ["\(path): cannot read the file (check its permissions); using defaults"]
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
            if let near = Suggest.closest(to: key, among: keys) { message += "; did you mean '\(near)'?" }
            warnings.append(message)
        }
        func string(_ key: String, _ value: TOMLValueConvertible) -> String? {
            if let s = value.string { return s }
            warnings.append("\(at(key)): '\(key)' must be a string in quotes, not \(value.debugDescription)")
            return nil
        }
        for (key, value) in table {
            switch key {
            case "quality":
                guard let s = string(key, value) else { continue }
                if let q = Quality(rawValue: s) {
                    settings.quality = q
                } else {
                    warnings.append("\(at("quality")): quality \"\(s)\" is not one of low, medium, high; using \(settings.quality.rawValue)")
                }
            case "history", "voice":
                guard let sub = value.table else {
                    warnings.append("\(at(key)): '\(key)' must be a table ([\(key)])")
                    continue
                }
                for (subkey, subvalue) in sub {
                    let full = "\(key).\(subkey)"
                    switch full {
                    case "history.size":
                        if let n = subvalue.int, n >= 0 {
                            settings.historySize = n
                        } else {
                            warnings.append("\(at(full)): history.size must be a whole number of entries, not \(subvalue.debugDescription)")
                        }
                    case "voice.model":
                        if let s = string(full, subvalue) { settings.modelDirectory = s }
                    case "voice.device":
                        if let s = string(full, subvalue) { settings.audioDevice = s }
                    case "voice.threshold":
                        if let x = subvalue.double ?? subvalue.int.map(Double.init), (0...1).contains(x) {
                            settings.voiceThreshold = x
                        } else {
                            warnings.append("\(at(full)): voice.threshold must be a number from 0 to 1, not \(subvalue.debugDescription)")
                        }
                    case "voice.denoise":
                        if let b = subvalue.bool {
                            settings.denoise = b ? .on : .off
                        } else if let s = subvalue.string, let mode = Denoise(rawValue: s) {
                            settings.denoise = mode
                        } else {
                            warnings.append("\(at(full)): voice.denoise must be \"auto\", true or false, not \(subvalue.debugDescription)")
                        }
                    case "voice.gain_control":
                        if let b = subvalue.bool {
                            settings.gainControl = b
                        } else {
                            warnings.append("\(at(full)): \(full) must be true or false, not \(subvalue.debugDescription)")
                        }
                    case "voice.hangover_ms":
                        if let n = subvalue.int, (50...3000).contains(n) {
                            settings.hangover = n
                        } else {
                            warnings.append("\(at(full)): voice.hangover_ms must be a whole number of milliseconds from 50 to 3000, not \(subvalue.debugDescription)")
                        }
                    case "voice.early_end_ms":
                        if let n = subvalue.int, n == 0 || (50...3000).contains(n) {
                            settings.earlyEnd = n
                        } else {
                            warnings.append("\(at(full)): voice.early_end_ms must be 0 (off) or a whole number of milliseconds from 50 to 3000, not \(subvalue.debugDescription)")
                        }
                    case "history.clips":
                        if let n = subvalue.int, n >= 0 {
                            settings.historyClips = n
                        } else {
                            warnings.append("\(at(full)): history.clips must be a whole number of clips, not \(subvalue.debugDescription)")
                        }
                    case "voice.reject_below":
                        if let x = subvalue.double ?? subvalue.int.map(Double.init), (0...1).contains(x) {
                            settings.voiceRejectBelow = x
                        } else {
                            warnings.append("\(at(full)): voice.reject_below must be a number from 0 to 1, not \(subvalue.debugDescription)")
                        }
                    case "voice.wake_phrase":
                        guard let s = string(full, subvalue) else { continue }
                        if (try? SpokenPattern.parse(s)) != nil, !s.trimmingCharacters(in: .whitespaces).isEmpty {
                            settings.wakePhrase = s
                        } else {
                            warnings.append("\(at(full)): voice.wake_phrase \"\(s)\" is not a phrase vsh can listen for; using \"\(settings.wakePhrase)\"")
                        }
                    case "voice.confirm_destructive", "voice.listen":
                        if let b = subvalue.bool {
                            if subkey == "listen" { settings.listenAtPrompt = b } else { settings.confirmDestructive = b }
                        } else {
                            warnings.append("\(at(full)): \(full) must be true or false, not \(subvalue.debugDescription)")
                        }
                    case "voice.answer_seconds":
                        if let x = subvalue.double ?? subvalue.int.map(Double.init), x > 0, x <= 600 {
                            settings.answerSeconds = x
                        } else {
                            warnings.append("\(at(full)): voice.answer_seconds must be a number of seconds from 0 to 600, not \(subvalue.debugDescription)")
                        }
                    default:
                        unknown(full)
                    }
                }
            default:
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
