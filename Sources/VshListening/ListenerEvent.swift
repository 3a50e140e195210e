import Foundation
import VshVoice

/// What the prompt's listener reports, from its own thread.
package enum ListenerEvent: Sendable {
    /// Audio flows; the text names the input (`microphone default`, `file s2.wav`), and
    /// `wakePhrase` is the phrase the grammar has for turning listening back on.
    case ready(String, wakePhrase: String)
    case speechStarted
    /// An utterance, the grammar it was heard against (the commands may have changed
    /// since) and the gate of the model that heard it (`VoiceFactory.gate`): the prompt reads
    /// and decides it in one step (`VoicePrompt.decide`).
    case heard(Utterance, PromptGrammar, Gate)
    /// The input ended (a file played to its end); the text says so.
    case ended(String)
    /// Something the person should know that does not stop listening.
    case note(String)
    /// The input could not be opened or failed. `quiet`: do not show it unasked (the
    /// default device is missing, which only matters once someone asks to listen).
    case failed(String, quiet: Bool)
}
