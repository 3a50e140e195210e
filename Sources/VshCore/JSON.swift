import Foundation

/// Small JSON writing helpers for line-per-object output (keys stay in a stable order,
/// which JSONEncoder does not promise).
package enum JSON {
    package static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A number with at most three decimals.
    package static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        var s = String(format: "%.3f", x)
        while s.contains("."), s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
}
