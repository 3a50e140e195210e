import VshCore
import VshStore

extension Session {
    private enum VoiceKey: SessionKey { typealias Value = AudioServices }
    private enum ListeningKey: SessionKey { typealias Value = ListeningControl }

    /// Microphone, files and recognisers for record and play; nil with `--no-voice`.
    public var voice: AudioServices? {
        get { self[VoiceKey.self] }
        set { self[VoiceKey.self] = newValue }
    }

    /// Listening at the prompt (`listen on|off`); nil when vsh does not listen there.
    public var listening: ListeningControl? {
        get { self[ListeningKey.self] }
        set { self[ListeningKey.self] = newValue }
    }
}
