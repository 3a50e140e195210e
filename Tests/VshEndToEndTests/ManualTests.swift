import Foundation
import Testing
import VshCore
import VshTestSupport

/// The manual page `make man` installs (`vsh --generate-manual`), read as `man` reads it:
/// no mdoc warning, characters beyond ASCII as written, a SYNOPSIS in which the command
/// is optional, and the sections only a manual has (issue 28, item 14).
@Suite(.tags(.slow)) struct ManualTests {
    /// groff's mdoc rendering of `page` (as `man` runs it) and what it warned.
    static func render(_ page: String) throws -> (text: String, warnings: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["groff", "-mandoc", "-Tutf8", "-ww", "-rLL=100n"]
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let input = Pipe(), output = Pipe(), error = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, error)
        try process.run()
        nonisolated(unsafe) var out = Data(), err = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { out = output.fileHandleForReading.readToEndRetrying() }
        DispatchQueue.global().async(group: group) { err = error.fileHandleForReading.readToEndRetrying() }
        input.fileHandleForWriting.write(Data(page.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        // Bold and underline as the terminal gets them (overstrikes) read as plain text here.
        let text = String(decoding: out, as: UTF8.self)
            .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            .replacingOccurrences(of: ".\u{08}", with: "", options: .regularExpression)
        return (text, String(decoding: err, as: UTF8.self))
    }

    @Test func theManualPageRendersWithoutWarningsAndSaysWhatAManualShould() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let result = try vsh.run(["--generate-manual"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(".\\\""))
        #expect(result.stdout.allSatisfy { $0.isASCII }, "characters beyond ASCII are escaped for groff")
        let (text, warnings) = try Self.render(result.stdout)
        #expect(warnings == "", "\(warnings)")
        #expect(text.contains("(0…1; default from voice.threshold)"), "\(text)")
        let synopsis = try #require(text.components(separatedBy: "SYNOPSIS").dropFirst().first?.components(separatedBy: "DESCRIPTION").first)
        #expect(synopsis.contains("[command [argument ...]]"), "\(synopsis)")
        #expect(!synopsis.contains("vsh subcommand"), "\(synopsis)")
        #expect(synopsis.contains("vsh listen") && synopsis.contains("vsh transcribe"))
        for section in ["PROMPT COMMANDS", "COMMAND FILES", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(text.contains("\n\(section)\n"), "no \(section) section")
        }
        // The prompt's commands with what to say for them, from their own declarations.
        #expect(text.contains("quality [<low|medium|high>]"))
        #expect(text.contains("Say: \"quality (low | medium | high)\""))
        #expect(text.contains("VSH_STORE") && text.contains("~/.config/vsh/vsh.toml"))
        #expect(text.contains("$ printf 'quality high\\nlist --json\\n' | vsh --strict"), "a backslash prints as one")
    }
}
