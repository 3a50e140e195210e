import Foundation
import TOMLKit
import VshSpoken

/// One setting a `vsh.toml` may hold: its name, the values it takes, the field of
/// `Settings` it sets, and what the warning says when a value will not do. Every key vsh
/// understands is in `SettingKey.all`; `ConfigFile.apply` reads a file through it.
package struct SettingKey: Sendable {
    /// `table.key` (`voice.threshold`), or the bare key of a top-level setting (`quality`).
    package let name: String
    /// The values it takes, as the warning says them: `a number from 0 to 1`.
    package let expected: String
    /// Sets `value` into `settings`, or returns the warning (without its `file:line: `)
    /// and leaves `settings` as it was.
    let apply: @Sendable (_ value: TOMLValueConvertible, _ settings: inout Settings) -> String?

    /// The table it sits in (`voice`), nil at the top level.
    package var table: String? { name.firstIndex(of: ".").map { String(name[..<$0]) } }
}

extension SettingKey {
    /// Every key, in the order "did you mean" weighs them. The defaults are `Settings()`'s;
    /// the shipped `config/vsh.toml` states each one (a test checks they agree).
    ///
    /// The voice keys are declared here, not in VshVoice which reads them: a registration
    /// at start would leave them unknown wherever VshVoice is not started (the core's
    /// config tests, which must see the shipped file read without a warning), and their
    /// fields live in the core's `Settings`, which `ConfigFile.apply` fills and compares.
    package static let all: [SettingKey] = [
        .choice("quality", \.quality),
        .whole("history.size", \.historySize, in: 0...Int.max, expected: "a whole number of entries"),
        .string("voice.model", \.modelDirectory),
        .string("voice.device", \.audioDevice),
        .number("voice.threshold", \.voiceThreshold, in: 0...1, expected: "a number from 0 to 1"),
        .value("voice.denoise", \.denoise, expected: "\"auto\", true or false") { value in
            value.bool.map { $0 ? .on : .off } ?? value.string.flatMap(Denoise.init(rawValue:))
        },
        .bool("voice.gain_control", \.gainControl),
        .whole("voice.hangover_ms", \.hangover, in: 50...3000,
               expected: "a whole number of milliseconds from 50 to 3000"),
        .whole("voice.early_end_ms", \.earlyEnd, in: 0...0, 50...3000,
               expected: "0 (off) or a whole number of milliseconds from 50 to 3000"),
        .number("voice.reject_below", \.voiceRejectBelow, in: 0...1, expected: "a number from 0 to 1"),
        .whole("voice.quiet_before_ms", \.quietBefore, in: 0...10_000,
               expected: "a whole number of milliseconds from 0 (no check) to 10000"),
        .string("voice.wake_phrase", \.wakePhrase, read: { phrase in
            (try? SpokenPattern.parse(phrase)) != nil && !phrase.trimmingCharacters(in: .whitespaces).isEmpty
                ? phrase : nil
        }, rejected: { phrase, kept in
            "voice.wake_phrase \"\(phrase)\" is not a phrase vsh can listen for; using \"\(kept)\""
        }),
        .choice("voice.attention", \.attention),
        .bool("voice.confirm_destructive", \.confirmDestructive),
        .bool("voice.speaker_check", \.speakerCheck),
        .bool("voice.learn_from_use", \.learnFromUse),
        .bool("voice.listen", \.listenAtPrompt),
        // More than 0: the smallest positive Double is where the range starts.
        .number("voice.answer_seconds", \.answerSeconds, in: .leastNonzeroMagnitude...600,
                expected: "a number of seconds from 0 to 600"),
        .whole("history.clips", \.historyClips, in: 0...Int.max, expected: "a whole number of clips"),
    ]

    /// The key named `key` inside `table` (nil: at the top level).
    package static func named(_ key: String, in table: String? = nil) -> SettingKey? {
        let name = table.map { "\($0).\(key)" } ?? key
        return all.first { $0.name == name && $0.table == table }
    }

    /// The tables keys sit in (`history`, `voice`).
    package static var tables: Set<String> { Set(all.compactMap(\.table)) }
}

extension SettingKey {
    /// A value `read` makes from what the file says, or nil when it will not do:
    /// then the warning is "NAME must be EXPECTED, not VALUE".
    static func value<Value>(
        _ name: String, _ field: WritableKeyPath<Settings, Value> & Sendable, expected: String,
        read: @escaping @Sendable (TOMLValueConvertible) -> Value?
    ) -> SettingKey {
        SettingKey(name: name, expected: expected) { value, settings in
            guard let read = read(value) else { return "\(name) must be \(expected), not \(value.debugDescription)" }
            settings[keyPath: field] = read
            return nil
        }
    }

    static func bool(_ name: String, _ field: WritableKeyPath<Settings, Bool> & Sendable) -> SettingKey {
        value(name, field, expected: "true or false") { $0.bool }
    }

    /// A whole number within one of `ranges`.
    static func whole(
        _ name: String, _ field: WritableKeyPath<Settings, Int> & Sendable, in ranges: ClosedRange<Int>...,
        expected: String
    ) -> SettingKey {
        value(name, field, expected: expected) { value in
            value.int.flatMap { n in ranges.contains { $0.contains(n) } ? n : nil }
        }
    }

    /// A number, whole or not, within `range`.
    static func number(
        _ name: String, _ field: WritableKeyPath<Settings, Double> & Sendable, in range: ClosedRange<Double>,
        expected: String
    ) -> SettingKey {
        value(name, field, expected: expected) { value in
            (value.double ?? value.int.map(Double.init)).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// A string in quotes that `read` makes into a value, or nil when that string will not
    /// do: then `rejected` says why, given the string and the value kept.
    static func string<Value>(
        _ name: String, _ field: WritableKeyPath<Settings, Value> & Sendable,
        read: @escaping @Sendable (String) -> Value?,
        rejected: @escaping @Sendable (_ string: String, _ kept: Value) -> String
    ) -> SettingKey {
        SettingKey(name: name, expected: "a string in quotes") { value, settings in
            guard let string = value.string else {
                return "'\(name)' must be a string in quotes, not \(value.debugDescription)"
            }
            guard let read = read(string) else { return rejected(string, settings[keyPath: field]) }
            settings[keyPath: field] = read
            return nil
        }
    }

    static func string(_ name: String, _ field: WritableKeyPath<Settings, String> & Sendable) -> SettingKey {
        string(name, field, read: { $0 }, rejected: { _, _ in "" })
    }

    /// One of an enumeration's cases, by its name.
    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ field: WritableKeyPath<Settings, Value> & Sendable
    ) -> SettingKey where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
        return string(name, field, read: { Value(rawValue: $0) }, rejected: { string, kept in
            "\(name) \"\(string)\" is not one of \(names); using \(kept.rawValue)"
        })
    }
}
