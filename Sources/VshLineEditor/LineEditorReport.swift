import CLibEdit
import CVshShims
import VshCore
import VshVoice

/// The libedit line for `vsh --version --verbose`.
public enum LineEditorReport {
    public static func line() -> ComponentVersion {
        var buffer = [CChar](repeating: 0, count: 4096)
        let path = vsh_library_file("el_init", &buffer, buffer.count) == 0 ? String(cString: buffer) : "unknown file"
        return ComponentVersion(
            library: "libedit",
            detail: "\(ComponentVersion.versionInFileName(path)), API \(LIBEDIT_MAJOR).\(LIBEDIT_MINOR) (\(path))")
    }
}
