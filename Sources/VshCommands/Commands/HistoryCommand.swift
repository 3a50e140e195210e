import ArgumentParser
import Foundation
import VshCore
import VshCommandFiles
import VshStore

/// `history [--last N]`: the commands entered at the prompt, oldest first, numbered, with
/// how each came (typed, or spoken with its confidence and the clip of its audio);
/// `history replay N` runs entry N again; `history export FILE` writes them as a script.
package struct HistoryCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "history", summary: "Show the commands entered at the prompt; 'history replay N', 'history export FILE'",
        spokenForms: [SpokenForm("[show] history", runs: "history"),
                      SpokenForm("replay [number] <number>", runs: "history replay $1")],
        arguments: [.subcommands([.init("replay"), .init("export", [.file])])])

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case replay, export
    }

    @Argument(help: ArgumentHelp("replay N: run entry N again; export FILE: write the history as a vsh script.",
                                 valueName: "replay|export"))
    var action: Action?

    @Argument(help: ArgumentHelp("The entry number (replay) or file (export).", valueName: "n|file"))
    var target: String?

    @Option(name: .long, help: ArgumentHelp("Show (or export) only the last N entries.", valueName: "n"))
    var last: Int?

    @Flag(help: "Print the entries as a JSON array (the shape is in FORMAT.md).")
    var json = false

    package init() {}

    package func validate() throws {
        if let last, last < 1 { throw ValidationError("--last must be at least 1, not \(last)") }
        switch action {
        case nil where target != nil:
            throw ValidationError("'\(target!)' is not something history does; say 'replay N' or 'export FILE'")
        case .replay? where target.flatMap(Int.init) == nil:
            throw ValidationError("say which entry to replay, by its number in 'history' (for example 'history replay 3')")
        case .export? where target == nil:
            throw ValidationError("say which file to export to (for example 'history export session.vsh')")
        default: break
        }
    }

    package func run(in context: CommandContext) throws {
        let entries = context.session.history.entries
        switch action {
        case .replay?: try replay(Int(target!)!, entries, in: context)
        case .export?: try export(to: target!, entries, in: context)
        case nil: list(entries, in: context)
        }
    }

    private func list(_ entries: [HistoryEntry], in context: CommandContext) {
        let start = max(0, entries.count - (last ?? entries.count))
        if json {
            return context.writeJSON { json in
                json.listing { json in
                    for (i, entry) in entries.enumerated().dropFirst(start) {
                        json.object { json in
                            json.field("number", integer: i + 1)
                            json.field("time", StoreDate(entry.time, timeZone: .current).iso)
                            json.field("source", entry.source.rawValue)
                            json.field("confidence", entry.confidence)
                            json.field("line", entry.line)
                            json.field("clip", entry.clip)
                        }
                    }
                }
            }
        }
        let width = String(entries.count).count
        for (i, entry) in entries.enumerated().dropFirst(start) {
            let number = String(i + 1)
            let padded = String(repeating: " ", count: width - number.count) + number
            var how = entry.source.rawValue
            if let c = entry.confidence { how += String(format: " %.2f", c) }
            var line = "\(padded)  \(context.style.dim(how.padding(toLength: 11, withPad: " ", startingAt: 0))) \(entry.line)"
            if let clip = entry.clip, FileManager.default.fileExists(atPath: clip) {
                line += "  " + context.style.dim("[audio \(clip)]")
            }
            context.output.line(line)
        }
    }

    private func replay(_ number: Int, _ entries: [HistoryEntry], in context: CommandContext) throws {
        guard !entries.isEmpty else {
            throw CommandError("the history is empty, so there is no entry \(number) to replay; type or say a command first")
        }
        guard (1...entries.count).contains(number) else {
            throw CommandError("there is no entry \(number); 'history' lists entries 1 to \(entries.count)")
        }
        let line = entries[number - 1].line
        if Self.isHistoryAction(line) {
            throw CommandError("entry \(number) is '\(line)' itself; replay runs other commands")
        }
        context.confirm(context.style.dim("→ \(line)"))
        try CustomRun.execute(line, in: context)
    }

    private func export(to file: String, _ entries: [HistoryEntry], in context: CommandContext) throws {
        let chosen = entries.suffix(last ?? entries.count).filter { !Self.isHistoryAction($0.line) }
        var text = "# vsh script: \(chosen.count) command(s) from the history, oldest first.\n"
        text += "# Run it with: vsh < \((file as NSString).lastPathComponent)\n"
        for entry in chosen {
            if entry.source == .spoken {
                text += "# spoken" + (entry.confidence.map { String(format: " %.2f", $0) } ?? "") + "\n"
            }
            text += entry.line + "\n"
        }
        let path = URL(fileURLWithPath: file).path
        do {
            try AtomicFile.write(Data(text.utf8), to: path, permissions: 0o644, makeDirectories: false)
        } catch let error as FileError where error.explained {
            throw error
        } catch {
            throw CommandError("cannot write \(file): \(error)")
        }
        context.confirm("wrote \(chosen.count) command(s) to \(file)")
    }

    /// `history replay …` and `history export …` are left out of replays and exports.
    static func isHistoryAction(_ line: String) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return words.first == "history" && words.count > 1 && ["replay", "export"].contains(String(words[1]))
    }
}
