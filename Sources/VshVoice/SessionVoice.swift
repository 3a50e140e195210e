import VshCore

extension Session {
    private enum VoiceKey: SessionKey { typealias Value = AudioServices }

    /// Microphone, files and recognisers for record and play; nil with `--no-voice`.
    package var voice: AudioServices? {
        get { self[VoiceKey.self] }
        set { self[VoiceKey.self] = newValue }
    }
}
