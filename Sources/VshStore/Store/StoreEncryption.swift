import Foundation
import VshAudioFiles
import VshCore

/// Whether the store encrypts its audio, and turning it on or off (`encrypt on|off`).
/// The store carries the choice in `<store>/.encryption`, so every vsh process on it
/// agrees; the key lives in the user's configuration directory (`KeyFile`). Only audio is
/// encrypted: transcripts, titles and word timings stay plain text (FORMAT.md).
extension TranscriptStore {
    /// The marker: present while new recordings are encrypted.
    var encryptionMarker: String { path(".encryption") }

    /// The id of the key the store encrypts new recordings with; nil when it does not.
    /// An empty string when the marker names no key (another tool wrote it).
    package var encryptionKeyID: String? {
        guard let bytes = StoreFiles.read(encryptionMarker, limit: 4096) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "key" {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return ""
    }

    /// The key new recordings (and clips) are sealed with: nil when the store does not
    /// encrypt. Throws, naming the key file and what to do, when it does but the key is
    /// missing or another one: vsh never records plain into an encrypted store.
    package func recordingKey() throws -> AudioKey? {
        guard let id = encryptionKeyID else { return nil }
        guard let keyFile else { throw CommandError("the store \(directory) encrypts its audio, and vsh has no key file configured") }
        let key = try keyFile.load()
        guard let key, id.isEmpty || key.id == id else {
            let have = key.map { "the key in \(keyFile.path) is \($0.id), a different key" }
                ?? "there is no key file at \(keyFile.path)"
            throw CommandError(
                "the store \(directory) encrypts its audio with key \(id), and \(have); nothing was recorded. "
                    + "Restore the key file from your backup, or run 'encrypt' to see the state")
        }
        return key
    }

    /// `recordingKey`, asked anew at each call: for writers of whole files (clips, takes)
    /// that may outlive an `encrypt on|off`.
    package var sealing: @Sendable () throws -> AudioKey? {
        let (directory, keyFile) = (directory, keyFile)
        return { try TranscriptStore(directory: directory, keyFile: keyFile).recordingKey() }
    }

    /// A writer for a recording's audio at `path`, sealed with the store's key while it
    /// encrypts audio, plain otherwise: the one place that chooses. Throws, before anything
    /// is written, when the store encrypts but the key is missing (`recordingKey`).
    package func audioWriter(path: String, sampleRate: Int) throws -> DraftWriter {
        if let key = try recordingKey() { return try SealedWavWriter(path: path, sampleRate: sampleRate, key: key) }
        return try WavWriter(path: path, sampleRate: sampleRate)
    }

    /// The writer for `draft`'s audio (`audioWriter(path:sampleRate:)`).
    package func draftWriter(for draft: Draft) throws -> DraftWriter {
        try audioWriter(path: draft.audioPath, sampleRate: draft.sampleRate)
    }

    /// A whole WAV file's bytes as the store keeps them: sealed while it encrypts audio.
    package func storedAudio(_ wav: Data) throws -> Data {
        try recordingKey().map { Data(SealedAudio.seal(Array(wav), key: $0)) } ?? wav
    }

    /// Every audio file vsh keeps in the store: `*.wav` in the store, in `drafts/`, in
    /// `training/` (the takes `train` keeps), and in each trash batch and its `drafts/`;
    /// regular files only (a symbolic link is not followed). With `cleaning`, leftovers of
    /// an interrupted conversion (`.<name>.wav.vsh-convert`) are removed on the way.
    package func audioFiles(cleaning: Bool = false) -> [String] {
        var places = [directory, draftsDirectory, path(Self.trainingDirectoryName)]
        for batch in (StoreFiles.names(in: trashDirectory) ?? []).sorted() where !batch.hasPrefix(".") {
            places += [trashDirectory + "/" + batch, trashDirectory + "/" + batch + "/drafts"]
        }
        return places.flatMap { Self.audioFiles(in: $0, cleaning: cleaning) }
    }

    /// The `*.wav` regular files in `directory`, sorted.
    package static func audioFiles(in directory: String, cleaning: Bool = false) -> [String] {
        var files: [String] = []
        for name in (StoreFiles.names(in: directory) ?? []).sorted() {
            let file = directory + "/" + name
            if name.hasPrefix(".") {
                if cleaning && name.hasSuffix(".wav" + AudioConversion.suffix) { unlink(file) }
                continue
            }
            var info = stat()
            if name.hasSuffix(".wav"), lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG { files.append(file) }
        }
        return files
    }

    /// Writes (`key`) or removes (nil) the marker.
    package func setEncryption(_ key: AudioKey?) throws {
        try change { _ in
            if let key {
                try AtomicFile.write(
                    "# vsh encrypts the audio of this store ('encrypt on'); see FORMAT.md.\nKey: \(key.id)\n",
                    to: encryptionMarker)
            } else if unlink(encryptionMarker) != 0 && errno != ENOENT {
                throw FileError.current("cannot remove \(encryptionMarker)", path: encryptionMarker)
            }
        }
    }

    /// Encrypts (`key` given, `seal`) or decrypts one audio file of the store, holding
    /// the store's lock so that no `delete`, `save` or `undo` moves it meanwhile.
    package func convertAudio(_ file: String, seal: Bool, key: AudioKey, keyFile: KeyFile?) -> AudioConversion.Outcome {
        do {
            return try change { _ in
                guard StoreFiles.exists(file) else { return .unchanged }  // moved before the lock was ours
                return seal ? AudioConversion.seal(file, key: key) : AudioConversion.unseal(file, key: key, keyFile: keyFile)
            }
        } catch {
            return .failed("\(error)")
        }
    }
}
