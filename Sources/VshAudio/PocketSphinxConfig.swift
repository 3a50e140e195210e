import Foundation
import CPocketSphinx
import CVshShims

/// A PocketSphinx decoder configuration (`cmd_ln_t`). Owns the handle; freed in deinit.
/// `cmd_ln_init` is variadic, so arguments go through `cmd_ln_parse_r` as an argv array.
final class PocketSphinxConfig {
    /// Owned: released with cmd_ln_free_r.
    let handle: OpaquePointer

    private init(handle: OpaquePointer) { self.handle = handle }

    deinit { cmd_ln_free_r(handle) }

    /// Parses `-name value` pairs against the decoder's argument definitions.
    /// Returns nil when an argument is unknown or malformed (the reason goes to the log).
    static func parse(_ arguments: [String]) -> PocketSphinxConfig? {
        PocketSphinxLog.ensureConfigured()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let handle = argv.withUnsafeMutableBufferPointer { buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(arguments.count), buffer.baseAddress, 1)
        }
        return handle.map(PocketSphinxConfig.init(handle:))
    }
}

/// PocketSphinx logs a lot to stderr. vsh sends it to a log file instead (or nowhere),
/// never to the terminal.
package enum PocketSphinxLog {
    nonisolated(unsafe) private static var configured = false
    /// Where the log goes, for messages that send the person to it.
    nonisolated(unsafe) package private(set) static var path: String?

    /// Sends PocketSphinx's log to `path`, or discards it when `path` is nil.
    /// Returns false when the file cannot be opened (then the log is discarded).
    @discardableResult
    package static func send(to path: String?) -> Bool {
        configured = true
        if let path {
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            rotate(path)
            if vsh_ps_log_to_file(path) == 0 {
                Self.path = path
                return true
            }
        }
        Self.path = nil
        vsh_ps_log_to_file(nil)
        return path == nil
    }

    /// The log's size past which it is moved to `NAME.1` (the one before that is
    /// dropped), so that it never grows without end: two files of at most about this.
    package static let limit = 1 << 20

    /// Moves the log aside when it has grown past `limit`.
    static func rotate(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0, Int(info.st_size) > limit else { return }
        rename(path, path + ".1")
    }

    static func ensureConfigured() {
        if !configured { send(to: nil) }
    }
}
