import ArgumentParser
import Foundation
import VshCore
import VshStore

/// What the transcript commands share: turning `2` or an id into a transcript, listings
/// grouped by day, and the JSON shape of a transcript.
extension CommandContext {
    var store: TranscriptStore { session.store }

    /// The id a reference stands for: a number of the last `list` or `search`, or an id.
    func resolveID(_ reference: String) throws -> String {
        guard let number = Int(reference) else { return reference }
        guard let listing = lastListing() else {
            throw CommandError("'\(reference)' refers to a numbered listing, and there is none yet: run 'list' (or 'search WORDS') first, or give an id")
        }
        guard number >= 1 && number <= listing.count else {
            let range = listing.isEmpty ? "it was empty" : "it has 1–\(listing.count)"
            throw CommandError("there is no number \(number) in the last listing (\(range)); run 'list' to see the numbers")
        }
        return listing[number - 1]
    }

    /// The ids the numbers stand for: this session's last `list` or `search`, else the
    /// one an earlier vsh kept in the store (`vsh list`, then `vsh show 1`), with a
    /// warning when the store changed since; nil when there was none.
    func lastListing() -> [String]? {
        if let listing = session.listing { return listing }
        guard let kept = store.lastListing() else { return nil }
        session.listing = kept.ids
        if kept.storeChangedSince {
            warn("the store changed since the last 'list' or 'search' numbered its transcripts; each number still "
                + "means the transcript it stood for then ('list' numbers them anew)")
        }
        return kept.ids
    }

    /// Remembers `ids` as the numbers of the listing just shown, for this session and,
    /// kept in the store, for the next vsh.
    func remember(listing ids: [String]) {
        session.listing = ids
        store.keepListing(ids)
    }

    /// The unsaved recording a command means: the draft `id` names, else the recording
    /// just made; nil when there is neither.
    func draft(_ id: String?) throws -> TranscriptStore.Draft? {
        guard let id else { return session.currentDraft }
        guard let found = try store.draft(id) else {
            throw CommandError("no unsaved draft '\(id)'; 'drafts' lists them")
        }
        return found
    }

    /// The saved transcript a reference stands for; says where it went if it is gone.
    func resolveItem(_ reference: String) throws -> TranscriptStore.Item {
        let id = try resolveID(reference)
        if let item = try store.item(id) { return item }
        throw CommandError(missing(id, reference: reference))
    }

    /// Why `id` is not in the store, in words.
    func missing(_ id: String, reference: String) -> String {
        let named = reference == id ? "'\(id)'" : "\(reference) ('\(id)')"
        if store.trash().contains(where: { $0.items.contains { $0.id == id } }) {
            return "transcript \(named) is in the trash; 'undo' restores the last deletion, 'trash' lists them"
        }
        return "no transcript with id \(named); run 'list' to see the transcripts and their ids"
    }

    func warn(_ warnings: [String]) {
        for w in warnings { warn(w) }
    }

    /// Numbered lines grouped by day (Today, Yesterday, `Thu 19 Nov 2026`), remembering
    /// the numbers for `show 2`. `detail` adds an indented line under an item. Built as
    /// bytes: a listing can be 100,000 lines.
    func printListing(_ items: [TranscriptStore.Item], detail: ((TranscriptStore.Item) -> String?)? = nil,
                      title: (TranscriptStore.Item) -> String = { $0.title.visible }) {
        remember(listing: items.map(\.id))
        let days = DayNames(store: store)
        let width = String(items.count).count
        var out: [UInt8] = []
        out.reserveCapacity(min(items.count, 4096) * 64)
        func spaces(_ n: Int) { out.append(contentsOf: repeatElement(32, count: max(0, n))) }
        func two(_ n: Int) { out += [UInt8(48 + n / 10), UInt8(48 + n % 10)] }
        var day: Int64?
        for (i, item) in items.enumerated() {
            let c = days.offsets.civil(item.created)
            if c.dayNumber != day {
                day = c.dayNumber
                out += style.bold(days.name(of: c)).utf8
                out.append(10)
            }
            let number = String(i + 1)
            spaces(width + 2 - number.utf8.count)
            out += number.utf8
            spaces(2)
            if style.colors { out += "\u{1B}[2m".utf8 }
            two(c.hour)
            out.append(58)
            two(c.minute)
            if style.colors { out += "\u{1B}[0m".utf8 }
            let length = Elapsed.text(item.duration)
            spaces(7 - length.utf8.count)
            out += length.utf8
            spaces(2)
            out += title(item).utf8
            out.append(10)
            if let line = detail?(item) {
                spaces(width + 4)
                out += line.utf8
                out.append(10)
            }
            if out.count > 1 << 16 {
                output.write(String(decoding: out, as: UTF8.self))
                out.removeAll(keepingCapacity: true)
            }
        }
        output.write(String(decoding: out, as: UTF8.self))
    }

    /// The items as a JSON array, one object per line. Escaped byte by byte, copying the
    /// runs that need no escape: `list --json` can be 80 MB of text.
    /// Numbered like the plain listing (`"number"`), and remembered the same way, so that
    /// `show 2` after `list --json` means the second object.
    func printJSON(_ items: [TranscriptStore.Item]) {
        remember(listing: items.map(\.id))
        guard !items.isEmpty else { return output.line("[]") }
        var out: [UInt8] = Array("[\n".utf8)
        func key(_ name: String) { out += ",\"\(name)\":".utf8 }
        func string(_ s: String) {
            var s = s
            s.withUTF8 { Self.appendJSON($0, to: &out) }
        }
        for (i, item) in items.enumerated() {
            out += "{\"number\":\(i + 1),\"id\":".utf8
            string(item.id)
            key("title")
            string(item.title)
            key("created")
            string(item.created.iso)
            key("duration")
            out += JSON.number(item.duration).utf8
            key("quality")
            string(item.quality)
            key("transcript")
            item.text.withUTF8 { Self.appendJSON($0, to: &out) }
            key("audio")
            if item.hasAudio, let audio = item.audioPath { string(audio) } else { out += "null".utf8 }
            out += (i == items.count - 1 ? "}\n]\n" : "},\n").utf8
            if out.count > 1 << 16 {
                output.write(String(decoding: out, as: UTF8.self))
                out.removeAll(keepingCapacity: true)
            }
        }
        output.write(String(decoding: out, as: UTF8.self))
    }

    /// `bytes` (UTF-8) as a JSON string, escaped as `JSON.string` escapes.
    package static func appendJSON(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(34)
        var run = 0
        for (i, b) in bytes.enumerated() where b < 0x20 || b == 34 || b == 92 {
            out += bytes[run..<i]
            switch b {
            case 34, 92: out += [92, b]
            case 10: out += [92, UInt8(ascii: "n")]
            case 13: out += [92, UInt8(ascii: "r")]
            case 9: out += [92, UInt8(ascii: "t")]
            default: out += String(format: "\\u%04x", b).utf8
            }
            run = i + 1
        }
        out += bytes[run...]
        out.append(34)
    }
}

/// Day headings relative to the store's "now": Today, Yesterday, else `Thu 19 Nov 2026`.
struct DayNames {
    let offsets: LocalOffsets
    let today: Int64

    init(store: TranscriptStore) {
        offsets = LocalOffsets(store.timeZone)
        today = offsets.civil(StoreDate(store.now, timeZone: store.timeZone)).dayNumber
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    func name(of c: StoreDate.Civil) -> String {
        if c.dayNumber == today { return "Today" }
        if c.dayNumber == today - 1 { return "Yesterday" }
        return Self.date(c)
    }

    /// `Thu 19 Nov 2026`.
    static func date(_ c: StoreDate.Civil) -> String {
        "\(weekdays[c.weekday]) \(c.day) \(months[c.month - 1]) \(c.year)"
    }
}

/// `1 transcript`, `2 drafts`.
func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

enum Elapsed {
    /// `0:05`, `12:34`, `1:02:03`.
    static func text(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600):\(pad(s / 60 % 60)):\(pad(s % 60))" : "\(s / 60):\(pad(s % 60))"
    }
}

/// A day given on the command line: `YYYY-MM-DD`, `today` or `yesterday`.
enum DayArgument: ExpressibleByArgument, Equatable {
    case today, yesterday
    case date(year: Int, month: Int, day: Int)

    init?(argument: String) {
        switch argument.lowercased() {
        case "today": self = .today
        case "yesterday": self = .yesterday
        default:
            let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                  let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
                  (1...12).contains(m), (1...StoreDate.daysIn(month: m, year: y)).contains(d) else { return nil }
            self = .date(year: y, month: m, day: d)
        }
    }

    /// Days since 1970-01-01, with "today" as `days.today`.
    func dayNumber(_ days: DayNames) -> Int64 {
        switch self {
        case .today: days.today
        case .yesterday: days.today - 1
        case .date(let y, let m, let d): StoreDate.days(year: y, month: m, day: d)
        }
    }

    static var defaultCompletionKind: CompletionKind { .list(["today", "yesterday"]) }
}
