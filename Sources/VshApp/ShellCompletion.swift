import ArgumentParser
import Foundation
import VshCore
import VshCommands

/// What the shell's completion (bash, zsh, fish: `vsh --generate-completion-script`) offers
/// for the words after `vsh` and its options. swift-argument-parser's scripts ask `vsh`
/// itself (`---completion`) for them, since the root takes a command (`VshMain.line`), the
/// command line's own `listen` and `transcribe` included. A command of the prompt is
/// completed as `Tab` completes it at the prompt (`Completion.candidates`, from each
/// command's `CommandInfo`): `vsh <Tab>` lists the prompt's commands, the command files'
/// included, `vsh quality <Tab>` its values, `vsh record --from <Tab>` files; `listen`
/// and `transcribe` by what their options declare (`CommandLineInfo`).
enum ShellCompletion {
    /// `words`: the command line as the shell split it (`vsh` first); `index`: the word
    /// being completed; `prefix`: what of it is typed.
    @Sendable static func promptLine(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        candidates(after: Array(words.prefix(index).dropFirst()), prefix: prefix)
    }

    /// What to offer for the word `prefix` after the words `before` (those after `vsh`).
    static func candidates(after before: [String], prefix: String) -> [String] {
        let registry = registry(before)
        if let start = VshMain.promptCommandStart(before) {
            let text = (before[start...] + [prefix]).joined(separator: " ")
            return Completion.candidates(for: text, registry: registry).matches
        }
        let subcommands = (try? CommandLineInfo.of(VshMain.self).shownSubcommands) ?? []
        let words = before.filter { !$0.hasPrefix("-") }
        guard let tool = subcommands.first(where: { words.contains($0.commandName) }) else {
            // Nothing yet, or `help`: a command of the prompt, or one of the command line's.
            let names = registry.allNames + subcommands.map(\.commandName) + (words.isEmpty ? ["help"] : [])
            return Set(names).filter { $0.hasPrefix(prefix) }.sorted()
        }
        let arguments = tool.arguments ?? []
        if let previous = before.last, let option = arguments.first(where: { $0.spelled == previous && $0.kind == "option" }) {
            return offer(option.completionKind, prefix)
        }
        if prefix.hasPrefix("-") {
            return arguments.compactMap(\.spelled).filter { $0.hasPrefix(prefix) && $0 != "--help" }.sorted()
        }
        return offer(arguments.first { $0.kind == "positional" }?.completionKind, prefix)
    }

    /// The prompt's commands as vsh run with `before` has them: the built-ins and the
    /// command files' (the shipped ones, `code` and `count`, and the person's, from
    /// `--config` when given). A broken command file is told when vsh runs, not here.
    static func registry(_ before: [String]) -> CommandRegistry {
        let config = before.firstIndex(of: "--config").flatMap { before.indices.contains($0 + 1) ? before[$0 + 1] : nil }
        guard let context = try? AppContext(store: nil, config: config) else { return Builtins.registry() }
        return context.registry(tellingProblems: false)
    }

    /// The files, directories or words `kind` says, that start with `prefix`.
    static func offer(_ kind: CommandLineInfo.Argument.Completion?, _ prefix: String) -> [String] {
        if let files = kind?.file {
            return Completion.paths(prefix).filter { path in
                path.hasSuffix("/") || files.extensions.isEmpty || files.extensions.contains { path.hasSuffix("." + $0) }
            }
        }
        if kind?.directory != nil { return Completion.paths(prefix).filter { $0.hasSuffix("/") } }
        return (kind?.list?.values ?? []).filter { $0.hasPrefix(prefix) }
    }

    /// The completion script for `shell` (`vsh --generate-completion-script SHELL`):
    /// swift-argument-parser's, less what it adds for the subcommands beside the root's
    /// own argument, which the root's argument (`promptLine`) completes already: zsh
    /// refuses both ("doubled rest argument definition"), and fish would offer `listen`,
    /// `transcribe` and `help` again after any command of the prompt.
    static func script(for shell: CompletionShell) -> String {
        let script = VshMain.completionScript(for: shell)
        let dropped: (String) -> Bool
        switch shell {
        case .zsh: dropped = { ["'(-): :->command'", "'(-)*:: :->arg'"].contains($0.trimmingCharacters(in: .whitespaces)) }
        case .fish: dropped = { $0.contains("'__vsh_should_offer_completions_for_positional \"vsh\" -eq 2'") }
        default: return script
        }
        return script.components(separatedBy: "\n").filter { !dropped($0) }.joined(separator: "\n")
    }
}
