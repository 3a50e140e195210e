import VshCore
import VshVoice

/// Something wrong in a command file, written for the person who edits it:
/// `FILE:LINE: what is wrong; what to do`. Errors drop what they name (a file, a command
/// or a spoken pattern) and the rest still loads; warnings drop nothing.
public struct CommandFileProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    public var file: String
    /// The line the problem is on; nil when it concerns the whole file.
    public var line: Int?
    public var message: String

    public init(_ severity: Severity, file: String, line: Int?, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message`.
    public var description: String {
        file + (line.map { ":\($0)" } ?? "") + ": " + message
    }

    /// The line as vsh prints it: `error: FILE:LINE: message`.
    public var report: String { "\(severity.rawValue): \(description)" }
}
