import Foundation
import VshCore
import VshSpoken

/// Gives a command file's blocks their meaning: patterns, slots, actions. Each problem
/// names its line; a broken `say:` line is dropped, a broken command is skipped, and
/// the rest of the file still loads.
struct CustomCommandBuilder {
    let syntax: CommandFileSyntax
    /// Where programs are looked for (the PATH of vsh's environment).
    let searchPath: String
    private(set) var commands: [CustomCommand] = []
    private(set) var problems: [CommandFileProblem] = []

    /// The most ways one `say:` line may be said before `SpokenPattern` captures would
    /// need multiplying out further than is sensible.
    static let maximumVariants = 64

    init(syntax: CommandFileSyntax, searchPath: String) {
        self.syntax = syntax
        self.searchPath = searchPath
        problems = syntax.problems
        for block in syntax.blocks where !block.name.isEmpty {
            if let command = build(block) { commands.append(command) }
        }
    }

    private var file: String { syntax.file }

    private mutating func fail(_ line: Int, _ message: String) {
        problems.append(CommandFileProblem(.error, file: file, line: line, message))
    }

    private mutating func build(_ block: CommandFileSyntax.Block) -> CustomCommand? {
        let name = block.name
        for key in [CommandFileSyntax.Key.summary, .keyword, .destructive] {
            let given = block.values(key)
            for extra in given.dropFirst() {
                fail(extra.line, "'\(key.rawValue):' is given twice for '\(name)' (first on line \(given[0].line)); keep one")
            }
        }
        let says = block.values(.say)
        guard !says.isEmpty else {
            fail(block.line, "command '\(name)' has nothing to say; add a 'say:' line with the words that run it")
            return nil
        }
        // Patterns: each say line, multiplied out into variants with fixed captures.
        var slots: [(name: String, kind: SlotKind)]?
        var forms: [(variant: CustomPhrase, line: Int, say: String)] = []
        for say in says {
            let phrase: CustomPhrase
            do {
                phrase = try CustomPhrase.parse(say.value, lists: Set(syntax.lists.keys))
            } catch let error as CustomPhrase.ParseError {
                fail(say.line, error.complete ? error.message
                     : error.message + "; fix the pattern (see 'Your own voice commands' in the README)")
                continue
            } catch {
                continue
            }
            if phrase.shortest == 0 {
                fail(say.line, "\"\(say.value)\" can be said as nothing at all; make at least one word required")
                continue
            }
            let variants = phrase.variants()
            if variants.count > Self.maximumVariants {
                fail(say.line, "\"\(say.value)\" has \(variants.count) ways to be said once its optional slots and groups are spelt out; split it into several 'say:' lines")
                continue
            }
            // The first consistent say: line decides the slots (and the typed arguments).
            func named(_ variant: CustomPhrase) -> [(name: String, kind: SlotKind)] {
                Array(zip(CustomPhrase.names(of: variant.slots), variant.slots)).map { (name: $0.0, kind: $0.1) }
            }
            let expected = slots ?? named(variants[0])
            if let problem = variants.lazy.compactMap({ Self.mismatch(named($0), expected, variant: $0, command: name) }).first {
                fail(say.line, problem)
                continue
            }
            slots = expected
            forms += variants.map { ($0, say.line, say.value) }
        }
        guard let slots, !forms.isEmpty else { return nil }
        for (name, kind) in slots {
            if case .list(let list) = kind, syntax.lists[list]?.items.isEmpty ?? true {
                fail(syntax.lists[list]?.line ?? block.line, "list '\(list)' has no items, so <\(name)> can never be filled; give it some")
                return nil
            }
        }

        let renderedForms = forms.map { form -> CustomCommand.Form in
            let (pattern, captures) = form.variant.rendered(lists: syntax.lists)
            let names = CustomPhrase.names(of: form.variant.slots)
            let arguments = slots.map { slot -> String in
                let capture = "$\(captures[names.firstIndex(of: slot.name)!])"
                // What a list slot hears may be several words: quoted, it stays one argument.
                guard case .list(let list) = slot.kind,
                      syntax.lists[list]?.items.contains(where: { $0.spoken.contains(" ") }) == true else { return capture }
                return "\"\(capture)\""
            }
            let line = ([name] + arguments).joined(separator: " ")
            return CustomCommand.Form(spoken: SpokenForm(pattern, runs: line), line: form.line, say: form.say)
        }

        guard let (action, actionFields) = buildAction(block, slots: slots) else { return nil }
        let actionText = actionFields.map { "\($0.key.rawValue): \($0.value)" }
        var destructive = false
        if let field = block.values(.destructive).first {
            switch field.value.lowercased() {
            case "yes", "true": destructive = true
            case "no", "false": destructive = false
            default:
                fail(field.line, "destructive: must be yes or no, not '\(field.value)'")
                return nil
            }
        }
        let summary = block.values(.summary).first?.value ?? Self.defaultSummary(action, actionText)
        return CustomCommand(
            name: name, file: file, line: block.line, summary: summary, slots: slots, lists: syntax.lists,
            forms: renderedForms, action: action, destructive: destructive,
            actionText: actionText, actionLines: actionFields.map(\.line))
    }

    /// Why a variant's slots differ from the command's, or nil when they agree.
    static func mismatch(
        _ slots: [(name: String, kind: SlotKind)], _ expected: [(name: String, kind: SlotKind)],
        variant: CustomPhrase, command: String
    ) -> String? {
        let said = "\"" + variant.written + "\""
        let all = expected.map(\.kind.written).joined(separator: " ")
        for slot in expected where !slots.contains(where: { $0.name == slot.name }) {
            return "\(said) fills no \(slot.kind.written); every way of saying '\(command)' must fill the same slots (\(all)), "
                + "so say this in a command of its own"
        }
        for slot in slots {
            guard let other = expected.first(where: { $0.name == slot.name }) else {
                return "\(said) has \(slot.kind.written), which other ways of saying '\(command)' do not fill; "
                    + "every way of saying it must fill the same slots (\(all.isEmpty ? "none" : all)), so say this in a command of its own"
            }
            if other.kind != slot.kind {
                return "\(said) has \(slot.kind.written) where other ways of saying '\(command)' have \(other.kind.written); use the same slot"
            }
        }
        return nil
    }

    private mutating func buildAction(
        _ block: CommandFileSyntax.Block, slots: [(name: String, kind: SlotKind)]
    ) -> (CustomCommand.Action, [CommandFileSyntax.Field])? {
        let steps = block.fields.filter { [.run, .exec, .start].contains($0.key) }
        let keyword = block.values(.keyword).first
        if let keyword, let step = steps.first {
            fail(step.line, "'\(block.name)' is a keyword command (line \(keyword.line)); it cannot also \(step.key.rawValue) something — move this to a command of its own")
            return nil
        }
        if let keyword {
            guard let kind = CustomCommand.KeywordKind(rawValue: keyword.value) else {
                fail(keyword.line, "keyword: must be add, back, reset or done, not '\(keyword.value)'")
                return nil
            }
            if kind == .add, let slot = slots.first(where: { $0.kind != .digit && $0.kind != .digits }) {
                fail(keyword.line, "a keyword command takes digits, but '\(block.name)' has \(slot.kind.written); use <digit> or <digits>")
                return nil
            }
            if kind != .add, let slot = slots.first {
                fail(keyword.line, "keyword: \(kind.rawValue) takes no digits, but '\(block.name)' has \(slot.kind.written); remove it")
                return nil
            }
            return (.keyword(kind), [keyword])
        }
        guard !steps.isEmpty else {
            fail(block.line, "command '\(block.name)' does nothing; add 'run:' (vsh commands), 'exec:' or 'start:' (a program), or 'keyword:'")
            return nil
        }
        var built: [CustomCommand.Step] = []
        for field in steps {
            guard checkReferences(field, slots: slots, command: block.name) else { return nil }
            switch field.key {
            case .run:
                guard let line = checkLine(field, command: block.name) else { return nil }
                built.append(.line(line))
            default:
                guard let call = checkProgram(field) else { return nil }
                built.append(.program(call, wait: field.key == .exec))
            }
        }
        return (.steps(built), steps)
    }

    private mutating func checkLine(_ field: CommandFileSyntax.Field, command: String) -> String? {
        do {
            let commands = try Words.splitCommands(field.value)
            if commands.contains(where: { $0.first == command }) {
                fail(field.line, "'\(command)' runs itself, which would never end; run other commands")
                return nil
            }
            return field.value
        } catch {
            fail(field.line, "\(error); close the quote")
            return nil
        }
    }

    private mutating func checkProgram(_ field: CommandFileSyntax.Field) -> CustomCommand.ProgramCall? {
        let commands: [[String]]
        do {
            commands = try Words.splitCommands(field.value)
        } catch {
            fail(field.line, "\(error); close the quote")
            return nil
        }
        guard commands.count == 1, let arguments = commands.first else {
            fail(field.line, "\(field.key.rawValue): runs one program, and no shell reads it, so ';' separates nothing; put it in quotes, or use one '\(field.key.rawValue):' line per program")
            return nil
        }
        let program = arguments[0]
        if program.contains("{") {
            fail(field.line, "the program's name cannot come from a slot ('\(program)'); name the program, and pass the slot as an argument")
            return nil
        }
        guard let path = ProgramLocator.find(program, searchPath: searchPath) else {
            if program.contains("/") {
                fail(field.line, "program '\(program)' does not exist or cannot be run; check the path, or make it executable (chmod +x)")
            } else {
                fail(field.line, "program '\(program)' is not installed (not found on PATH); install it, or give its full path")
            }
            return nil
        }
        return CustomCommand.ProgramCall(arguments: arguments, path: path)
    }

    /// Checks that every `{name}` in the field names a slot.
    private mutating func checkReferences(
        _ field: CommandFileSyntax.Field, slots: [(name: String, kind: SlotKind)], command: String
    ) -> Bool {
        for reference in SlotReferences.names(in: field.value) where !slots.contains(where: { $0.name == reference }) {
            let known = slots.isEmpty ? "'\(command)' has no slots" : "its slots are " + slots.map { "{\($0.name)}" }.joined(separator: ", ")
            fail(field.line, "{\(reference)} is not a slot of '\(command)'; \(known)")
            return false
        }
        return true
    }

    static func defaultSummary(_ action: CustomCommand.Action, _ text: [String]) -> String {
        switch action {
        case .keyword(.add): "Start this keyword command, or add digits to the current one"
        case .keyword(.back): "Clear the digits of the current keyword command"
        case .keyword(.reset): "Stop the current keyword command"
        case .keyword(.done): "Record the current keyword command and its digits"
        case .steps: text.joined(separator: "; ")
        }
    }
}

/// `{name}` references in actions: letters, digits and `_` between braces. Other braces
/// (`awk '{print $1}'`) are left alone.
enum SlotReferences {
    static func names(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}") {
                let name = after[..<close]
                if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                    names.append(String(name))
                }
            }
            rest = after
        }
        return names
    }

    /// `text` with each `{name}` replaced by `transform(value)`, in one pass (a value
    /// that itself holds `{…}` stays as it is).
    static func fill(_ text: String, _ values: [(String, String)], transform: (String) -> String = { $0 }) -> String {
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = values.first(where: { $0.0 == after[..<close] })?.1 {
                result += transform(value)
                rest = after[after.index(after: close)...]
            } else {
                result += "{"
                rest = after
            }
        }
        return result + rest
    }
}

/// Finds programs the way a shell would, without a shell.
enum ProgramLocator {
    static func find(_ program: String, searchPath: String) -> String? {
        if program.contains("/") {
            return FileManager.default.isExecutableFile(atPath: program) ? program : nil
        }
        for dir in searchPath.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(program)"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }
}
