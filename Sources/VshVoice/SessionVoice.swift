import VshCore
import VshStore

extension Session {
    private enum VoiceKey: SessionKey { typealias Value = AudioServices }
    private enum ListeningKey: SessionKey { typealias Value = ListeningControl }
    private enum NotListeningKey: SessionKey { typealias Value = String }

    /// Microphone, files and recognisers for record and play; nil with `--no-voice`.
    public var voice: AudioServices? {
        get { self[VoiceKey.self] }
        set { self[VoiceKey.self] = newValue }
    }

    /// Why vsh does not listen at this prompt (`--no-voice`, `voice.listen = false`, not
    /// a terminal), and what helps; nil when it does, or was not told.
    public var notListeningBecause: String? {
        get { self[NotListeningKey.self] }
        set { self[NotListeningKey.self] = newValue }
    }

    /// Listening at the prompt (`listen on|off`); nil when vsh does not listen there.
    public var listening: ListeningControl? {
        get { self[ListeningKey.self] }
        set { self[ListeningKey.self] = newValue }
    }
}
