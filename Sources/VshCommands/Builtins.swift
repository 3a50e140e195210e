import VshCore

/// The built-in commands, registered in this order. A command joins this list only
/// once it works.
package enum Builtins {
    package static var all: [CommandEntry] { [
        CommandEntry(HelpCommand.self),
        CommandEntry(HistoryCommand.self),
        CommandEntry(QualityCommand.self),
        CommandEntry(RecordCommand.self),
        CommandEntry(StopCommand.self),
        CommandEntry(PlayCommand.self),
        CommandEntry(ListCommand.self),
        CommandEntry(ShowCommand.self),
        CommandEntry(SearchCommand.self),
        CommandEntry(DeleteCommand.self),
        CommandEntry(UndoCommand.self),
        CommandEntry(TrashCommand.self),
        CommandEntry(TrainCommand.self),
        CommandEntry(DraftsCommand.self),
        CommandEntry(SaveCommand.self),
        CommandEntry(DiscardCommand.self),
        CommandEntry(EncryptCommand.self),
        CommandEntry(OutputsCommand.self),
        CommandEntry(ReloadCommand.self),
        CommandEntry(ListenCommand.self),
        CommandEntry(ExitCommand.self),
    ] }

    /// A registry holding every built-in.
    package static func registry() -> CommandRegistry {
        var registry = CommandRegistry()
        for entry in all {
            // Built-in names are fixed at compile time; a clash is a programming error.
            try! registry.register(entry)
        }
        return registry
    }
}
