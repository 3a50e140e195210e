import Foundation
import Testing
import VshTestSupport

/// Faults through the built binary: vsh killed at random moments of every change, a full
/// disk (a file-size limit), a read-only store, eight processes at once, and damaged
/// files. After each, `StoreCheck` must pass and nothing saved may be lost or changed.
/// The long versions are in bench/faults.py.
@Suite(.serialized, .tags(.slow)) struct StoreFaultTests {
    static let sentence = EvalData.librivox().first { $0.path.hasSuffix("0920.wav") }!

    /// A store of `items` saved transcripts and `drafts` drafts, numbered from `from`.
    static func fill(_ store: String, items: Int, drafts: Int, from: Int = 0) throws {
        for i in 0..<items { _ = try FaultInjection.saveItem(in: store, second: from + i, text: "note \(from + i) about the garden") }
        for i in 0..<drafts { _ = try FaultInjection.leaveDraft(in: store, second: from + items + i, text: "draft \(from + items + i) words") }
    }

    static func expectSound(_ check: StoreCheck, _ context: String) {
        #expect(check.problems.isEmpty, "\(context): \(check.problems.joined(separator: "; "))")
    }

    /// kill -9 at random moments of save, delete, undo, discard and `trash empty --yes`:
    /// every transcript saved before is afterwards saved or in the trash, byte for byte
    /// (only emptying the trash may remove what was in it), and the store checks sound.
    @Test func killedAtRandomMomentsTheStoreStaysWhole() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        var rng = SplitMix64(seed: 7)
        var next = 0
        try Self.fill(store, items: 40, drafts: 30)
        next = 70
        let operations = ["save", "delete", "undo", "discard", "empty"]
        var before = StoreCheck(store: store, vsh: vsh)
        Self.expectSound(before, "the store as made")
        var kills = 0
        // How long each kind of run changes the store when not killed: the kill comes within that.
        var took: [String: Double] = [:]
        for round in 0..<30 {
            let op = operations[round % operations.count]
            if before.drafts.count < 10 {
                try Self.fill(store, items: 0, drafts: 15, from: next)
                next += 15
            }
            if before.live.count < 15 {
                try Self.fill(store, items: 20, drafts: 0, from: next)
                next += 20
            }
            before = StoreCheck(store: store, vsh: vsh)
            let script = Self.script(op, before, rng: &rng)
            // Killed at a random moment after its first change began.
            let delay = Double.random(in: 0...max(0.001, 0.9 * took[op, default: 0.02]), using: &rng)
            let run = try FaultInjection.run(vsh, ["--store", store], stdin: script, killAfter: delay, changing: store)
            if run.killed { kills += 1 } else if let changing = run.changingSeconds { took[op] = changing }
            #expect(run.killed || !run.signaled, "round \(round) (\(op)): vsh died by signal \(run.status)")
            let after = StoreCheck(store: store, vsh: vsh)
            Self.expectSound(after, "round \(round) (\(op), killed after \(delay) s: \(run.killed))")
            for (id, digest) in before.live {
                let now = after.live[id] ?? after.trashed[id]
                #expect(now == digest, "round \(round) (\(op)): \(id) was saved and is now \(now == nil ? "gone" : "changed")")
            }
            for (id, digest) in before.trashed where op != "empty" {
                #expect((after.live[id] ?? after.trashed[id]) == digest, "round \(round) (\(op)): \(id) left the trash")
            }
            for id in before.drafts {
                #expect(after.everything.contains(id), "round \(round) (\(op)): draft \(id) is gone")
            }
            before = after
        }
        #expect(kills >= 10, "only \(kills) of 30 runs were killed midway: the kill comes too late")
    }

    /// A script of one kind of change, big enough to take a while.
    static func script(_ op: String, _ state: StoreCheck, rng: inout SplitMix64) -> String {
        switch op {
        case "save": return state.drafts.sorted().map { "save --draft \($0)" }.joined(separator: "\n")
        case "delete":
            let ids = state.live.keys.sorted().shuffled(using: &rng)
            return "delete " + ids.prefix(8).joined(separator: " ") + "\n" + ids.dropFirst(8).prefix(6).map { "delete \($0)" }.joined(separator: "\n")
        case "undo": return Array(repeating: "undo --yes", count: 6).joined(separator: "\n")
        case "discard": return state.drafts.sorted().prefix(8).map { "discard \($0)" }.joined(separator: "\n")
        default: return "trash empty --yes"
        }
    }

    /// Killed while recording from a file: the draft holds the audio read until then, the
    /// file's own samples, and can be saved.
    @Test func killedWhileRecordingTheDraftHoldsTheAudioSoFar() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        let source = try Data(contentsOf: URL(fileURLWithPath: Self.sentence.path)).dropFirst(44)
        for (round, delay) in [0.6, 1.0].enumerated() {
            let run = try FaultInjection.run(vsh, ["--store", store, "-c", "record --from \(Self.sentence.path)"], killAfter: delay)
            #expect(run.killed || run.status == 0)
            let drafts = try FileManager.default.contentsOfDirectory(atPath: store + "/drafts").filter { $0.hasSuffix(".wav") }.sorted()
            guard let wav = drafts.last else {
                Issue.record("round \(round): no draft audio")
                continue
            }
            let id = String(wav.dropLast(4))
            let data = try Data(contentsOf: URL(fileURLWithPath: store + "/drafts/" + wav)).dropFirst(44)
            #expect(source.starts(with: data), "round \(round): the draft's audio is not the file's first samples")
            let saved = try vsh.run(["--store", store, "-c", "save --draft \(id) killed \(round)"])
            #expect(saved.status == 0, "\(saved.stderr)")
            let check = StoreCheck(store: store, vsh: vsh)
            Self.expectSound(check, "round \(round)")
            #expect(check.live[id] != nil)
        }
    }

    /// Disk full while recording from a file (a file-size limit): vsh says so, naming the
    /// file, the draft keeps what was written, earlier transcripts are untouched, and with
    /// the limit lifted the draft is saved.
    @Test func aFullDiskWhileRecordingKeepsTheDraft() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        try Self.fill(store, items: 3, drafts: 0)
        let before = StoreCheck(store: store, vsh: vsh)
        let run = try FaultInjection.run(vsh, ["--store", store, "-c", "record --from \(Self.sentence.path)"], fileSizeLimit: 64_000)
        #expect(run.status == 1 && !run.signaled, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("the file is too large (the disk is full or a file-size limit was reached); free some space")
                && run.stderr.contains(store + "/drafts/"), "\(run.stderr)")
        let wav = try #require(try FileManager.default.contentsOfDirectory(atPath: store + "/drafts").first { $0.hasSuffix(".wav") })
        let data = try Data(contentsOf: URL(fileURLWithPath: store + "/drafts/" + wav))
        #expect(data.count > 32_000 && data.count <= 64_000)
        // Exactly a WAV: the samples of the write that did not fit are taken off again.
        let declared = data[40..<44].withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
        #expect(declared == data.count - 44)
        let source = try Data(contentsOf: URL(fileURLWithPath: Self.sentence.path)).dropFirst(44)
        #expect(source.starts(with: data.dropFirst(44)))
        let saved = try vsh.run(["--store", store, "-c", "save --draft \(wav.dropLast(4)) what fitted"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let after = StoreCheck(store: store, vsh: vsh)
        Self.expectSound(after, "after the save")
        for (id, digest) in before.live { #expect(after.live[id] == digest) }
        #expect(after.live.count == 4)
    }

    /// Saving when the disk is full (a file-size limit too small for the `.json`, then for
    /// the `.txt`): vsh says what failed and what to do, the draft is kept as it was, and
    /// it saves once the limit is lifted.
    @Test func aFullDiskWhileSavingKeepsTheDraft() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        try Self.fill(store, items: 3, drafts: 0)
        let long = String(repeating: "a long transcript of many words ", count: 100)
        let id = try FaultInjection.leaveDraft(in: store, second: 500, text: long)
        let before = StoreCheck(store: store, vsh: vsh)
        let draft = FaultInjection.snapshot(store + "/drafts")
        for (limit, file) in [(0, "\(id).json"), (1_000, "\(id).txt")] {
            let run = try FaultInjection.run(vsh, ["--store", store, "-c", "save --draft \(id)"], fileSizeLimit: limit)
            #expect(run.status == 1 && !run.signaled)
            #expect(run.stderr.contains("cannot write \(store)/\(file): File too large"), "\(run.stderr)")
            #expect(run.stderr.contains("free some space and try again"), "\(run.stderr)")
            #expect(FaultInjection.snapshot(store + "/drafts") == draft, "limit \(limit): the draft changed")
            let check = StoreCheck(store: store, vsh: vsh)
            Self.expectSound(check, "limit \(limit)")
            #expect(check.live == before.live, "limit \(limit): the saved transcripts changed")
        }
        let saved = try vsh.run(["--store", store, "-c", "save --draft \(id)"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let after = StoreCheck(store: store, vsh: vsh)
        Self.expectSound(after, "after the save")
        #expect(after.live.count == 4 && after.drafts.isEmpty)
    }

    /// A read-only store (as another user when the tests run as root): reading works;
    /// every change fails naming the directory and saying it is read-only; nothing on
    /// disk changes.
    @Test func aReadOnlyStoreIsReadAndNeverChanged() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        try Self.fill(store, items: 3, drafts: 2)
        _ = try vsh.run(["--store", store, "-c", "delete \(FaultInjection.id(second: 0))"])
        let draft = FaultInjection.id(second: 3)
        let asRoot = geteuid() == 0
        let user: UInt32? = asRoot ? 65534 : nil
        var extra: [String: String] = [:]
        let home = TempDirectory("vsh-nobody")
        defer { home.remove() }
        if asRoot {
            // The unprivileged user owns the store (so only the modes stop it) and a home.
            chmod(vsh.home.path, 0o755)
            chmod(home.path, 0o777)
            extra = ["HOME": home.path, "XDG_STATE_HOME": home.file("state"), "XDG_CONFIG_HOME": home.file("config")]
        }
        func setModes(writable: Bool) {
            for case let name as String in FileManager.default.enumerator(atPath: store)! {
                var info = stat()
                lstat(store + "/" + name, &info)
                let isDir = (info.st_mode & S_IFMT) == S_IFDIR
                chmod(store + "/" + name, writable ? (isDir ? 0o700 : 0o600) : (isDir ? 0o500 : 0o400))
                if asRoot { chown(store + "/" + name, writable ? 0 : 65534, writable ? 0 : 65534) }
            }
            chmod(store, writable ? 0o700 : 0o500)
            if asRoot { chown(store, writable ? 0 : 65534, writable ? 0 : 65534) }
        }
        setModes(writable: false)
        let files = FaultInjection.snapshot(store)
        // What each command reads, as it reads it from a store it may change.
        let (note0, note1, note2) = (FaultInjection.id(second: 0), FaultInjection.id(second: 1), FaultInjection.id(second: 2))
        let reads: [(String, [String])] = [
            ("list", ["  1  00:00   0:00  note 2 about the garden\n  2  00:00   0:00  note 1 about the garden\n"]),
            ("search garden", ["  1  00:00   0:00  note 2 about the garden\n     note 2 about the garden\n"
                                + "  2  00:00   0:00  note 1 about the garden\n     note 1 about the garden\n"]),
            ("show \(note1)", ["note 1 about the garden\nId:       \(note1)\n", "Audio:    \(store)/\(note1).wav\n"]),
            ("drafts", ["\(draft)  Sat 21 Nov 2026 00:00  0:00  draft 3 words\n",
                        "\(FaultInjection.id(second: 4))  Sat 21 Nov 2026 00:00  0:00  draft 4 words\n"]),
            ("trash", ["  \(note0)  note 0 about the garden\n"]),
            ("list --json", ["\"id\": \"\(note2)\", \"title\": \"note 2 about the garden\"",
                             "\"id\": \"\(note1)\", \"title\": \"note 1 about the garden\""]),
        ]
        for (command, expected) in reads {
            let run = try FaultInjection.run(vsh, ["--store", store, "-c", command], environment: extra, user: user)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(command): \(run.stderr)")
            for text in expected {
                #expect(run.stdout.contains(text), "\(command): \(run.stdout)")
            }
            #expect(command == "trash" || !run.stdout.contains("note 0 about"), "\(command) lists the deleted note: \(run.stdout)")
        }
        // The recording to record from, where the unprivileged user can read it: the
        // checkout may lie in a directory only root can enter (a clone under mktemp -d).
        let sentence = home.file("sentence.wav")
        try FileManager.default.copyItem(atPath: Self.sentence.path, toPath: sentence)
        chmod(sentence, 0o644)
        for command in ["record --from \(sentence)", "save --draft \(draft)", "delete \(FaultInjection.id(second: 1))",
                        "discard \(draft)", "undo", "trash empty --yes"] {
            let run = try FaultInjection.run(vsh, ["--store", store, "-c", command], environment: extra, user: user)
            #expect(run.status == 1 && !run.signaled, "\(command)")
            #expect(run.stderr.contains("the store \(store) is read-only"), "\(command): \(run.stderr)")
        }
        #expect(FaultInjection.snapshot(store) == files, "the read-only store changed")
        setModes(writable: true)
        Self.expectSound(StoreCheck(store: store, vsh: vsh), "made writable again")
    }

    /// Eight vsh processes saving, listing, deleting, undoing and recording in one store
    /// at once: the counts add up (saved − deleted + restored = listed), ids are unique,
    /// and the store checks sound.
    @Test func eightProcessesAtOnceLoseNothing() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        let workers = 8, perWorker = 24
        var scripts: [String] = []
        for w in 0..<workers {
            var lines: [String] = []
            var saved: [String] = []
            for i in 0..<perWorker {
                let id = try FaultInjection.leaveDraft(in: store, second: 1000 + w * 100 + i, text: "worker \(w) note \(i)")
                lines.append("save --draft \(id)")
                saved.append(id)
                if i % 3 == 2 { lines.append("list") }
                if i % 4 == 3 { lines.append("delete \(saved.removeFirst())") }
                if i % 7 == 6 { lines.append("undo") }
            }
            if w < 2 { lines.append("record --from \(Self.sentence.path) --title 'recorded by \(w)'") }
            scripts.append(lines.joined(separator: "\n") + "\n")
        }
        let group = DispatchGroup()
        nonisolated(unsafe) var runs = [FaultInjection.Run?](repeating: nil, count: workers)
        let binary = vsh
        for w in 0..<workers {
            let script = scripts[w]
            DispatchQueue.global().async(group: group) {
                runs[w] = try? FaultInjection.run(binary, ["--store", store], stdin: script)
            }
        }
        group.wait()
        var saved: [String] = [], deleted: [String] = [], restored: [String] = []
        for (w, run) in runs.enumerated() {
            guard let run else {
                Issue.record("worker \(w) did not run")
                continue
            }
            let errors = run.stderr.split(separator: "\n").filter { !$0.contains("nothing to undo") }
            #expect(run.status == 0 || (errors.isEmpty && !run.signaled), "worker \(w): \(run.stderr)")
            for line in run.stdout.split(separator: "\n") {
                if line.hasPrefix("saved ") { saved.append(String(line.dropFirst(6).prefix(13))) }
                if line.hasPrefix("restored "), let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")") {
                    restored += line[line.index(after: open)..<close].components(separatedBy: ", ")
                }
            }
            for line in scripts[w].split(separator: "\n") where line.hasPrefix("delete ") { deleted.append(String(line.dropFirst(7))) }
        }
        #expect(Set(saved).count == saved.count, "an id was saved twice")
        #expect(saved.count == workers * perWorker + 2)
        let check = StoreCheck(store: store, vsh: vsh)
        Self.expectSound(check, "after eight processes")
        #expect(check.live.count == saved.count - deleted.count + restored.count)
        var expected = Set(saved).subtracting(deleted)
        expected.formUnion(restored)
        #expect(Set(check.live.keys) == expected)
        #expect(Set(check.trashed.keys) == Set(deleted).subtracting(restored))
    }

    /// Damaged files through the binary: a truncated, a binary and a Latin-1 `.txt` are
    /// skipped with a warning naming each; transcripts and a draft whose WAV is truncated
    /// or garbage are still listed, shown and saved; every damaged file is left byte for
    /// byte. (StoreSafetyTests covers each kind of damaged `.txt` in the store itself.)
    @Test func damagedFilesAreSkippedWithAWarningAndLeftAlone() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        try Self.fill(store, items: 3, drafts: 1)
        let cut = FaultInjection.id(second: 0), garbage = FaultInjection.id(second: 1), draft = FaultInjection.id(second: 3)
        let damaged: [String: Data] = [
            "20261120-0001.txt": Data("Title: cut\nCreated: 2026-11-20T10:00:00Z\nDura".utf8),
            "20261120-0002.txt": Data((0..<300).map { UInt8(($0 * 89 + 7) % 256) }),
            "20261120-0003.txt": Data("Title: caf\u{e9}\nCreated: 2026-11-20T10:00:00Z\n\nna\u{ef}ve\n".data(using: .isoLatin1)!),
            "\(cut).wav": try Data(contentsOf: URL(fileURLWithPath: store + "/\(cut).wav")).prefix(30),
            "\(garbage).wav": Data((0..<5000).map { UInt8($0 % 251) }),
            "drafts/\(draft).wav": Data("RIFF....WAVEjunk".utf8),
        ]
        for (name, data) in damaged {
            try data.write(to: URL(fileURLWithPath: store + "/" + name))
            chmod(store + "/" + name, 0o600)
        }
        _ = try vsh.run(["--store", store, "-c", "list"])
        let files = FaultInjection.snapshot(store)
        for command in ["list", "search garden", "list --json"] {
            let run = try vsh.run(["--store", store, "-c", command])
            #expect(run.status == 0, "\(command): \(run.stderr)")
            for name in damaged.keys where name.hasSuffix(".txt") {
                #expect(run.stderr.contains("warning: skipped \(store)/\(name): "), "\(command): \(name): \(run.stderr)")
            }
            #expect(run.stdout.contains(cut) || !command.hasSuffix("json"))
        }
        for id in [cut, garbage] {
            let run = try vsh.run(["--store", store, "-c", "show \(id)"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("(the audio is not a WAV file vsh can read)"), "\(run.stdout)")
        }
        let shown = try vsh.run(["--store", store, "-c", "show 20261120-0002"])
        #expect(shown.status == 1 && shown.stderr.contains("20261120-0002.txt is damaged"), "\(shown.stderr)")
        #expect(FaultInjection.snapshot(store) == files, "a damaged file was changed")
        let drafts = try vsh.run(["--store", store, "-c", "drafts"])
        #expect(drafts.stdout.contains(draft), "\(drafts.stdout)")
        let saved = try vsh.run(["--store", store, "-c", "save --draft \(draft)"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let check = StoreCheck(store: store, vsh: vsh, damaged: Set(damaged.keys.map { $0.replacingOccurrences(of: "drafts/", with: "") }))
        #expect(check.problems.isEmpty, "\(check.problems)")
    }
}
