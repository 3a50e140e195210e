import Testing
import VshTraining
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

    /// The held-out figures say what the prompt would do with the takes that say a
    /// command, and which check stopped the rest, most first (issue 34).
    @Test func theFiguresSayWhatThePromptWouldDo() {
        var figures = HeldOutFigures(takes: 50, right: 0.92, wrong: 0.02, nonCommandsAccepted: 0.1, nonCommands: 30)
        #expect(TrainCommand.describe(figures) == "Heard by models not adapted on them, 92% of your 50 takes came out right and 2% wrong; 10% of the 30 that are no command would have run one.")
        figures.commands = 20
        figures.commandsRun = 16
        figures.stoppedBy = ["confidence": 1, "other-speaker": 2, HeldOutFigures.anotherCommand: 1]
        #expect(TrainCommand.describe(figures).hasSuffix(
            "\nAt the prompt, 16 of the 20 takes that say a command would run it; 2 stopped by other-speaker, 1 ran another command, 1 stopped by confidence."))
        figures.commands = 1
        figures.commandsRun = 1
        figures.stoppedBy = [:]
        #expect(TrainCommand.describe(figures).hasSuffix("\nAt the prompt, 1 of the 1 take that says a command would run it."))
    }
}
