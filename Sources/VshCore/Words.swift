import Foundation

/// Splits a command line into words, the way a person expects from a POSIX shell: spaces
/// separate words, '…' and "…" group them. Outside quotes a backslash escapes the next
/// character; inside "…" it escapes only `"` and `\` and is otherwise kept, so
/// `printf "a=%s\n"` passes `\n` on to printf; inside '…' nothing is special.
/// `;` separates commands (for `vsh -c`) when not quoted.
package enum Words {
    package struct SplitError: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The commands in `line`, each as its words. Empty commands are dropped.
    package static func splitCommands(_ line: String) throws -> [[String]] {
        var commands: [[String]] = []
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false

        func endWord() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        for ch in line {
            if escaped {
                // In "…" only `"` and `\` are escaped; any other backslash stays.
                if quote == "\"" && ch != "\"" && ch != "\\" { word.append("\\") }
                word.append(ch)
                escaped = false
                continue
            }
            if let q = quote {
                if ch == q {
                    quote = nil
                } else if ch == "\\" && q == "\"" {
                    escaped = true
                } else {
                    word.append(ch)
                }
                continue
            }
            switch ch {
            case "\\":
                escaped = true
                inWord = true
            case "'", "\"":
                quote = ch
                inWord = true
            case ";":
                endWord()
                if !words.isEmpty { commands.append(words) }
                words = []
            case " ", "\t", "\r", "\n":
                endWord()
            default:
                word.append(ch)
                inWord = true
            }
        }
        if let q = quote {
            throw SplitError(description: "unterminated \(q) quote in: \(line)")
        }
        if escaped { throw SplitError(description: "line ends with a lone backslash: \(line)") }
        endWord()
        if !words.isEmpty { commands.append(words) }
        return commands
    }

    /// All the words of `line`, with `;` treated as a word separator.
    package static func split(_ line: String) throws -> [String] {
        try splitCommands(line).flatMap { $0 }
    }

    /// Quotes a word so that `split` gives it back unchanged.
    package static func quote(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { ch in
            ch.isLetter || ch.isNumber || "-_./:,+=@%".contains(ch)
        }
        if plain { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
