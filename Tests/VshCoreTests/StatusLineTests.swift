import Foundation
import Testing
import VshCore
import VshTestSupport

/// The status line of long commands (record, play, train): rewritten in place on a
/// terminal, left out anywhere else.
@Suite struct StatusLineTests {
    @Test func aTerminalHasItsStatusLineRewrittenAndCleared() {
        let harness = ShellHarness()
        let terminal = BufferSink(isTerminal: true)
        let context = CommandContext(
            output: terminal, error: harness.error, style: .plain, session: harness.session, interactive: true)
        #expect(context.hasStatusLine)
        context.status("[1/3] say: \"go\"")
        context.status("[2/3] say: \"stop\"")
        context.clearStatus()
        #expect(terminal.text == "\r\u{1B}[2K[1/3] say: \"go\"\r\u{1B}[2K[2/3] say: \"stop\"\r\u{1B}[2K")
    }

    @Test func elsewhereNothingIsWritten() {
        let harness = ShellHarness()
        let context = CommandContext(
            output: harness.output, error: harness.error, style: .plain, session: harness.session, interactive: false)
        #expect(!context.hasStatusLine)
        context.status("50%")
        context.clearStatus()
        #expect(harness.output.text == "")
    }

    /// Standard output redirected to a file is no terminal.
    @Test func aFileIsNoTerminal() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let fd = open(dir.file("out"), O_WRONLY | O_CREAT, 0o600)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(!FileDescriptorSink(fileDescriptor: fd).isTerminal)
    }
}
