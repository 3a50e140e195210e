import VshCore
import VshSpoken

/// The prompt while vsh listens: reads lines through `inner` (which also waits on the
/// voice side, see `PromptSideInput`), lets the listener take audio only while the
/// prompt waits, so that no speech is taken as a command while one runs, and takes typed
/// answers to the questions vsh asks ("did you mean", "are you sure").
package final class ListeningLineReader: LineReader {
    package let inner: LineReader
    package let voice: VoicePrompt
    /// Where answers' notes and `--verbose` timings go (the terminal).
    let output: TextSink

    package init(inner: LineReader, voice: VoicePrompt, output: TextSink) {
        self.inner = inner
        self.voice = voice
        self.output = output
    }

    package func readLine(prompt: String) -> LineInput {
        while true {
            let input = inner.readLine(prompt: voice.promptWaits(prompt: prompt))
            voice.promptIsBusy()
            switch input {
            case .line(let text):
                switch voice.answer(typed: text) {
                case .notAnAnswer:
                    return input
                case .run(let spoken):
                    output.line(voice.dim("→ \(spoken.line)"))
                    return started(spoken)
                case .handled(let notes):
                    for note in notes { output.line(note) }
                    continue
                }
            case .spoken(let spoken):
                return started(spoken)
            case .interrupted:
                if voice.dropQuestion() { output.line(voice.dim("(question dropped)")) }
                return input
            case .endOfInput:
                return input
            }
        }
    }

    private func started(_ spoken: SpokenLine) -> LineInput {
        if let timing = voice.timing(of: spoken) { output.line(timing) }
        return .spoken(spoken)
    }

    package func addToRecall(_ line: String) { inner.addToRecall(line) }
}
