import Testing
@testable import VshCommands

/// What `train` says of the confidence threshold when it could not raise it enough
/// (issue 36, item 6): why not, and what the person can do.
@Suite struct TrainCommandTests {
    @Test func aThresholdThatCannotBeRaisedSaysWhyAndWhatToDo() throws {
        // 13% of 30 takes that are no command would run one, and no threshold up to the
        // ceiling keeps them out.
        let ceiling = try #require(TrainCommand.thresholdNotRaised(
            nonCommandsAccepted: 0.13, nonCommands: 30, calibrated: true, raised: false, configured: 0.5))
        #expect(ceiling.hasPrefix("The confidence threshold stays 0.50 (voice.threshold): vsh hears those takes as surely as your commands"), "\(ceiling)")
        #expect(ceiling.contains("no threshold up to 0.95 (the highest train sets"), "\(ceiling)")
        #expect(ceiling.contains("keeps them under 5%."), "\(ceiling)")
        #expect(ceiling.hasSuffix("'listen wake' or 'listen key' for this session, voice.attention in vsh.toml for good."), "\(ceiling)")

        // Too few takes that are no command to set it on.
        let few = try #require(TrainCommand.thresholdNotRaised(
            nonCommandsAccepted: 0.5, nonCommands: 6, calibrated: false, raised: false, configured: 0.55))
        #expect(few.hasPrefix("The confidence threshold stays 0.55 (voice.threshold): only 6 of your takes are no command, too few to set it on (it takes 10); 'train' asks for the phrases not yet recorded."), "\(few)")
        #expect(few.contains("'listen wake' or 'listen key'"), "\(few)")

        // Raised, or no need to: nothing more to say.
        #expect(TrainCommand.thresholdNotRaised(nonCommandsAccepted: 0.13, nonCommands: 30, calibrated: true, raised: true, configured: 0.5) == nil)
        #expect(TrainCommand.thresholdNotRaised(nonCommandsAccepted: 0.05, nonCommands: 40, calibrated: true, raised: false, configured: 0.5) == nil)
        #expect(TrainCommand.thresholdNotRaised(nonCommandsAccepted: nil, nonCommands: 0, calibrated: false, raised: false, configured: 0.5) == nil)
    }
}
