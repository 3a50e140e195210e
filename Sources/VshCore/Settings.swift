/// Recording quality: the sample rate recordings are written at.
public enum Quality: String, CaseIterable, Sendable {
    case low, medium, high

    /// Samples per second of the WAV files written at this quality.
    public var sampleRate: Int {
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
public struct Settings: Sendable, Equatable {
    /// Recording quality (`quality` shows and sets it).
    public var quality: Quality = .medium
    /// How many history entries are kept.
    public var historySize: Int = 1000
    /// The acoustic model, dictionary and language model directory.
    public var modelDirectory: String = "/usr/share/pocketsphinx/model/en-us"
    /// The ALSA capture device.
    public var audioDevice: String = "default"

    public init() {}
}
