import Foundation
import Testing
import VshTestSupport

/// The transcript commands through the built binary: drafts are left in the store the way
/// the recorder leaves them (a WAV and a header in `drafts/`), then saved with
/// `save --draft ID`, as after a crash.
@Suite(.tags(.slow)) struct StoreScriptTests {
    /// A 16-bit mono 16 kHz WAV of `seconds` of a rising tone.
    static func wav(seconds: Double) -> Data {
        let count = Int(seconds * 16000)
        var data = Data()
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); put(UInt32(36 + count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); put(UInt32(16)); put(UInt16(1)); put(UInt16(1))
        put(UInt32(16000)); put(UInt32(32000)); put(UInt16(2)); put(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); put(UInt32(count * 2))
        for i in 0..<count { put(Int16(Double(i) / Double(count) * 20000 * sin(Double(i) / 8))) }
        return data
    }

    /// Leaves a draft in `store/drafts` as a recorder that finished would: WAV, then header
    /// and text, its words written down to the end of the audio (a draft cut short is
    /// transcribed when saved: RecorderTests).
    static func leaveDraft(in store: String, id: String, created: String, text: String, seconds: Double = 1) throws {
        try FileManager.default.createDirectory(atPath: store + "/drafts", withIntermediateDirectories: true)
        try wav(seconds: seconds).write(to: URL(fileURLWithPath: "\(store)/drafts/\(id).wav"))
        let header = "Id: \(id)\nCreated: \(created)\nDuration: \(String(format: "%.2f", seconds))\nQuality: medium\nSample-Rate: 16000\nAudio: \(id).wav\nSource: file test.wav\n\n\(text)\n"
        try header.write(toFile: "\(store)/drafts/\(id).txt", atomically: true, encoding: .utf8)
    }

    static func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    /// `vsh list`, then `vsh show 1` and `vsh delete 1` from the shell: the numbers carry
    /// over between runs, as they do at the prompt (issue 28, item 4).
    @Test func listNumbersCarryOverBetweenRuns() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        try Self.leaveDraft(in: store, id: "20250319-a000", created: "2025-03-19T07:35:06+01:00", text: "older words")
        try Self.leaveDraft(in: store, id: "20250320-b000", created: "2025-03-20T09:06:40+01:00", text: "newer words")
        #expect(try vsh.run(["--store", store, "-c", "save --draft 20250319-a000 older; save --draft 20250320-b000 newer"]).status == 0)
        let list = try vsh.run(["--store", store, "list"])
        #expect(list.stdout.contains("0:01  newer\n") && list.stdout.contains("0:01  older\n"), "\(list.stdout)")
        let show = try vsh.run(["--store", store, "show", "2"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.hasPrefix("older\n"), "\(show.stdout)")
        #expect(try vsh.run(["--store", store, "delete", "1"]).status == 0)
        // The store changed: 2 still means 'older', and vsh says the store changed.
        let again = try vsh.run(["--store", store, "show", "2"])
        #expect(again.stdout.hasPrefix("older\n"), "\(again.stdout)")
        #expect(again.stderr.hasPrefix("warning: the store changed since the last 'list' or 'search' numbered its transcripts"), "\(again.stderr)")
        let gone = try vsh.run(["--store", store, "show", "1"])
        #expect(gone.stderr.contains("transcript 1 ('20250320-b000') is in the trash"), "\(gone.stderr)")
    }

    @Test func saveListShowSearchDeleteUndoThroughAScript() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        try Self.leaveDraft(in: store, id: "20250319-a000", created: "2025-03-19T07:35:06+01:00",
                            text: "Remember to call the Plumber on Monday", seconds: 2)
        try Self.leaveDraft(in: store, id: "20250320-b000", created: "2025-03-20T09:06:40+01:00",
                            text: "Shopping list milk eggs bread")
        let saved = try vsh.run(["--store", store], stdin: "save --draft 20250319-a000\nsave --draft 20250320-b000 Groceries\n")
        #expect(saved.stderr == "")
        #expect(saved.stdout == "saved 20250319-a000: Remember to call the Plumber on\nsaved 20250320-b000: Groceries\n")
        for name in ["20250319-a000.txt", "20250319-a000.wav", "20250319-a000.json"] {
            #expect(FileManager.default.fileExists(atPath: store + "/" + name), "\(name)")
        }

        let listed = try vsh.run(["--store", store, "-c", "list --json"], environment: ["TZ": "Europe/Paris"])
        let items = try Self.json(listed.stdout)
        #expect(items.map { $0["id"] as? String } == ["20250320-b000", "20250319-a000"])
        #expect(items[1]["title"] as? String == "Remember to call the Plumber on")
        #expect(items[1]["created"] as? String == "2025-03-19T07:35:06+01:00")
        #expect(items[1]["duration"] as? Double == 2)
        #expect(items[1]["quality"] as? String == "medium")
        #expect(items[1]["transcript"] as? String == "Remember to call the Plumber on Monday")
        #expect(items[1]["audio"] as? String == store + "/20250319-a000.wav")

        let script = """
            list
            show 2
            search plumber MONDAY
            search --json milk
            delete 1
            list
            undo
            list --on 2025-03-20
            """
        let result = try vsh.run(["--store", store], stdin: script, environment: ["TZ": "Europe/Paris"])
        #expect(result.stderr == "")
        #expect(result.status == 0)
        let lines = result.stdout.components(separatedBy: "\n")
        #expect(Array(lines.prefix(4)) == ["Thu 20 Mar 2025", "  1  09:06   0:01  Groceries", "Wed 19 Mar 2025", "  2  07:35   0:02  Remember to call the Plumber on"])
        #expect(lines.contains("Id:       20250319-a000"))
        #expect(lines.contains { $0.count == 60 && $0.allSatisfy { "▁▂▃▄▅▆▇█".contains($0) } }, "a sparkline")
        #expect(lines.contains("     Remember to call the Plumber on Monday"), "the search shows where it matched")
        #expect(result.stdout.contains("{\"number\": 1, \"id\": \"20250320-b000\", \"title\": \"Groceries\""))
        // The last listing was `search --json milk`, numbered as the plain one would be:
        // 1 is now the Groceries note.
        #expect(lines.contains("restored 1 transcript (20250320-b000)"))
        #expect(lines.suffix(3) == ["Thu 20 Mar 2025", "  1  09:06   0:01  Groceries", ""])
        #expect(!result.stdout.contains("\u{1B}"), "no colours through a pipe")
    }

    @Test func errorsNameWhatToDo() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        let result = try vsh.run(["--store", store], stdin: "list\nshow 1\ndelete 20261121-nope\nsave\nundo\n")
        #expect(result.status == 1)
        #expect(result.stdout == "No transcripts yet.\n")
        #expect(result.stderr == """
            line 2: error: show: there is no number 1 in the last listing (it was empty); run 'list' to see the numbers
            line 3: error: delete: no transcript with id '20261121-nope'; run 'list' to see the transcripts and their ids
            line 4: error: save: nothing to save: no recording has been made
            line 5: error: undo: nothing to undo: the trash is empty

            """)
        // Reading an empty store creates nothing.
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func theDefaultStoreIsUnderXdgDataHome() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("data/vsh")
        try Self.leaveDraft(in: store, id: "20261121-c000", created: "2026-11-21T10:55:20Z", text: "hello")
        #expect(try vsh.run(["-c", "drafts"]).stdout.hasPrefix("20261121-c000  "))
        #expect(try vsh.run(["-c", "save --draft 20261121-c000"]).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: store + "/20261121-c000.wav")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// Two vsh processes saving and deleting in one store at once lose nothing.
    @Test func twoProcessesShareAStore() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let store = vsh.home.file("store")
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
        var ids: [[String]] = [[], []]
        for worker in 0..<2 {
            for i in 0..<40 {
                let id = "2026112\(worker + 1)-\(alphabet[i / 32])\(alphabet[i % 32])00"
                try Self.leaveDraft(in: store, id: id, created: "2026-11-2\(worker + 1)T10:00:\(10 + i)Z", text: "note \(worker) \(i)", seconds: 0.05)
                ids[worker].append(id)
            }
        }
        func script(_ worker: Int) -> String {
            ids[worker].map { "save --draft \($0)\nlist" }.joined(separator: "\n")
                + "\ndelete " + ids[worker].prefix(10).joined(separator: " ") + "\n"
        }
        let group = DispatchGroup()
        nonisolated(unsafe) var results: [VshBinary.Result?] = [nil, nil]
        let binary = vsh
        for worker in 0..<2 {
            let text = script(worker)
            DispatchQueue.global().async(group: group) {
                results[worker] = try? binary.run(["--store", store], stdin: text)
            }
        }
        group.wait()
        for result in results {
            #expect(result?.status == 0)
            #expect(result?.stderr == "")
        }
        let listed = try Self.json(try vsh.run(["--store", store, "-c", "list --json"]).stdout)
        #expect(listed.count == 60)
        #expect(Set(listed.compactMap { $0["id"] as? String }) == Set(ids[0].dropFirst(10) + ids[1].dropFirst(10)))
        // The listing cache agrees with the files themselves.
        try FileManager.default.removeItem(atPath: store + "/.cache")
        #expect(try Self.json(try vsh.run(["--store", store, "-c", "list --json"]).stdout).count == 60)
        #expect(try vsh.run(["--store", store, "-c", "trash"]).stdout.components(separatedBy: "Deleted ").count == 3)
    }
}
