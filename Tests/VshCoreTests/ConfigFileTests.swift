import Foundation
import Testing
@testable import VshCore
import VshTestSupport
@testable import VshStore
@testable import VshVoice
@testable import VshCommandFiles
@testable import VshCommands

@Suite struct ConfigFileTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var quality: Quality = .medium
        var historySize = 1000
        var warnings: [String] = []
        var testDescription: String { text }
    }

    @Test(arguments: [
        Case(text: ""),
        Case(text: "quality = \"high\"\n", quality: .high),
        Case(text: "quality = \"ultra\"\n",
             warnings: ["F: quality \"ultra\" is not one of low, medium, high; using medium"]),
        Case(text: "quality = 3\n", warnings: ["F: 'quality' must be a string in quotes, not 3"]),
        Case(text: "qualty = \"low\"\n", warnings: ["F: unknown setting 'qualty'; did you mean 'quality'?"]),
        Case(text: "[history]\nsize = 5\n", historySize: 5),
        Case(text: "[history]\nsize = -1\n",
             warnings: ["F: history.size must be a whole number of entries, not -1"]),
        Case(text: "[history]\nsise = 5\n", warnings: ["F: unknown setting 'history.sise'; did you mean 'history.size'?"]),
        Case(text: "# note\nquality = \"high\n",
             warnings: ["F:2: Error while parsing string: unescaped control characters other than TAB (U+0009) are explicitly prohibited; this file is ignored until it is fixed"]),
        Case(text: "quality = \"low\"\nquality = \"high\"\n",
             warnings: ["F:2: Error while parsing key-value pair: cannot redefine existing string 'quality'; this file is ignored until it is fixed"]),
        Case(text: "history = 3\n", warnings: ["F: 'history' must be a table ([history])"]),
    ])
    func apply(_ c: Case) {
        var settings = Settings()
        let warnings = ConfigFile.apply(text: c.text, path: "F", to: &settings)
        #expect(warnings == c.warnings)
        #expect(settings.quality == c.quality)
        #expect(settings.historySize == c.historySize)
    }

    @Test(arguments: [
        ("", "quality = \"high\"\n"),
        ("# mine\nquality = \"low\" # why\n", "# mine\nquality = \"high\"\n"),
        ("# mine\n[history]\nsize = 3\n", "# mine\nquality = \"high\"\n[history]\nsize = 3\n"),
        ("[voice]\nquality = \"x\"\n", "quality = \"high\"\n[voice]\nquality = \"x\"\n"),
        ("qualityx = 1\n", "qualityx = 1\nquality = \"high\"\n"),
    ])
    func editingKeepsTheRestOfTheFile(_ before: String, _ after: String) {
        #expect(ConfigFile.edited(before, key: "quality", value: "high") == after)
    }

    /// The shipped config documents the defaults: it must say exactly what vsh does
    /// with no file at all.
    @Test func shippedConfigMatchesTheBuiltInDefaults() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let shipped = root.appendingPathComponent("config/vsh.toml").path
        #expect(FileManager.default.fileExists(atPath: shipped))
        var settings = Settings()
        // Start from different values so that every key must be present to match.
        settings.quality = .low
        settings.historySize = 1
        settings.modelDirectory = "/nowhere"
        settings.audioDevice = "none"
        settings.voiceThreshold = 0.99
        settings.denoise = .off
        settings.gainControl = true
        settings.hangover = 51
        settings.voiceRejectBelow = 0.01
        settings.wakePhrase = "wake up"
        settings.listenAtPrompt = false
        settings.confirmDestructive = false
        settings.answerSeconds = 1
        settings.historyClips = 1
        #expect(ConfigFile.apply(path: shipped, to: &settings) == [])
        #expect(settings == Settings())
    }

    @Test func unreadableFileIsAWarningNotAFailure() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        dir.write("quality = \"high\"\n", to: "vsh.toml")
        chmod(dir.file("vsh.toml"), 0)
        var settings = Settings()
        let warnings = ConfigFile.apply(path: dir.file("vsh.toml"), to: &settings)
        if getuid() == 0 {
            // root reads anything: the file applies.
            #expect(settings.quality == .high)
        } else {
            #expect(warnings == ["\(dir.file("vsh.toml")): cannot read the file (check its permissions); using defaults"])
        }
    }
}
