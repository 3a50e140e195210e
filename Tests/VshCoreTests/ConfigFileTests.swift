import Foundation
import Testing
@testable import VshCore
import VshTestSupport

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
             warnings: ["F:1: quality \"ultra\" is not one of low, medium, high; using medium"]),
        Case(text: "quality = 3\n", warnings: ["F:1: 'quality' must be a string in quotes, not 3"]),
        Case(text: "qualty = \"low\"\n", warnings: ["F:1: unknown setting 'qualty'; did you mean 'quality'?"]),
        Case(text: "[history]\nsize = 5\n", historySize: 5),
        Case(text: "[history]\nsize = -1\n",
             warnings: ["F:2: history.size must be a whole number of entries, not -1"]),
        Case(text: "[history]\nsise = 5\n", warnings: ["F:2: unknown setting 'history.sise'; did you mean 'history.size'?"]),
        Case(text: "# note\nquality = \"high\n",
             warnings: ["F:2: Error while parsing string: unescaped control characters other than TAB (U+0009) are explicitly prohibited; that line is ignored until it is fixed"]),
        Case(text: "quality = \"low\"\nquality = \"high\"\n", quality: .low,
             warnings: ["F:2: Error while parsing key-value pair: cannot redefine existing string 'quality'; that line is ignored until it is fixed"]),
        Case(text: "history = 3\n", warnings: ["F:1: 'history' must be a table ([history])"]),
    ])
    func apply(_ c: Case) {
        var settings = Settings()
        let warnings = ConfigFile.apply(text: c.text, path: "F", to: &settings)
        #expect(warnings == c.warnings)
        #expect(settings.quality == c.quality)
        #expect(settings.historySize == c.historySize)
    }

    /// One mistake keeps every other setting: a broken header loses only the settings
    /// under it, and the warning names the lines.
    @Test func aBrokenHeaderLosesOnlyItsOwnSettings() {
        var settings = Settings()
        let text = "quality = \"low\"\n[voice\nthreshold = 0.4\n\n[history]\nsize = 5\n"
        let warnings = ConfigFile.apply(text: text, path: "F", to: &settings)
        #expect(settings.quality == .low)
        #expect(settings.historySize == 5)
        #expect(settings.voiceThreshold == Settings().voiceThreshold)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("F:2: ") == true, "\(warnings)")
        #expect(warnings.first?.hasSuffix("; that line is ignored, and so are the settings under it (line 3) until it is fixed") == true, "\(warnings)")
    }

    /// Warnings come in the order of the file's lines, whatever order the keys are read
    /// in, and a table vsh does not know is named with its line (issue 28, item 15).
    @Test func warningsFollowTheFileAndNameUnknownTables() {
        var settings = Settings()
        let text = """
            quality = "ultra"
            [voice]
            threshold = 7
            [nosuch]
            x = 1
            [history]
            size = -1
            [histroy]
            [voice.extra]
            """
        let warnings = ConfigFile.apply(text: text, path: "F", to: &settings)
        #expect(warnings == [
            "F:1: quality \"ultra\" is not one of low, medium, high; using medium",
            "F:3: voice.threshold must be a number from 0 to 1, not 7",
            "F:4: unknown table [nosuch], so the settings under it are ignored; the tables are [history], [voice]",
            "F:7: history.size must be a whole number of entries, not -1",
            "F:8: unknown table [histroy], so the settings under it are ignored; did you mean [history]?",
            "F:9: unknown table [voice.extra], so the settings under it are ignored; [voice] holds settings, not tables",
        ])
        // A broken line TOML cannot read takes its place among the others.
        let broken = ConfigFile.apply(text: "[voice]\nthreshold = 7\nquality = \"x\n", path: "F", to: &settings)
        #expect(broken.map { $0.prefix(4) } == ["F:2:", "F:3:"], "\(broken)")
    }

    /// `quality low` into a file that does not read back as low says so.
    @Test func aSavedSettingIsReadBack() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        dir.write("[voice]\nthreshold = 0.5\n", to: "good/vsh.toml")
        try ConfigFile.setTopLevel(key: "quality", value: "low", in: dir.file("good/vsh.toml"))
        #expect(ConfigFile.topLevelString("quality", in: dir.file("good/vsh.toml")) == "low")
        // A top-level line TOML cannot read above it: the new line lands after it, and the
        // file still reads.
        dir.write("quality = 'high\n[voice]\n", to: "bad/vsh.toml")
        try ConfigFile.setTopLevel(key: "quality", value: "low", in: dir.file("bad/vsh.toml"))
        #expect(ConfigFile.topLevelString("quality", in: dir.file("bad/vsh.toml")) == "low")
    }

    /// A change the file will not keep is not reported as made.
    @Test func qualityNeverClaimsAChangeThatWillNotLast() {
        let harness = ShellHarness()
        // A quoted key vsh's editor does not recognise: its new line comes second, and a
        // reader keeps the first.
        harness.directory.write("\"quality\" = \"high\"\n[voice]\n", to: "config/vsh.toml")
        #expect(harness.script(["quality low"]) == 1)
        #expect(harness.error.text.contains("quality was written to \(harness.session.paths.userConfigFile), but the file cannot be read back as setting it"),
                "\(harness.error.text)")
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

    /// A file that is not text, or a directory in its place, is named for what it is,
    /// not taken for a permissions problem (issue 28, item 13).
    @Test func binaryOrDirectoryConfigSaysWhatItIs() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        dir.write("", to: "binary/vsh.toml")
        try Data([0xff, 0xfe, 0x00, 0x9c, 0x80]).write(to: URL(fileURLWithPath: dir.file("binary/vsh.toml")))
        var settings = Settings()
        #expect(ConfigFile.apply(path: dir.file("binary/vsh.toml"), to: &settings) == [
            "\(dir.file("binary/vsh.toml")): is not UTF-8 text, so no setting in it was read; save it as UTF-8 TOML, or remove it; using defaults",
        ])
        try FileManager.default.createDirectory(atPath: dir.file("folder/vsh.toml"), withIntermediateDirectories: true)
        #expect(ConfigFile.apply(path: dir.file("folder/vsh.toml"), to: &settings) == [
            "\(dir.file("folder/vsh.toml")): is a directory, not a settings file; move it aside; using defaults",
        ])
    }
}
