import Foundation
import Testing
@testable import VshCore
@testable import VshAudioFiles
import VshTestSupport
@testable import VshStore
@testable import VshCommands
@testable import VshListening
@testable import VshVoice

/// `encrypt` in the core: the state it reports, spoken forms that ask first, clips and
/// recordings that follow the store's choice.
@Suite struct EncryptCommandTests {
    @Test func spokenEncryptOnOrOffAsksFirstButTheStateDoesNot() {
        let check = VoicePrompt.destructive(in: { Builtins.registry() })
        #expect(check(VoiceCandidate(command: "encrypt", line: "encrypt on")))
        #expect(check(VoiceCandidate(command: "encrypt", line: "encrypt off")))
        #expect(!check(VoiceCandidate(command: "encrypt", line: "encrypt")))
    }

    @Test func onEncryptsOffDecryptsAndTheStateCounts() throws {
        let harness = ShellHarness()
        let store = harness.session.store
        try FileManager.default.createDirectory(atPath: store.directory + "/drafts", withIntermediateDirectories: true)
        let wav = Array(WavWriter.bytes([1, 2, 3, -4], rate: 16_000))
        try Data(wav).write(to: URL(fileURLWithPath: store.directory + "/drafts/20260101-0000.wav"))
        #expect(harness.script(["encrypt"]) == 0)
        #expect(harness.output.text.contains("Encryption: off"))
        #expect(harness.output.text.contains("0 encrypted, 1 plain"))
        #expect(harness.script(["encrypt on", "encrypt"]) == 0, "\(harness.error.text)")
        #expect(harness.output.text.contains("Created the key \(harness.session.paths.keyFile)"))
        #expect(harness.output.text.contains("1 encrypted, 0 plain"))
        #expect(SealedAudio.isSealed(path: store.directory + "/drafts/20260101-0000.wav"))
        let key = try #require(try KeyFile(path: harness.session.paths.keyFile).load())
        #expect(store.encryptionKeyID == key.id)
        #expect(try store.recordingKey()?.id == key.id, "the session's store has the key file the paths name")
        // Without the key, recording is refused rather than written plain.
        let keyless = TranscriptStore(directory: store.directory, keyFile: KeyFile(path: "/nonexistent/key"))
        #expect(throws: CommandError.self) { try keyless.recordingKey() }
        #expect(throws: CommandError.self) { try keyless.audioWriter(path: store.directory + "/drafts/x.wav", sampleRate: 16_000) }
        #expect(harness.script(["encrypt off"]) == 0, "\(harness.error.text)")
        #expect(StoreFiles.read(store.directory + "/drafts/20260101-0000.wav") == wav)
        #expect(store.encryptionKeyID == nil)
        #expect(try store.recordingKey() == nil)
    }

    /// A key file others can read is the problem `encrypt` names, not a missing key.
    @Test func aKeyFileOthersCanReadIsNotCalledMissing() throws {
        let harness = ShellHarness()
        let store = harness.session.store
        try FileManager.default.createDirectory(atPath: store.directory + "/drafts", withIntermediateDirectories: true)
        try Data(WavWriter.bytes([1, 2, 3, -4], rate: 16_000)).write(to: URL(fileURLWithPath: store.directory + "/drafts/20260101-0000.wav"))
        #expect(harness.script(["encrypt on"]) == 0, "\(harness.error.text)")
        let keyFile = harness.session.paths.keyFile
        chmod(keyFile, 0o644)
        harness.output.clear()
        #expect(harness.script(["encrypt"]) == 0)
        let text = harness.output.text
        #expect(text.contains("Key file:   \(keyFile) (the key file \(keyFile) can be read by other users (mode 644); make it private with 'chmod 600 \(keyFile)' and try again)"), "\(text)")
        #expect(text.contains("warning: the 1 encrypted audio file cannot be played or transcribed until the key file is usable (see 'Key file' above)"), "\(text)")
        #expect(!text.contains("there is no key file"), "\(text)")
    }

    @Test func clipsAreSealedWhileTheStoreEncrypts() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let key = AudioKey.generate()
        var clips = ClipStore(directory: dir.file("clips"), limit: 3)
        clips.sealing = { key }
        let path = try #require(clips.save([5, 6, 7]))
        #expect(SealedAudio.isSealed(path: path))
        let audio = AudioBytes(sealed: try SealedAudioReader(path: path, key: key, keyFile: nil))
        #expect(try audio.readAll() == Array(WavWriter.bytes([5, 6, 7], rate: 16_000)))
        clips.sealing = { throw CommandError("no key") }
        #expect(clips.save([1]) == nil, "no clip rather than a plain one")
    }
}
