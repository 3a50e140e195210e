import CLibEdit
import CVshShims
import VshCore

/// The libedit line for `vsh --version --verbose`.
package enum LineEditorReport {
    package static func line() -> ComponentVersion {
        var buffer = [CChar](repeating: 0, count: 4096)
        let path = vsh_library_file("el_init", &buffer, buffer.count) == 0 ? String(cString: buffer) : "unknown file"
        return ComponentVersion(
            library: "libedit",
            detail: "\(ComponentVersion.versionInFileName(path)), API \(LIBEDIT_MAJOR).\(LIBEDIT_MINOR) (\(path))")
    }
}
