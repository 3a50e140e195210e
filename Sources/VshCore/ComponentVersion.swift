import Foundation

/// One line of `vsh --version --verbose`: a library vsh linked and what it says of itself.
package struct ComponentVersion: Equatable, Sendable {
    package var library: String
    package var detail: String

    package init(library: String, detail: String) {
        self.library = library
        self.detail = detail
    }

    /// The version in a shared object's file name: /usr/lib/libspeexdsp.so.1.5.2 → 1.5.2.
    package static func versionInFileName(_ path: String) -> String {
        guard let range = path.range(of: ".so.") else { return "?" }
        return String(path[range.upperBound...])
    }
}
