import Foundation
import VshCore
import VshStore
import VshVoice
import VshCommands

/// A fresh directory under the system temporary directory, removed by `remove()`.
public struct TempDirectory {
    public let path: String

    public init(_ label: String = "vsh-test") {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/\(label)-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func write(_ text: String, to name: String) {
        let full = file(name)
        try! FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    public func read(_ name: String) -> String? {
        try? String(contentsOfFile: file(name), encoding: .utf8)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
