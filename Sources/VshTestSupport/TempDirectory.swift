import Foundation

/// A fresh directory under the system temporary directory, removed by `remove()`.
package struct TempDirectory {
    package let path: String

    package init(_ label: String = "vsh-test") {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/\(label)-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    package func file(_ name: String) -> String { path + "/" + name }

    package func write(_ text: String, to name: String) {
        let full = file(name)
        try! FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    package func read(_ name: String) -> String? {
        try? String(contentsOfFile: file(name), encoding: .utf8)
    }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}
