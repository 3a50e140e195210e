import Foundation
import Testing
import VshTestSupport

/// vsh installed as `make install` lays it out (`PREFIX/bin/vsh`, `PREFIX/share/vsh/config`
/// and `PREFIX/share/vsh/commands`), run as a person runs it: by name from PATH, and
/// through a symbolic link on PATH, from a directory that holds nothing of vsh. It finds
/// the config and the command files installed beside it (issue 36, item 1).
@Suite struct InstallTests {
    @Test func anInstalledVshRunByNameFromPathFindsItsShippedFiles() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let fm = FileManager.default
        let prefix = vsh.home.file("prefix")
        for directory in ["bin", "share/vsh/config", "share/vsh/commands"] {
            try fm.createDirectory(atPath: prefix + "/" + directory, withIntermediateDirectories: true)
        }
        // Copied by `install`, as `make install` does, in a process of its own: a copy
        // written from this process, while other tests fork, could still be open for
        // writing in one of their children when vsh is run ("Text file busy").
        try VshBinary.shell("install -m 755 '\(VshBinary.path)' '\(prefix)/bin/vsh'")
        try fm.copyItem(atPath: VshBinary.sourceRoot + "/config/vsh.toml", toPath: prefix + "/share/vsh/config/vsh.toml")
        for name in try fm.contentsOfDirectory(atPath: VshBinary.sourceRoot + "/commands") {
            try fm.copyItem(atPath: VshBinary.sourceRoot + "/commands/" + name, toPath: prefix + "/share/vsh/commands/" + name)
        }
        // A link on PATH to the installed binary, as ~/bin/vsh → /opt/vsh/bin/vsh.
        let links = vsh.home.file("links")
        try fm.createDirectory(atPath: links, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: links + "/vsh", withDestinationPath: prefix + "/bin/vsh")
        let elsewhere = vsh.home.file("elsewhere")
        try fm.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)

        for onPath in [prefix + "/bin", links] {
            let result = try vsh.run(byNameOnPath: onPath, from: elsewhere, ["--verbose", "-c", "help code"])
            #expect(result.status == 0, "\(onPath): \(result.stderr)")
            #expect(result.stderr.contains("config: \(prefix)/share/vsh/config/vsh.toml, then "), "\(onPath): \(result.stderr)")
            // The shipped keyword command, from share/vsh/commands.
            #expect(result.stdout.contains("Start a code, or add one digit to the current one"), "\(onPath): \(result.stdout)")
        }
    }
}
