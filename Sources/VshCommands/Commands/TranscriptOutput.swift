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

    /// The items as a JSON listing (`JSONWriter`), numbered like the plain listing
    /// (`"number"`) and remembered the same way, so that `show 2` after `list --json`
    /// means the second object. Written as it goes: `list --json` can be 80 MB of text.
    func printJSON(_ items: [TranscriptStore.Item]) {
        remember(listing: items.map(\.id))
        var json = JSONWriter()
        json.listing { json in
            for (i, item) in items.enumerated() {
                Self.writeJSON(item, number: i + 1, to: &json)
                if json.bytes.count > 1 << 16 { json.flush(to: output) }
            }
        }
        json.flush(to: output)
        output.line()
    }

    /// One transcript as a JSON object (FORMAT.md, "JSON output"); `number` in a listing.
    static func writeJSON(_ item: TranscriptStore.Item, number: Int?, to json: inout JSONWriter) {
        json.object { json in
            if let number { json.field("number", integer: number) }
            json.field("id", item.id)
            json.field("title", item.title)
            json.field("created", item.created.iso)
            json.field("duration", item.duration)
            json.field("quality", item.quality)
            json.key("transcript")
            item.text.withUTF8 { json.string(utf8: $0) }
            json.field("audio", item.hasAudio ? item.audioPath : nil)
        }
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
