import Foundation

/// Where vsh keeps things, following the XDG base directory spec.
package struct Paths: Sendable, Equatable {
    /// The transcript store (`--store`, `VSH_STORE`, else `$XDG_DATA_HOME/vsh`).
    package var store: String
    /// The user's configuration directory (`--config`, `VSH_CONFIG`, else `$XDG_CONFIG_HOME/vsh`).
    package var config: String
    /// The configuration shipped with vsh (`config/` and `commands/`), read under the user's.
    package var shipped: String?
    /// State that is not worth backing up: history, logs (`$XDG_STATE_HOME/vsh`).
    package var state: String

    package var historyFile: String { state + "/history" }
    package var userConfigFile: String { config + "/vsh.toml" }
    /// The key that encrypts audio at rest (`encrypt on`); back it up.
    package var keyFile: String { config + "/key" }
    /// The audio of spoken commands, kept beside the history (`ClipStore`).
    package var clipsDirectory: String { state + "/clips" }
    /// Where PocketSphinx logs (never the terminal).
    package var recognizerLog: String { state + "/pocketsphinx.log" }
    package var shippedConfigFile: String? { shipped.map { $0 + "/config/vsh.toml" } }

    package init(store: String, config: String, shipped: String?, state: String) {
        self.store = store
        self.config = config
        self.shipped = shipped
        self.state = state
    }

    /// Resolves the paths from options, then the environment, then XDG defaults.
    package static func resolve(
        store: String?, config: String?, environment: [String: String], executable: String
    ) -> Paths {
        let home = environment["HOME"] ?? NSHomeDirectory()
        func xdg(_ name: String, _ fallback: String) -> String {
            if let v = environment[name], v.hasPrefix("/") { return v }
            return home + "/" + fallback
        }
        let storeDir = store ?? environment["VSH_STORE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? xdg("XDG_DATA_HOME", ".local/share") + "/vsh"
        let configDir = config ?? environment["VSH_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? xdg("XDG_CONFIG_HOME", ".config") + "/vsh"
        let state = xdg("XDG_STATE_HOME", ".local/state") + "/vsh"
        let shipped = environment["VSH_SHARE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? findShipped(executable: executable)
        return Paths(store: absolute(storeDir), config: absolute(configDir), shipped: shipped, state: state)
    }

    /// The running vsh as the system knows it (`/proc/self/exe`): a full path with its
    /// symbolic links resolved, whatever directory it was started from and whatever name
    /// it was started by (`vsh` found on PATH, a link to it). Nil without /proc.
    package static var runningExecutable: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// The shipped files sit in `<prefix>/share/vsh` when installed, or at the top of the
    /// source tree when run from `.build/<config>/vsh`. `executable` is a path to the
    /// binary (`runningExecutable`); a relative one is taken from the current directory.
    static func findShipped(executable: String) -> String? {
        let exe = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        let fm = FileManager.default
        let installed = dir.deletingLastPathComponent().appendingPathComponent("share/vsh")
        if fm.fileExists(atPath: installed.path + "/config/vsh.toml") { return installed.path }
        for _ in 0..<4 {
            dir = dir.deletingLastPathComponent()
            if fm.fileExists(atPath: dir.path + "/config/vsh.toml"),
               fm.fileExists(atPath: dir.path + "/Package.swift") {
                return dir.path
            }
        }
        return nil
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
