import Testing
import VshCore
import VshTestSupport
@testable import VshCommands

/// The commands' own state in a session: the last listing's numbers, and how the person
/// stops a long command.
@Suite struct SessionPartsTests {
    @Test func theListingIsKeptFromOneCommandToTheNext() {
        let harness = ShellHarness()
        #expect(harness.session.listing == nil)
        #expect(harness.script(["show 1"]) == 1)
        #expect(harness.error.text.contains("there is none yet"), "\(harness.error.text)")
        #expect(harness.script(["list"]) == 0)
        #expect(harness.session.listing == [])
        harness.error.clear()
        #expect(harness.script(["show 1"]) == 1)
        #expect(harness.error.text.contains("there is no number 1 in the last listing (it was empty)"), "\(harness.error.text)")
    }

    @Test func nothingAsksToStopUntilTheAppSaysHow() {
        let harness = ShellHarness()
        #expect(harness.session.stopRequest() == nil)
        harness.session.stopRequest = { "Enter" }
        #expect(harness.session.stopRequest() == "Enter")
    }
}
