import Testing
import VshCore
import VshTestSupport
@testable import VshAudio

@Suite struct SpeechModelTests {
    /// The session's model is the directory `voice.model` names, with the store's adaptation,
    /// read afresh: a changed setting is seen at once.
    @Test func theSessionsModelFollowsItsSettingsAndStore() {
        let harness = ShellHarness()
        let session = harness.session
        session.settings.modelDirectory = "/models/one"
        #expect(session.speechModel == SpeechModel(directory: "/models/one", store: session.paths.store))
        #expect(session.speechModel.adaptation == .stock)
        session.settings.modelDirectory = "/models/two"
        #expect(session.speechModel.directory == "/models/two")
        #expect(SpeechModel(settings: session.settings, paths: session.paths) == session.speechModel)
    }
}
