import Foundation

/// Terminal styling. Off when output is not a terminal, when NO_COLOR is set, or TERM=dumb,
/// so piped output never carries escape codes.
package struct Style: Sendable {
    package var colors: Bool

    package init(colors: Bool) { self.colors = colors }

    /// Decides from the environment and whether the sink is a terminal.
    package static func detect(isTerminal: Bool, environment: [String: String]) -> Style {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb" || environment["TERM"] == nil
        return Style(colors: isTerminal && !noColor && !dumb)
    }

    package static let plain = Style(colors: false)

    package func bold(_ s: String) -> String { wrap(s, "1") }
    package func dim(_ s: String) -> String { wrap(s, "2") }
    package func red(_ s: String) -> String { wrap(s, "31") }
    package func yellow(_ s: String) -> String { wrap(s, "33") }
    package func green(_ s: String) -> String { wrap(s, "32") }

    private func wrap(_ s: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}

extension String {
    /// The text with control characters shown, not obeyed: a title holding an escape
    /// sequence prints as `\x1b[2J` instead of clearing the screen (terminal injection).
    /// Tabs become spaces; newlines, C0, DEL and C1 controls become `\xNN`.
    package var visible: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if scalar == "\t" {
                out += " "
            } else if Self.isControl(scalar) {
                out += String(format: "\\x%02x", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
    }
}

extension Array where Element == String {
    /// The items as a sentence lists them: `a`, `a or b`, `a, b or c` (`conjunction` "or"
    /// or "and").
    package func listed(_ conjunction: String) -> String {
        guard count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " \(conjunction) " + last!
    }
}
