/// Recording quality: the sample rate recordings are written at.
package enum Quality: String, CaseIterable, Sendable {
    case low, medium, high

    /// Samples per second of the WAV files written at this quality.
    package var sampleRate: Int {
        switch self {
        case .low: 8_000
        case .medium: 16_000
        case .high: 48_000
        }
    }
}

/// The settings vsh runs with: built-in defaults, then the shipped `config/vsh.toml`,
/// then the user's `vsh.toml`. The defaults here and the shipped file must agree
/// (a test checks it), so the shipped file documents what vsh does with no file at all.
package struct Settings: Sendable, Equatable {
    /// Recording quality (`quality` shows and sets it).
    package var quality: Quality = .medium
    /// How many history entries are kept.
    package var historySize: Int = 1000
    /// The acoustic model, dictionary and language model directory.
    package var modelDirectory: String = "/usr/share/pocketsphinx/model/en-us"
    /// The ALSA capture device.
    package var audioDevice: String = "default"
    /// Utterances whose confidence is below this are not taken as commands (0…1).
    package var voiceThreshold: Double = 0.5
    /// SpeexDSP noise suppression before recognition: `auto` uses the suppressed audio
    /// only for utterances less than `denoiseBelowSNR` dB over the noise floor.
    package var denoise: Denoise = .auto
    /// 24 dB was chosen on synthetic voices. On real speech the suppressor cost quiet
    /// narrowband recordings (fsdd fold 0: 61.0% right at 24, 65.7% at 15) and made
    /// decisions depend on the level (it does not scale with its input);
    /// 15 keeps it for noisy utterances (research/recognition/VOICING.md).
    package static let denoiseBelowSNR = 15.0
    /// SpeexDSP automatic gain control before recognition (each utterance is also
    /// level-normalised before decoding, whatever this says).
    package var gainControl: Bool = false
    /// Milliseconds of quiet that end an utterance.
    package var hangover: Int = 300
    /// Milliseconds of quiet after which a whole command that cannot grow ends without
    /// waiting for the hangover (`EarlyEnd`); 0: always wait. 150, the shortest pause
    /// (of 120 and 150) whose decisions on the fitting speakers' real speech stayed within a
    /// point of the full hangover's, both with the Speech Commands words and with vsh's own
    /// grammar; 120 ran commands for 1.7 points more of the everyday words said to vsh's
    /// own grammar (research/recognition/EARLY_END.md).
    package var earlyEnd: Int = 150
    /// Milliseconds of quiet a spoken command needs before it, since the speech before it:
    /// talk runs on after short pauses, a command is said after a silence (0: no such
    /// check). Answers need none, nor the first utterance after a command ran. 700, the
    /// knee on fold 0 of bench/attention.py: false runs in talk 26 (off), 19 (500), 15
    /// (700 to 1000), 11 (1500); the commands said to vsh all came after a silence
    /// (research/attention/ATTENTION.md).
    package var quietBefore: Int = 700
    /// At the prompt, utterances below this confidence are ignored; between it and
    /// `voiceThreshold` vsh asks "did you mean" with the likeliest commands.
    package var voiceRejectBelow: Double = 0.3
    /// Said while listening is off (`listen off`), turns listening back on; in `wake`
    /// attention, opens a few seconds for commands.
    package var wakePhrase: String = "listen on"
    /// When the prompt takes spoken commands.
    package var attention: Attention = .always

    /// The pronunciation dictionary of the speech model (`voice.model`).
    package var dictionaryPath: String { modelDirectory + "/cmudict-en-us.dict" }
    /// Listen for spoken commands at the prompt (record and play use the device either way).
    package var listenAtPrompt: Bool = true
    /// Spoken destructive commands ask for a yes or no before they run.
    package var confirmDestructive: Bool = true
    /// With a model adapted to the person (`train`), spoken commands must sound like them.
    /// Off by default: it stops few other people on the same microphone and some of the
    /// person's own commands (research/attention/SPEAKER.md).
    package var speakerCheck: Bool = false
    /// With a model adapted to the person, the commands they say clearly are kept as takes
    /// and the model is adapted on them in the background.
    package var learnFromUse: Bool = true
    /// Seconds a question at the prompt waits for its answer.
    package var answerSeconds: Double = 10
    /// How many spoken commands' audio clips the history keeps.
    package var historyClips: Int = 100

    package init() {}
}

/// When the prompt takes spoken commands (`voice.attention`, `listen always|wake|key`).
package enum Attention: String, Sendable, CaseIterable {
    /// Any time, from speech that stands alone and is sure (the checks of `VoicePrompt`).
    case always
    /// After the wake phrase: "computer, list" in one breath, or the phrase and then
    /// commands for a few seconds.
    case wake
    /// After a key at the prompt (push to talk): one command.
    case key
}

/// When noise suppression applies. Measured on the command corpus (92 files each):
/// always on lifts pink noise 67 → 80% but drops clean 85 → 75%; `auto` keeps clean at
/// 86% and gets pink to 83%.
package enum Denoise: String, Sendable, CaseIterable {
    case off, on, auto
}
