import Foundation
import VshSpoken

/// The read–run loop. Typed lines, script lines and (later) recognised speech all go
/// through `execute`, so they behave the same.
package final class Shell {
    package let session: Session
    package let output: TextSink
    /// Where errors and notices go.
    package let error: TextSink
    let style: Style
    let errorStyle: Style

    package init(session: Session, output: TextSink, error: TextSink, style: Style, errorStyle: Style) {
        self.session = session
        self.output = output
        self.error = error
        self.style = style
        self.errorStyle = errorStyle
    }

    /// Runs every command on `line` (separated by `;`). Returns whether all succeeded.
    /// Errors go to the error sink as `<prefix>error: …`; `strict` stops at the first.
    @discardableResult
    /// `spoken`: the line was heard, not typed (a keyword command that listens takes
    /// spoken words as its digits, while typed commands still run).
    package func execute(_ line: String, interactive: Bool, errorPrefix: String = "", strict: Bool = false,
                        spoken: Bool = false) -> Bool {
        let commands: [[String]]
        do {
            commands = try Words.splitCommands(line)
        } catch {
            report("\(error)", prefix: errorPrefix)
            return false
        }
        var succeeded = true
        for words in commands where !session.exitRequested {
            if !run(words, interactive: interactive, errorPrefix: errorPrefix, spoken: spoken) {
                succeeded = false
                if strict { break }
            }
        }
        return succeeded
    }

    private func run(_ words: [String], interactive: Bool, errorPrefix: String, spoken: Bool) -> Bool {
        session.commandsRun += 1
        for absorb in session.hooks.absorb where absorb(self, words, interactive, spoken) { return true }
        let name = words[0]
        guard let entry = session.registry.lookup(name) else {
            var message = "unknown command '\(name)'"
            if let near = session.registry.suggestion(for: name) {
                message += "; did you mean '\(near)'?"
            } else {
                message += "; type 'help' to see the commands"
            }
            report(message, prefix: errorPrefix)
            return false
        }
        switch entry.parse(Array(words.dropFirst())) {
        case .help(let text):
            output.write(text.hasSuffix("\n") ? text : text + "\n")
            return true
        case .failure(let message):
            report("\(name): \(message)", prefix: errorPrefix)
            return false
        case .run(var command):
            let context = CommandContext(
                output: output, error: error, style: style, session: session, interactive: interactive)
            do {
                try command.run(in: context)
                return true
            } catch {
                report("\(name): \(error)", prefix: errorPrefix)
                return false
            }
        }
    }

    private func report(_ message: String, prefix: String) {
        error.line(prefix + errorStyle.red("error:") + " " + message)
    }

    /// The interactive loop: prompt, read, record in history, run. Ctrl-C abandons the
    /// line; Ctrl-D (unless a hook takes it: `ShellHooks.endOfInput`) or `exit` ends with
    /// status 0.
    package func runInteractive(reader: LineReader, prompt: String = "vsh> ") -> Int32 {
        defer { for hook in session.hooks.finished { hook() } }
        while !session.exitRequested {
            let shown = session.hooks.prompt.reduce(prompt) { $1($0) }
            switch reader.readLine(prompt: session.question == nil ? shown : ShellQuestion.prompt(shown)) {
            case .interrupted:
                _ = answerQuestion(nil)
                continue
            case .endOfInput:
                output.write("\n")
                if answerQuestion(nil) { continue }
                if session.hooks.endOfInput.contains(where: { $0(self) }) { continue }
                return 0
            case .line(let line):
                enter(line, reader: reader)
            case .spoken(let spoken):
                enter(spoken.line, heard: spoken, reader: reader)
            }
        }
        return 0
    }

    /// Runs a typed line, or the line of a spoken command (`heard`), and records it in
    /// history beside the run.
    private func enter(_ typed: String, heard: SpokenLine? = nil, reader: LineReader) {
        let line = typed.trimmingCharacters(in: .whitespaces)
        if line.isEmpty { return }
        if answerQuestion(line) { return }
        reader.addToRecall(line)
        let entry = HistoryEntry(
            time: Date(), source: heard == nil ? .typed : .spoken, confidence: heard?.confidence, line: line,
            clip: heard?.clip)
        if let problem = session.history.append(entry) {
            error.line("warning: \(problem)")
        }
        if line.hasPrefix("#") { return }
        for hook in session.hooks.beforeLine { hook(self, true) }
        let succeeded = execute(line, interactive: true, spoken: heard != nil)
        for hook in session.hooks.afterLine { hook(line, heard, succeeded) }
    }

    /// Answers the question a command asked (`ShellQuestion`) with `line` (nil: Ctrl-C or
    /// Ctrl-D, which answer no). Returns true when the line was taken as the answer; a line
    /// that is no answer answers no and returns false, so it runs as usual.
    private func answerQuestion(_ line: String?) -> Bool {
        guard let question = session.question else { return false }
        session.question = nil
        let answer = line.flatMap(ShellQuestion.answer)
        guard answer == true else {
            output.line(question.declined)
            return line == nil || answer == false
        }
        let context = CommandContext(output: output, error: error, style: style, session: session, interactive: true)
        do {
            try question.yes(context)
        } catch {
            report("\(question.command): \(error)", prefix: "")
        }
        return true
    }

    /// Script mode: no prompt, `#` comments and blank lines skipped, errors prefixed with
    /// `line N:`. Status 0 when every command succeeded, else 1; `strict` stops at the
    /// first failure.
    package func runScript(reader: LineReader, strict: Bool) -> Int32 {
        var failed = false
        var number = 0
        while !session.exitRequested {
            guard case .line(let line) = reader.readLine(prompt: "") else { break }
            number += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            for hook in session.hooks.beforeLine { hook(self, false) }
            if !execute(trimmed, interactive: false, errorPrefix: "line \(number): ", strict: strict) {
                failed = true
                if strict { break }
            }
        }
        return failed ? 1 : 0
    }

    /// `vsh -c 'a; b'`: runs the commands in order; status as for scripts.
    package func runCommandString(_ text: String, strict: Bool) -> Int32 {
        execute(text, interactive: false, strict: strict) ? 0 : 1
    }
}
