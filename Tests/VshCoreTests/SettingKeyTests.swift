import Testing
@testable import VshCore

/// Every key of `vsh.toml`: the values it takes, where they go, and the warning for the
/// values it does not take (the setting keeps its value).
@Suite struct SettingKeyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var warnings: [String] = []
        var expect: @Sendable (inout Settings) -> Void = { _ in }
        var testDescription: String { text }
    }

    @Test(arguments: [
        Case(text: "[voice]\nmodel = \"/m\"\ndevice = \"hw:1\"\n", expect: { $0.modelDirectory = "/m"; $0.audioDevice = "hw:1" }),
        Case(text: "[voice]\nmodel = 3\n", warnings: ["F:2: 'voice.model' must be a string in quotes, not 3"]),
        Case(text: "[voice]\nthreshold = 1\nreject_below = 0.25\n", expect: { $0.voiceThreshold = 1; $0.voiceRejectBelow = 0.25 }),
        Case(text: "[voice]\nthreshold = 1.5\n", warnings: ["F:2: voice.threshold must be a number from 0 to 1, not 1.5"]),
        Case(text: "[voice]\nreject_below = -0.1\n", warnings: ["F:2: voice.reject_below must be a number from 0 to 1, not -0.1"]),
        Case(text: "[voice]\ndenoise = true\n", expect: { $0.denoise = .on }),
        Case(text: "[voice]\ndenoise = \"off\"\n", expect: { $0.denoise = .off }),
        Case(text: "[voice]\ndenoise = \"loud\"\n", warnings: ["F:2: voice.denoise must be \"auto\", true or false, not \"loud\""]),
        Case(text: "[voice]\ngain_control = true\nlisten = false\nconfirm_destructive = false\n",
             expect: { $0.gainControl = true; $0.listenAtPrompt = false; $0.confirmDestructive = false }),
        Case(text: "[voice]\ngain_control = 1\n", warnings: ["F:2: voice.gain_control must be true or false, not 1"]),
        Case(text: "[voice]\nlisten = \"no\"\n", warnings: ["F:2: voice.listen must be true or false, not \"no\""]),
        Case(text: "[voice]\nhangover_ms = 3000\nearly_end_ms = 0\n", expect: { $0.hangover = 3000; $0.earlyEnd = 0 }),
        Case(text: "[voice]\nhangover_ms = 40\n",
             warnings: ["F:2: voice.hangover_ms must be a whole number of milliseconds from 50 to 3000, not 40"]),
        Case(text: "[voice]\nearly_end_ms = 20\n",
             warnings: ["F:2: voice.early_end_ms must be 0 (off) or a whole number of milliseconds from 50 to 3000, not 20"]),
        Case(text: "[voice]\nwake_phrase = \"hey shell\"\n", expect: { $0.wakePhrase = "hey shell" }),
        Case(text: "[voice]\nwake_phrase = \" \"\n",
             warnings: ["F:2: voice.wake_phrase \" \" is not a phrase vsh can listen for; using \"listen on\""]),
        Case(text: "[voice]\nwake_phrase = 5\n", warnings: ["F:2: 'voice.wake_phrase' must be a string in quotes, not 5"]),
        Case(text: "[voice]\nanswer_seconds = 600\n", expect: { $0.answerSeconds = 600 }),
        Case(text: "[voice]\nanswer_seconds = 0.5\n", expect: { $0.answerSeconds = 0.5 }),
        Case(text: "[voice]\nanswer_seconds = 0\n",
             warnings: ["F:2: voice.answer_seconds must be a number of seconds from 0 to 600, not 0"]),
        Case(text: "[voice]\nanswer_seconds = 600.5\n",
             warnings: ["F:2: voice.answer_seconds must be a number of seconds from 0 to 600, not 600.5"]),
        Case(text: "[history]\nclips = 0\n", expect: { $0.historyClips = 0 }),
        Case(text: "[history]\nclips = 2.5\n", warnings: ["F:2: history.clips must be a whole number of clips, not 2.5"]),
        Case(text: "[voice]\nthreshhold = 0.4\n",
             warnings: ["F:2: unknown setting 'voice.threshhold'; did you mean 'voice.threshold'?"]),
        Case(text: "voice = 3\n", warnings: ["F:1: 'voice' must be a table ([voice])"]),
        Case(text: "\"voice.model\" = \"/m\"\n", warnings: ["F:1: unknown setting 'voice.model'; did you mean 'voice.model'?"]),
        Case(text: "[quality]\nx = 1\n", warnings: ["F:1: 'quality' must be a string in quotes, not x = 1"]),
    ])
    func apply(_ c: Case) {
        var settings = Settings()
        let warnings = ConfigFile.apply(text: c.text, path: "F", to: &settings)
        #expect(warnings == c.warnings)
        var expected = Settings()
        c.expect(&expected)
        #expect(settings == expected)
    }

    @Test func eachKeyIsDeclaredOnce() {
        let names = SettingKey.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(SettingKey.tables == ["history", "voice"])
    }
}
