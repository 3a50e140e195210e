/// Something wrong in a command file, written for the person who edits it:
/// `FILE:LINE: what is wrong; what to do`. Errors drop what they name (a file, a command
/// or a spoken pattern) and the rest still loads; warnings drop nothing.
package struct CommandFileProblem: Sendable, Equatable, CustomStringConvertible {
    package enum Severity: String, Sendable { case error, warning }

    package var severity: Severity
    package var file: String
    /// The line the problem is on; nil when it concerns the whole file.
    package var line: Int?
    package var message: String

    package init(_ severity: Severity, file: String, line: Int?, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message`.
    package var description: String {
        file + (line.map { ":\($0)" } ?? "") + ": " + message
    }

    /// The line as vsh prints it: `error: FILE:LINE: message`.
    package var report: String { "\(severity.rawValue): \(description)" }
}
