import VshCore

extension Session {
    private enum ListeningKey: SessionKey { typealias Value = ListeningControl }
    private enum NotListeningKey: SessionKey { typealias Value = String }

    /// Why vsh does not listen at this prompt (`--no-voice`, `voice.listen = false`, not
    /// a terminal), and what helps; nil when it does, or was not told.
    package var notListeningBecause: String? {
        get { self[NotListeningKey.self] }
        set { self[NotListeningKey.self] = newValue }
    }

    /// Listening at the prompt (`listen on|off`); nil when vsh does not listen there.
    package var listening: ListeningControl? {
        get { self[ListeningKey.self] }
        set { self[ListeningKey.self] = newValue }
    }
}
