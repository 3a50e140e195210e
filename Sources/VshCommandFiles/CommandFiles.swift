import Foundation
import VshCore

/// The command files vsh loads: every `*.commands` file in the shipped `commands/`
/// directory, then in the user's (`$XDG_CONFIG_HOME/vsh/commands/`); a user file with
/// the same name as a shipped one replaces it. A broken file or command is reported
/// and left out; the rest load. Files (and directories) that other users may write are
/// refused, as ssh refuses such keys: a command file can run programs.
package final class CommandFiles {
    /// The directories, in loading order.
    package let directories: [String]
    /// Directories whose files vsh's own tests check (the shipped one): when only these
    /// are loaded, starting vsh does not need the pronunciation dictionary at all.
    let trusted: Set<String>
    let dictionaryPath: String
    let cachePath: String?
    let searchPath: String
    /// What was loaded, to notice changes with a few `stat` calls.
    private var stamps: [String: FileStamp] = [:]

    /// The result of loading: the registry with the custom commands, and the problems.
    package struct Loaded {
        package var registry: CommandRegistry
        package var problems: [CommandFileProblem]
        package var commands: [CustomCommand]
        /// The files read, in order.
        package var files: [String]
        package var errors: Int { problems.filter { $0.severity == .error }.count }
    }

    package init(directories: [String], trusted: [String] = [], dictionaryPath: String, cachePath: String?,
                searchPath: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") {
        self.directories = directories
        self.trusted = Set(trusted)
        self.dictionaryPath = dictionaryPath
        self.cachePath = cachePath
        self.searchPath = searchPath
    }

    /// How many commands were loaded, the person's own apart from those shipped with vsh:
    /// "7 custom command(s) loaded (1 from your files, 6 shipped)".
    package func summary(of loaded: Loaded) -> String {
        let shipped = loaded.commands.filter { command in trusted.contains { command.file.hasPrefix($0 + "/") } }.count
        let total = "\(loaded.commands.count) custom command(s) loaded"
        return shipped == 0 ? total : total + " (\(loaded.commands.count - shipped) from your files, \(shipped) shipped)"
    }

    /// The shipped directory (when there is one), then the user's.
    package convenience init(paths: Paths, settings: Settings) {
        let shipped = paths.shipped.map { $0 + "/commands" }
        self.init(
            directories: [shipped, paths.config + "/commands"].compactMap { $0 }, trusted: [shipped].compactMap { $0 },
            dictionaryPath: settings.modelDirectory + "/cmudict-en-us.dict",
            cachePath: paths.state + "/command-words")
    }

    /// Reads every file and returns `base` with their commands registered. `checkAll`
    /// repeats the sound-alike warnings already given for unchanged files.
    package func load(into base: CommandRegistry, checkAll: Bool = false) -> Loaded {
        var problems: [CommandFileProblem] = []
        var stamps: [String: FileStamp] = [:]
        var commands: [CustomCommand] = []
        var hashes: [String: String] = [:]
        let files = chooseFiles(&problems, &stamps)
        var names: [String: CustomCommand] = [:]
        for path in files {
            stamps[path] = FileStamp(path)
            let data: [UInt8]
            switch Self.read(path) {
            case .refused(let problem):
                problems.append(problem)
                continue
            case .unreadable(let reason):
                problems.append(CommandFileProblem(.error, file: path, line: nil, "cannot read the file (\(reason)); check its permissions"))
                continue
            case .read(let bytes):
                data = bytes
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                problems.append(CommandFileProblem(.error, file: path, line: nil, "is not UTF-8 text; save it as UTF-8"))
                continue
            }
            hashes[path] = CommandWords.hash(path: path, text: text)
            let builder = CustomCommandBuilder(syntax: CommandFileSyntax(text: text, file: path), searchPath: searchPath)
            problems += builder.problems
            for command in builder.commands {
                if base.lookup(command.name) != nil {
                    problems.append(CommandFileProblem(.error, file: path, line: command.line,
                        "'\(command.name)' is a built-in command; give yours another name"))
                } else if let other = names[command.name] {
                    problems.append(CommandFileProblem(.error, file: path, line: command.line,
                        "command '\(command.name)' is already defined at \(other.location); rename one of them "
                        + "(to replace a shipped file, give yours the same file name)"))
                } else {
                    commands.append(command)
                    names[command.name] = command
                }
            }
        }
        problems += check(&commands, base: base, hashes: hashes, checkAll: checkAll)

        var registry = base
        for command in commands {
            do {
                try registry.register(command.entry)
            } catch {
                problems.append(CommandFileProblem(.error, file: command.file, line: command.line, "\(error); rename the command"))
            }
        }
        problems += Self.checkRunLines(commands, registry: registry)
        self.stamps = stamps
        let order = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        problems = problems.enumerated().sorted { a, b in
            let ka = (order[a.element.file] ?? -1, a.element.line ?? 0, a.offset)
            let kb = (order[b.element.file] ?? -1, b.element.line ?? 0, b.offset)
            return ka < kb
        }.map(\.element)
        return Loaded(registry: registry, problems: problems, commands: commands, files: files)
    }

    /// Whether a command file or directory changed since the last `load`.
    package func changed() -> Bool {
        for dir in directories where FileStamp(dir) != stamps[dir] { return true }
        for (path, stamp) in stamps where FileStamp(path) != stamp { return true }
        return false
    }

    /// The files to read, in order: each directory's `*.commands`, sorted, a later
    /// directory's file replacing an earlier one of the same name.
    private func chooseFiles(_ problems: inout [CommandFileProblem], _ stamps: inout [String: FileStamp]) -> [String] {
        var chosen: [String: String] = [:]
        var order: [(Int, String)] = []
        for (index, dir) in directories.enumerated() {
            stamps[dir] = FileStamp(dir)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            if let refusal = Self.refusal(dir, what: "the directory") {
                problems.append(refusal)
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            for name in names.sorted() where name.hasSuffix(".commands") && !name.hasPrefix(".") {
                chosen[name] = dir + "/" + name
                order.removeAll { $0.1 == name }
                order.append((index, name))
            }
        }
        return order.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { chosen[$0.1]! }
    }

    /// Unknown words drop the forms that use them; clashing forms are dropped; forms
    /// that sound alike are warned about (for files that changed, or all with `checkAll`).
    private func check(
        _ commands: inout [CustomCommand], base: CommandRegistry, hashes: [String: String], checkAll: Bool
    ) -> [CommandFileProblem] {
        guard !commands.isEmpty else { return [] }
        let untrusted = commands.contains { !trusted.contains(($0.file as NSString).deletingLastPathComponent) }
        var checks = CommandFileChecks()
        for entry in base.entries {
            for form in entry.info.spokenForms {
                checks.add(form.pattern, owner: .init(command: entry.info.name, file: nil, line: 0), command: nil, index: 0)
            }
        }
        for (c, command) in commands.enumerated() {
            for (i, form) in command.forms.enumerated() {
                checks.add(form.spoken.pattern, owner: .init(command: command.name, file: command.file, line: form.line),
                           command: c, index: i)
            }
        }
        let vocabularies = checks.forms.map(\.pattern.vocabulary)
        let vocabulary = vocabularies.reduce(into: Set<String>()) { $0.formUnion($1) }
        var problems: [CommandFileProblem] = []
        let words = untrusted || checkAll ? CommandWords(words: vocabulary, dictionaryPath: dictionaryPath, cachePath: cachePath) : nil
        if let words {
            var reported = Set<String>()
            for (f, form) in checks.forms.enumerated() {
                guard let c = form.command else { continue }
                let lacking = vocabularies[f].filter { words.unknown[$0] != nil }.sorted()
                guard !lacking.isEmpty else { continue }
                checks.kill(f)
                let command = commands[c]
                for word in lacking where reported.insert("\(form.owner.line) \(word)").inserted {
                    let near = words.unknown[word]!
                    let suggestion = near.isEmpty ? "" : "did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "? "
                    problems.append(CommandFileProblem(.error, file: command.file, line: form.owner.line,
                        "'\(word)' is not in the pronunciation dictionary, so vsh cannot hear \"\(command.forms[form.index].say)\"; "
                        + suggestion + "use words it knows (typing '\(command.name)' still works)"))
                }
            }
        }
        problems += checks.dropClashes()
        if var words {
            let changed = Set(hashes.filter { checkAll || !words.checkedFiles.contains($0.value) }.keys)
            if !changed.isEmpty { problems += checks.soundAlikes(phones: words.phones, changed: changed) }
            words.markChecked(Set(hashes.values))
            words.save(keeping: vocabulary)
        }
        var alive = commands.map { _ in [Bool]() }
        for c in commands.indices { alive[c] = Array(repeating: false, count: commands[c].forms.count) }
        for form in checks.forms where form.alive {
            if let c = form.command { alive[c][form.index] = true }
        }
        for c in commands.indices {
            commands[c].forms = zip(commands[c].forms, alive[c]).filter(\.1).map(\.0)
        }
        return problems
    }

    /// Warnings for `run:` lines that name no command: the command loads, and fails
    /// with the same message when run.
    static func checkRunLines(_ commands: [CustomCommand], registry: CommandRegistry) -> [CommandFileProblem] {
        var problems: [CommandFileProblem] = []
        for command in commands {
            guard case .steps(let steps) = command.action else { continue }
            for (step, stepLine) in zip(steps, command.actionLines) {
                guard case .line(let line) = step, let lines = try? Words.splitCommands(line) else { continue }
                for words in lines where registry.lookup(words[0]) == nil {
                    var message = "'\(command.name)' runs '\(words[0])', which is not a command"
                    if let near = registry.suggestion(for: words[0]) { message += "; did you mean '\(near)'?" } else {
                        message += "; type 'help' for the commands"
                    }
                    problems.append(CommandFileProblem(.warning, file: command.file, line: stepLine, message))
                }
            }
        }
        return problems
    }

    enum ReadResult {
        case read([UInt8])
        case refused(CommandFileProblem)
        case unreadable(String)
    }

    /// Reads a command file, checking the permissions of what was opened (not of what
    /// the path names a moment earlier or later).
    static func read(_ path: String) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .unreadable(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        if let refusal = refusal(path, info, what: "the file") { return .refused(refusal) }
        guard info.st_size <= 1 << 20 else { return .unreadable("larger than 1 MB") }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .unreadable(String(cString: strerror(errno))) }
            if n == 0 { return .read(bytes) }
            bytes += buffer[0..<n]
        }
    }

    /// Why a file or directory is refused: writable by other users, or owned by someone
    /// other than the user (or root).
    static func refusal(_ path: String, what: String) -> CommandFileProblem? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return refusal(path, info, what: what)
    }

    static func refusal(_ path: String, _ info: stat, what: String) -> CommandFileProblem? {
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            return CommandFileProblem(.error, file: path, line: nil,
                "refused: \(what) is writable by other users (mode \(String(mode, radix: 8))), so they could make vsh run any program; "
                + "run 'chmod go-w \(Words.quote(path))'")
        }
        if info.st_uid != getuid() && info.st_uid != 0 {
            return CommandFileProblem(.error, file: path, line: nil,
                "refused: \(what) belongs to another user (uid \(info.st_uid)), who could make vsh run any program; "
                + "copy it into a file of your own")
        }
        return nil
    }
}

/// Enough of a file's `stat` to notice a change: edits, replacement, chmod.
struct FileStamp: Equatable {
    var exists = false
    var inode: UInt64 = 0
    var size: Int64 = 0
    var modified: (Int, Int) = (0, 0)
    var changed: (Int, Int) = (0, 0)

    init(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        exists = true
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
        changed = (info.st_ctim.tv_sec, info.st_ctim.tv_nsec)
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.exists == b.exists && a.inode == b.inode && a.size == b.size && a.modified == b.modified && a.changed == b.changed
    }
}
