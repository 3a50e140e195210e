import Foundation

/// A file operation that the system refused (the store's, the key file's, an atomic
/// write's): what was being done, to which file, and the `errno`. Code that needs to know
/// why a write failed (a full disk) asks `code`, never the sentence.
public struct FileError: Error, Equatable, CustomStringConvertible {
    /// What failed, naming the file: "cannot create the directory /x/store".
    public var message: String
    /// The file or directory the operation was on.
    public var path: String
    /// The `errno` the system gave.
    public var code: Int32
    /// Set once a change of the store that failed has been rolled back, so the person can
    /// be told the store is as it was.
    public var storeUnchanged = false

    /// The message says the reason itself (no `strerror` appended).
    public var explained = false

    public init(_ message: String, path: String, code: Int32, explained: Bool = false) {
        self.message = message
        self.path = path
        self.code = code
        self.explained = explained
    }

    /// The error for the current `errno`.
    public static func current(_ message: String, path: String) -> FileError {
        FileError(message, path: path, code: errno)
    }

    /// The disk is full, or a quota or file-size limit was reached: the person's to fix.
    public var isDiskFull: Bool { [ENOSPC, EDQUOT, EFBIG].contains(code) }

    public var description: String {
        var text = explained ? message : "\(message): \(String(cString: strerror(code)))"
        if storeUnchanged && isDiskFull {
            text += " (the disk is full or a file-size limit was reached); "
                + "the store is as it was before: free some space and try again"
        }
        return text
    }
}
