import Foundation
import VshCommands

/// A store checker ("fsck"): runs `vsh list --json` (the next start, which puts right a
/// change that was cut short), then reads the files themselves and lists every problem:
/// a `.txt` that does not parse, an item whose WAV is missing, not a WAV or not of the
/// stated length, a transcript both saved and in the trash, half a transcript (audio
/// without its `.txt`), temporary files left over, a listing cache that disagrees with
/// the files, modes other than 0700 and 0600.
package struct StoreCheck {
    /// What is wrong; empty when the store is sound.
    package var problems: [String] = []
    /// Saved transcripts: id → digest of the `.txt` and `.wav`.
    package var live: [String: String] = [:]
    /// Transcripts in the trash: id → the same digest.
    package var trashed: [String: String] = [:]
    package var drafts: Set<String> = []
    package var trashedDrafts: Set<String> = []
    /// What the next start said (warnings, notices of what it put right).
    package var startMessages = ""

    /// Every transcript and draft the store holds anywhere.
    package var everything: Set<String> { Set(live.keys).union(trashed.keys).union(drafts).union(trashedDrafts) }

    /// Checks `store`; files named in `damaged` (paths relative to the store) were damaged
    /// on purpose and are only required to be left alone.
    package init(store: String, vsh: VshBinary, damaged: Set<String> = [], user: UInt32? = nil) {
        guard FileManager.default.fileExists(atPath: store) else { return }
        let first = try? FaultInjection.run(vsh, ["--store", store, "-c", "list --json"], user: user)
        startMessages = first?.stderr ?? ""
        if first?.signaled == true { problems.append("vsh list died by signal \(first!.status)") }
        checkFiles(store, damaged: damaged)
        checkListing(store, vsh: vsh, cached: first?.stdout ?? "", damaged: damaged, user: user)
    }

    private mutating func checkFiles(_ store: String, damaged: Set<String>) {
        let manager = FileManager.default
        for case let name as String in manager.enumerator(atPath: store) ?? FileManager.DirectoryEnumerator() {
            var info = stat()
            guard lstat(store + "/" + name, &info) == 0 else { continue }
            let mode = info.st_mode & 0o777, isDir = (info.st_mode & S_IFMT) == S_IFDIR
            if mode != (isDir ? 0o700 : 0o600) && !damaged.contains(name) {
                problems.append("\(name) has mode \(String(mode, radix: 8))")
            }
            if name.hasSuffix(".tmp") { problems.append("temporary file left: \(name)") }
        }
        let names = Set((try? manager.contentsOfDirectory(atPath: store)) ?? [])
        for name in names.sorted() where !name.hasPrefix(".") {
            let id = (name as NSString).deletingPathExtension
            if name.hasSuffix(".txt") {
                guard !damaged.contains(name) else { continue }
                guard let header = Self.header(store + "/" + name) else {
                    problems.append("\(name) does not parse")
                    continue
                }
                if let problem = Self.audioProblem(store, header) , !damaged.contains(id + ".wav") {
                    problems.append("\(name): \(problem)")
                }
                live[id] = Self.digest(store, id)
            } else if [".wav", ".json"].contains(where: name.hasSuffix), !names.contains(id + ".txt") {
                problems.append("half a transcript: \(name) without \(id).txt")
            }
        }
        let trash = store + "/trash"
        for batch in ((try? manager.contentsOfDirectory(atPath: trash)) ?? []).sorted() {
            guard !batch.hasPrefix(".") else {
                problems.append("trash/\(batch) left over")
                continue
            }
            // `.origin` says which vsh made the batch (FORMAT.md, Trash); it holds no transcript.
            let files = Set((try? manager.contentsOfDirectory(atPath: trash + "/" + batch)) ?? []).subtracting([".origin"])
            if files.isEmpty { problems.append("empty batch trash/\(batch)") }
            for name in files where name != "drafts" {
                let id = (name as NSString).deletingPathExtension
                if name.hasSuffix(".txt") {
                    if trashed[id] != nil { problems.append("\(id) is in two batches of the trash") }
                    trashed[id] = Self.digest(trash + "/" + batch, id)
                } else if !files.contains(id + ".txt") {
                    problems.append("half a transcript in trash/\(batch): \(name) without \(id).txt")
                }
            }
            for name in (try? manager.contentsOfDirectory(atPath: trash + "/\(batch)/drafts")) ?? [] {
                trashedDrafts.insert((name as NSString).deletingPathExtension)
            }
        }
        for name in (try? manager.contentsOfDirectory(atPath: store + "/drafts")) ?? [] where !name.hasPrefix(".") {
            drafts.insert((name as NSString).deletingPathExtension)
        }
        for id in Set(live.keys).intersection(trashed.keys) { problems.append("\(id) is both saved and in the trash") }
        for id in drafts.intersection(trashedDrafts) { problems.append("draft \(id) is both in drafts and in the trash") }
        for id in drafts.intersection(live.keys) { problems.append("\(id) is both saved and a draft") }
        for id in drafts where !manager.fileExists(atPath: store + "/drafts/\(id).wav") {
            problems.append("draft \(id) has no audio")
        }
    }

    /// `list --json` from the cache agrees with the files and with a fresh scan.
    private mutating func checkListing(_ store: String, vsh: VshBinary, cached: String, damaged: Set<String>, user: UInt32?) {
        let ids = Self.ids(cached)
        if ids == nil { problems.append("list --json printed no JSON: \(cached.prefix(200)) \(startMessages)") }
        let expected = Set(live.keys)
        if let ids, Set(ids) != expected || ids.count != expected.count {
            problems.append("list shows \(ids.count) transcripts, the files hold \(expected.count): "
                + "extra \(Set(ids).subtracting(expected).sorted()), missing \(expected.subtracting(ids).sorted())")
        }
        guard user == nil else { return }
        try? FileManager.default.removeItem(atPath: store + "/.cache")
        let fresh = try? FaultInjection.run(vsh, ["--store", store, "-c", "list --json"])
        if fresh?.stdout != cached { problems.append("the listing cache disagrees with a fresh scan of the files") }
    }

    static func ids(_ json: String) -> [String]? {
        guard let items = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else { return nil }
        return items.compactMap { $0["id"] as? String }
    }

    /// The header's keys, lower-cased; nil when the file is not a transcript.
    static func header(_ path: String) -> [String: String]? {
        guard let data = FileManager.default.contents(atPath: path), !data.contains(0),
              let text = String(data: data, encoding: .utf8), let end = text.range(of: "\n\n") else { return nil }
        var header: [String: String] = [:]
        for line in text[..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            header[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return header["created"] == nil ? nil : header
    }

    /// What is wrong with the audio a header names, if anything.
    static func audioProblem(_ store: String, _ header: [String: String]) -> String? {
        guard let audio = header["audio"], !audio.isEmpty else { return nil }
        let path = audio.hasPrefix("/") ? audio : store + "/" + audio
        guard let data = FileManager.default.contents(atPath: path) else { return "its audio \(audio) is missing" }
        guard let wave = Wave(data) else { return "its audio \(audio) is not a WAV" }
        // Bytes past the data chunk (an append cut short) are ignored by readers, as by vsh.
        if wave.declared > wave.dataBytes { return "\(audio)'s data size says \(wave.declared), the file holds \(wave.dataBytes)" }
        if let stated = header["duration"].flatMap(Double.init), abs(stated - wave.seconds) > 0.006 {
            return "Duration says \(stated) s, \(audio) holds \(wave.seconds) s"
        }
        return nil
    }

    /// Where a WAV's samples are and how many bytes of them the file holds.
    package struct Wave {
        package var rate: Int
        package var dataOffset: Int
        package var dataBytes: Int
        package var declared: Int
        /// Seconds of audio the header describes.
        package var seconds: Double { rate > 0 ? Double(min(declared, dataBytes) / 2) / Double(rate) : 0 }

        package init?(_ data: Data) {
            let b = [UInt8](data)
            func u32(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
            guard b.count >= 12, b[0..<4] == [0x52, 0x49, 0x46, 0x46][...], b[8..<12] == [0x57, 0x41, 0x56, 0x45][...] else { return nil }
            var at = 12
            var rate: Int?
            while at + 8 <= b.count {
                let id = String(decoding: b[at..<(at + 4)], as: UTF8.self), size = u32(at + 4)
                if id == "fmt ", at + 16 <= b.count { rate = u32(at + 12) }
                if id == "data" {
                    guard let rate else { return nil }
                    self.rate = rate
                    dataOffset = at + 8
                    dataBytes = b.count - dataOffset
                    declared = size
                    return
                }
                at += 8 + size + (size & 1)
            }
            return nil
        }
    }

    static func digest(_ directory: String, _ id: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for ext in [".txt", ".wav"] {
            for b in FileManager.default.contents(atPath: directory + "/" + id + ext) ?? Data() { h = (h ^ UInt64(b)) &* 0x100000001b3 }
            h = (h ^ 0xff) &* 0x100000001b3
        }
        return String(h, radix: 16)
    }
}
