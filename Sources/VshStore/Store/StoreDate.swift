import Foundation

/// A moment as a `Created:` header holds it: seconds since 1970 and the UTC offset it was
/// written in (`2026-11-21T14:02:11+01:00`). Parsed and formatted by hand with integer
/// calendar arithmetic: listing 100,000 transcripts cannot afford a DateFormatter each.
package struct StoreDate: Sendable, Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z.
    package var seconds: Int64
    /// Seconds east of UTC in which the date is written.
    package var offset: Int

    package init(seconds: Int64, offset: Int) {
        self.seconds = seconds
        self.offset = offset
    }

    /// `date` to the whole second, written in `timeZone`'s offset at that moment.
    package init(_ date: Date, timeZone: TimeZone) {
        seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        offset = timeZone.secondsFromGMT(for: date)
    }

    package var date: Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    package static func < (a: StoreDate, b: StoreDate) -> Bool { a.seconds < b.seconds }

    /// Parses `YYYY-MM-DDTHH:MM:SS` followed by `Z` or `±HH:MM`; nil for anything else.
    package init?(iso text: some StringProtocol) {
        var text = String(text)
        guard let date = text.withUTF8({ StoreDate(utf8: $0) }) else { return nil }
        self = date
    }

    /// `init(iso:)` over UTF-8 bytes (header values are parsed without making strings).
    init?(utf8 b: UnsafeBufferPointer<UInt8>) {
        guard b.count == 20 || b.count == 25 else { return nil }
        func digits(_ at: Int, _ n: Int) -> Int? {
            var value = 0
            for i in at..<(at + n) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58,
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        var offset = 0
        if b.count == 25 {
            guard b[19] == 43 || b[19] == 45, b[22] == 58,
                  let oh = digits(20, 2), let om = digits(23, 2), oh < 24, om < 60 else { return nil }
            offset = (oh * 3600 + om * 60) * (b[19] == 45 ? -1 : 1)
        } else if b[19] != 90 {
            return nil
        }
        let local = Self.days(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
        self.init(seconds: local - Int64(offset), offset: offset)
    }

    /// `2026-11-21T14:02:11+01:00` (`Z` for UTC).
    package var iso: String {
        let c = civil(offset: offset)
        var s = "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second))"
        if offset == 0 { return s + "Z" }
        let a = abs(offset) / 60
        s += (offset < 0 ? "-" : "+") + "\(pad(a / 60)):\(pad(a % 60))"
        return s
    }

    /// The calendar fields of this moment seen from `offset` seconds east of UTC.
    package func civil(offset: Int) -> Civil {
        let local = seconds + Int64(offset)
        let day = Self.floorDiv(local, 86_400)
        let second = Int(local - day * 86_400)
        let (y, m, d) = Self.civil(day: day)
        return Civil(year: y, month: m, day: d, hour: second / 3600, minute: second / 60 % 60,
                     second: second % 60, dayNumber: day)
    }

    /// Calendar fields; `dayNumber` counts days since 1970-01-01 (the key for grouping).
    package struct Civil: Sendable, Equatable {
        package var year, month, day, hour, minute, second: Int
        package var dayNumber: Int64

        /// 0 = Sunday … 6 = Saturday.
        package var weekday: Int { Int(StoreDate.floorMod(dayNumber + 4, 7)) }
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
    package static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day number (civil_from_days).
    static func civil(day: Int64) -> (Int, Int, Int) {
        let z = day + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        return (Int(yoe + era * 400) + (m <= 2 ? 1 : 0), m, d)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }
    static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
}

/// Zero-padded decimal.
package func pad(_ n: Int, _ width: Int = 2) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// UTC offsets of a time zone, remembered per UTC day: Foundation's lookup is too slow to
/// make for every line of a long listing. A day whose offset is the same at its first and
/// last second had it all day (zones change at most once a day); other days look up each
/// moment.
package final class LocalOffsets {
    let timeZone: TimeZone
    private var day = Int64.min
    private var dayOffset: Int?

    package init(_ timeZone: TimeZone) { self.timeZone = timeZone }

    func offset(at seconds: Int64) -> Int {
        let d = StoreDate.floorDiv(seconds, 86_400)
        if d != day {
            day = d
            let first = lookup(d * 86_400), last = lookup(d * 86_400 + 86_399)
            dayOffset = first == last ? first : nil
        }
        return dayOffset ?? lookup(seconds)
    }

    private func lookup(_ seconds: Int64) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The calendar fields of `date` in this time zone.
    package func civil(_ date: StoreDate) -> StoreDate.Civil { date.civil(offset: offset(at: date.seconds)) }
}
