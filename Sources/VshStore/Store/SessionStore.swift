import VshAudioFiles
import VshCore

extension Session {
    private enum StoreKey: SessionKey { typealias Value = TranscriptStore }
    private enum DraftKey: SessionKey { typealias Value = TranscriptStore.Draft }
    private enum LastDraftKey: SessionKey { typealias Value = String }

    /// The transcript store at `paths.store`, with the key file at `paths.keyFile`, opened
    /// on first use.
    package var store: TranscriptStore {
        get { part(StoreKey.self) { TranscriptStore(directory: paths.store, keyFile: KeyFile(path: paths.keyFile)) } }
        set { self[StoreKey.self] = newValue }
    }

    /// The recording the recorder made last and has not saved: what `save` saves.
    package var currentDraft: TranscriptStore.Draft? {
        get { self[DraftKey.self] }
        set {
            self[DraftKey.self] = newValue
            if let id = newValue?.id { self[LastDraftKey.self] = id }
        }
    }

    /// The id of the recording made last in this session, saved or not; nil before any.
    package var lastRecordingID: String? { self[LastDraftKey.self] }

    /// Why there is no current recording to save or discard, in words.
    package var noCurrentRecording: String {
        guard let last = lastRecordingID else { return "no recording was made in this session" }
        return "the recording made last (\(last)) is already saved or discarded"
    }
}
