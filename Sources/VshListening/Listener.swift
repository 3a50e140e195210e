/// The listener thread, as the prompt drives it: `PromptListener`, or a fake in tests.
package protocol Listener: AnyObject {
    /// Stops taking audio until `resume`: while a command runs, no speech is taken as a command.
    func pause()
    func resume()
    /// Starts again after the input failed; the outcome arrives as an event.
    func restart()
    /// Listens for the registry's commands as they are now (after command files changed).
    func refreshGrammar()
}
