import VshCore

extension Session {
    private enum StoreKey: SessionKey { typealias Value = TranscriptStore }
    private enum DraftKey: SessionKey { typealias Value = TranscriptStore.Draft }

    /// The transcript store at `paths.store`, opened on first use.
    public var store: TranscriptStore {
        get { part(StoreKey.self) { TranscriptStore(directory: paths.store) } }
        set { self[StoreKey.self] = newValue }
    }

    /// The recording the recorder made last and has not saved: what `save` saves.
    public var currentDraft: TranscriptStore.Draft? {
        get { self[DraftKey.self] }
        set { self[DraftKey.self] = newValue }
    }
}
