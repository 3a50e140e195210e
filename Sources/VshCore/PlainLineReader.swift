// `stdin` is C's global; @preconcurrency (imported before Foundation, which re-exports
// it) lets the one reader of it here name it.
@preconcurrency import Glibc
import Foundation

/// Reads lines from standard input without editing: for scripts (`vsh < file`), pipes,
/// and terminals that cannot edit (TERM=dumb), where it shows the prompt itself.
package final class PlainLineReader: LineReader {
    private let promptSink: TextSink?

    /// `promptSink` receives the prompt before each read; nil shows none (scripts).
    package init(promptSink: TextSink?) {
        self.promptSink = promptSink
    }

    package func readLine(prompt: String) -> LineInput {
        promptSink?.write(prompt)
        // The standard library's readLine retries getline while errno is EINTR, and at the
        // end of input getline leaves errno as it was: an EINTR left by a Ctrl-C that
        // interrupted an earlier call (a program's wait) would make it retry for ever.
        errno = 0
        guard let line = Swift.readLine(strippingNewline: true) else {
            // The end of input is sticky in C's stdio: at a terminal, a Ctrl-D that the
            // shell takes (leaving a keyword command) must not end the reads after it.
            clearerr(stdin)
            return .endOfInput
        }
        return .line(line)
    }

    package func addToRecall(_ line: String) {}
}
