import Foundation
import Testing
import VshTestSupport

/// `encrypt on|off` through the built binary: audio at rest is encrypted, every reader of
/// store audio still works, a lost key is reported and nothing is ever lost.
@Suite(.tags(.slow)) struct EncryptionTests {
    static let sentence = RecordTests.sentence

    static func bytes(_ path: String) -> Data { (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data() }

    static func mode(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_mode) & 0o777 : -1
    }

    /// Whether `haystack` holds any `length`-byte run of `needle` (checked at a stride).
    static func sharesARun(_ haystack: Data, _ needle: Data, length: Int = 64) -> Bool {
        let h = [UInt8](haystack), n = [UInt8](needle)
        var runs = Set<[UInt8]>()
        for start in stride(from: 0, to: n.count - length, by: length) { runs.insert(Array(n[start..<(start + length)])) }
        return (0..<max(0, h.count - length)).contains { runs.contains(Array(h[$0..<($0 + length)])) }
    }

    func audio(_ vsh: VshBinary, _ store: String) throws -> [String] {
        try RecordTests().listed(vsh, store).map(\.audio)
    }

    @Test func encryptOnEncryptsTheStoreAndPlayTranscribeAndShowStillWork() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let dir = TempDirectory()
        defer { dir.remove() }
        let store = vsh.home.file("store")
        var result = try vsh.run(["--store", store, "-c", "record --from \(Self.sentence.path) --title before"])
        #expect(result.status == 0, "\(result.stderr)")
        let file = try #require(try audio(vsh, store).first)
        let plain = Self.bytes(file)
        #expect(plain.prefix(4) == Data("RIFF".utf8))

        result = try vsh.run(["--store", store, "-c", "encrypt on"])
        #expect(result.status == 0, "\(result.stderr)")
        let keyPath = vsh.home.file("config/vsh/key")
        #expect(result.stdout.contains("Created the key \(keyPath)"))
        #expect(result.stdout.contains("Back up \(keyPath)"))
        #expect(result.stdout.contains("1 audio file(s) encrypted now"))
        #expect(Self.mode(keyPath) == 0o600)
        #expect(Self.mode(file) == 0o600)
        let sealed = Self.bytes(file)
        #expect(sealed.prefix(8) == Data("VSHENC1\n".utf8))
        #expect(!Self.sharesARun(sealed, plain.dropFirst(44)), "no run of the recording's samples is left in the file")

        // A recording made while on is encrypted too.
        result = try vsh.run(["--store", store, "-c", "record --from \(Self.sentence.path) --title after"])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try audio(vsh, store)
        #expect(files.count == 2)
        for f in files { #expect(Self.bytes(f).prefix(8) == Data("VSHENC1\n".utf8), "\(f)") }

        // play sends the same samples to the device.
        let env = RecordTests.alsa(dir, input: "/dev/null", output: dir.file("played.raw"))
        for n in 1...2 {
            try? FileManager.default.removeItem(atPath: dir.file("played.raw"))
            result = try vsh.run(["--store", store, "--audio-out", "vshout", "-c", "list; play \(n)"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.bytes(dir.file("played.raw")) == plain.dropFirst(44), "play \(n)")
        }
        // transcribe reads the encrypted file.
        result = try vsh.run(["transcribe", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("married"), "\(result.stdout)")
        // show: duration and sketch.
        result = try vsh.run(["--store", store, "-c", "list; show 2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(encrypted)"))
        #expect(result.stdout.contains("█"), "\(result.stdout)")
        // Text stays plain.
        let id = (file as NSString).lastPathComponent.replacingOccurrences(of: ".wav", with: "")
        #expect(Self.bytes(store + "/\(id).txt").starts(with: Data("Id: ".utf8)))
        result = try vsh.run(["--store", store, "-c", "encrypt"])
        #expect(result.stdout.contains("Encryption: on"))
        #expect(result.stdout.contains("2 encrypted, 0 plain"))
    }

    @Test func aLostKeyIsReportedClearlyAndTheAudioIsLeftAlone() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        var result = try vsh.run(["--store", store], stdin: "record --from \(Self.sentence.path) --title x\nencrypt on\n")
        #expect(result.status == 0, "\(result.stderr)")
        let file = try #require(try audio(vsh, store).first)
        let sealed = Self.bytes(file)
        let keyPath = vsh.home.file("config/vsh/key")
        let backup = vsh.home.file("key.backup")
        try FileManager.default.moveItem(atPath: keyPath, toPath: backup)

        result = try vsh.run(["--store", store, "-c", "list; play 1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(file), "\(result.stderr)")
        #expect(result.stderr.contains("is encrypted with key"))
        #expect(result.stderr.contains("there is no key file at \(keyPath)"))
        #expect(result.stderr.contains("Restore the key file"))
        result = try vsh.run(["transcribe", file])
        #expect(result.status == 1)
        #expect(result.stderr.contains("there is no key file at \(keyPath)"))
        result = try vsh.run(["--store", store, "-c", "encrypt off"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Nothing was changed"))
        result = try vsh.run(["--store", store, "-c", "encrypt on"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("vsh will not make a new key"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: keyPath), "no new key was made")
        let drafts = { (try? FileManager.default.contentsOfDirectory(atPath: store + "/drafts").sorted()) ?? [] }
        let draftsBefore = drafts()
        result = try vsh.run(["--store", store, "-c", "record --from \(Self.sentence.path)"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nothing was recorded"))
        #expect(Self.bytes(file) == sealed, "the encrypted file is untouched")
        // Nor is an empty draft left behind to be offered at every start (issue 36, item 2).
        #expect(drafts() == draftsBefore)

        // Another key is named as a different key, not as damage.
        try FileManager.default.createDirectory(atPath: vsh.home.file("config/vsh"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(
            atPath: keyPath, contents: Data((String(repeating: "ab", count: 32) + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        result = try vsh.run(["--store", store, "-c", "list; play 1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("a different key"), "\(result.stderr)")
        #expect(!result.stderr.contains("authentication"))
        // Restored, everything reads again.
        try FileManager.default.removeItem(atPath: keyPath)
        try FileManager.default.moveItem(atPath: backup, toPath: keyPath)
        result = try vsh.run(["transcribe", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.bytes(file) == sealed)
    }

    @Test func encryptOffRestoresByteIdenticalWavesInTheStoreDraftsAndTrash() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        let path = Self.sentence.path
        var result = try vsh.run(["--store", store], stdin: """
            record --from \(path) --title kept
            record --from \(path) --title deleted
            list
            delete 1
            record --from \(path)
            """)
        #expect(result.status == 0, "\(result.stderr)")
        func wavs() -> [String: Data] {
            let names = FileManager.default.enumerator(atPath: store)?.compactMap { $0 as? String } ?? []
            return Dictionary(uniqueKeysWithValues: names.filter { $0.hasSuffix(".wav") }.map { ($0, Self.bytes(store + "/" + $0)) })
        }
        let before = wavs()
        #expect(before.count == 3, "\(before.keys)")
        #expect(before.keys.contains { $0.hasPrefix("drafts/") } && before.keys.contains { $0.hasPrefix("trash/") })
        result = try vsh.run(["--store", store, "-c", "encrypt on"])
        #expect(result.status == 0, "\(result.stderr)")
        let during = wavs()
        #expect(Set(during.keys) == Set(before.keys))
        #expect(during.values.allSatisfy { $0.prefix(8) == Data("VSHENC1\n".utf8) })
        // Undo brings the deleted one back, still encrypted and readable.
        result = try vsh.run(["--store", store, "-c", "undo --yes; list"])
        #expect(result.status == 0, "\(result.stderr)")
        result = try vsh.run(["--store", store, "-c", "encrypt off"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 audio file(s) decrypted"))
        let after = wavs()
        #expect(after.count == 3)
        #expect(Set(after.values) == Set(before.values), "every WAV is back byte for byte")
        result = try vsh.run(["--store", store, "-c", "encrypt"])
        #expect(result.stdout.contains("Encryption: off"))
        #expect(result.stdout.contains("0 encrypted, 3 plain"))
    }

    /// While on, the draft is encrypted as it records; killed with SIGKILL, the draft is
    /// recovered with what was recorded.
    @Test func aRecordingKilledWhileEncryptingLeavesARecoverableEncryptedDraft() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let dir = TempDirectory()
        defer { dir.remove() }
        let store = vsh.home.file("store")
        var result = try vsh.run(["--store", store, "-c", "encrypt on"])
        #expect(result.status == 0, "\(result.stderr)")
        let process = try RecordTests.startMicrophoneRecording(vsh, dir, store: store)
        let deadline = Date().addingTimeInterval(20)
        var draft: String?
        while Date() < deadline {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: store + "/drafts")) ?? []
            if let wav = files.first(where: { $0.hasSuffix(".wav") }), Self.bytes(store + "/drafts/" + wav).count > 3 * 32_000 {
                draft = store + "/drafts/" + wav
                break
            }
            usleep(50_000)
        }
        let recording = draft.map(Self.bytes) ?? Data()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let draftPath = try #require(draft, "no draft audio appeared")
        #expect(recording.prefix(8) == Data("VSHENC1\n".utf8), "encrypted while it records")
        #expect(!Self.sharesARun(recording, try RecordTests.wavData(Self.sentence.path)))
        let id = (draftPath as NSString).lastPathComponent.replacingOccurrences(of: ".wav", with: "")
        result = try vsh.run(["--store", store, "-c", "drafts"])
        #expect(result.stdout.contains(id), "\(result.stdout)")
        result = try vsh.run(["--store", store, "-c", "save --draft \(id) recovered"])
        #expect(result.status == 0, "\(result.stderr)")
        let items = try RecordTests().listed(vsh, store)
        #expect(items.map(\.title) == ["recovered"])
        #expect((items.first?.duration ?? 0) >= 3)
        result = try vsh.run(["transcribe", items.first?.audio ?? "?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("married"), "\(result.stdout)")
    }
}
