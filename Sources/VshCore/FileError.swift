import Foundation

/// A file operation that the system refused (the store's, the key file's, an atomic
/// write's): what was being done, to which file, and the `errno`. Code that needs to know
/// why a write failed (a full disk) asks `code`, never the sentence.
package struct FileError: Error, Equatable, CustomStringConvertible {
    /// What failed, naming the file: "cannot create the directory /x/store".
    package var message: String
    /// The file or directory the operation was on.
    package var path: String
    /// The `errno` the system gave.
    package var code: Int32
    /// Set once a change of the store that failed has been rolled back, so the person can
    /// be told the store is as it was.
    package var storeUnchanged = false

    /// The message says the reason itself (no `strerror` appended).
    package var explained = false

    package init(_ message: String, path: String, code: Int32, explained: Bool = false) {
        self.message = message
        self.path = path
        self.code = code
        self.explained = explained
    }

    /// The error for the current `errno`.
    package static func current(_ message: String, path: String) -> FileError {
        FileError(message, path: path, code: errno)
    }

    /// The disk is full, or a quota or file-size limit was reached: the person's to fix.
    package var isDiskFull: Bool { [ENOSPC, EDQUOT, EFBIG].contains(code) }

    package var description: String {
        var text = explained ? message : "\(message): \(String(cString: strerror(code)))"
        if storeUnchanged && isDiskFull {
            text += " (the disk is full or a file-size limit was reached); "
                + "the store is as it was before: free some space and try again"
        }
        return text
    }
}
