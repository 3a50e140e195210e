/// The built-in commands, registered in this order. A command joins this list only
/// once it works.
public enum Builtins {
    public static var all: [CommandEntry] { [
        CommandEntry(HelpCommand.self),
        CommandEntry(HistoryCommand.self),
        CommandEntry(QualityCommand.self),
        CommandEntry(ExitCommand.self),
    ] }

    /// A registry holding every built-in.
    public static func registry() -> CommandRegistry {
        var registry = CommandRegistry()
        for entry in all {
            // Built-in names are fixed at compile time; a clash is a programming error.
            try! registry.register(entry)
        }
        return registry
    }
}
