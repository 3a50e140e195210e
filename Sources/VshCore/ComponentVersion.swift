/// One line of `vsh --version --verbose`: a library vsh linked and what it says of itself.
public struct ComponentVersion: Equatable, Sendable {
    public var library: String
    public var detail: String

    public init(library: String, detail: String) {
        self.library = library
        self.detail = detail
    }

    /// The version in a shared object's file name: /usr/lib/libspeexdsp.so.1.5.2 → 1.5.2.
    public static func versionInFileName(_ path: String) -> String {
        guard let range = path.range(of: ".so.") else { return "?" }
        return String(path[range.upperBound...])
    }
}
