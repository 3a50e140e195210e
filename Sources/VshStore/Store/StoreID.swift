import Foundation

/// Transcript ids: the local date, a dash, and four base-32 characters holding the second
/// of the day and a slot (`20261121-k3f9`). They sort by creation, are short enough to
/// type, and are never reused: the clock moves on, and an id still present anywhere in
/// the store (saved, draft or trash) is skipped for the next slot of that second.
enum StoreID {
    /// Crockford's base-32 alphabet in lower case: no i, l, o, u; ASCII order is value order.
    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    static let slotsPerSecond = 12

    /// The candidates for a recording started at `date`, in the order to try them.
    static func candidates(_ date: StoreDate) -> [String] {
        let c = date.civil(offset: date.offset)
        let prefix = "\(pad(c.year, 4))\(pad(c.month))\(pad(c.day))-"
        let second = c.hour * 3600 + c.minute * 60 + c.second
        return (0..<slotsPerSecond).map { slot in
            var value = second * slotsPerSecond + slot
            var chars = [UInt8](repeating: 0, count: 4)
            for i in (0..<4).reversed() {
                chars[i] = alphabet[value % 32]
                value /= 32
            }
            return prefix + String(decoding: chars, as: UTF8.self)
        }
    }

    /// The local date and time an id was made at, as seconds since 1970 in local time;
    /// nil for ids vsh did not make.
    static func localSeconds(of id: String) -> Int64? {
        let b = Array(id.utf8)
        guard b.count == 13, b[8] == UInt8(ascii: "-"),
              let day = Int(String(decoding: b[0..<8], as: UTF8.self)) else { return nil }
        var value = 0
        for c in b[9...] {
            guard let digit = alphabet.firstIndex(of: c) else { return nil }
            value = value * 32 + digit
        }
        let (year, month, date) = (day / 10_000, day / 100 % 100, day % 100)
        guard (1...12).contains(month), (1...31).contains(date), value / slotsPerSecond < 86_400 else { return nil }
        return StoreDate.days(year: year, month: month, day: date) * 86_400 + Int64(value / slotsPerSecond)
    }
}
