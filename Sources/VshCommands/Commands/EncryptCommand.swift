import ArgumentParser
import VshAudioFiles
import VshCore
import VshStore

/// `encrypt [on|off]`: encrypts the audio of the store (saved, drafts, trash) and the
/// history's clips with the key in `<config>/key`, or decrypts it; without an argument,
/// says the state. File by file and atomically (`AudioConversion`), so an interrupted run
/// leaves every recording readable and running it again finishes the job.
package struct EncryptCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "encrypt", summary: "Encrypt the audio of recordings at rest: 'encrypt on|off'; 'encrypt' shows the state",
        spokenForms: [SpokenForm("encryption (on | off)", runs: "encrypt $1"), SpokenForm("[show] encryption", runs: "encrypt")],
        arguments: [.values(Switch.allCases.map(\.rawValue))], destructiveWith: Set(Switch.allCases.map(\.rawValue)))

    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @Argument(help: ArgumentHelp("on or off. Without it, shows whether audio is encrypted.", valueName: "on|off"))
    var state: Switch?

    @Flag(help: "Without on or off: print the state as a JSON object (the shape is in FORMAT.md).")
    var json = false

    package init() {}

    package func validate() throws {
        if json && state != nil { throw ValidationError("--json goes with 'encrypt' alone (the state), not 'encrypt \(state!.rawValue)'") }
    }

    package func run(in context: CommandContext) throws {
        let keyFile = KeyFile(path: context.session.paths.keyFile)
        let scan = Scan(context: context, cleaning: state != nil)
        switch state {
        case nil: try status(scan, keyFile, context)
        case .on?: try on(scan, keyFile, context)
        case .off?: try off(scan, keyFile, context)
        }
    }

    /// The audio files and what form each is in.
    struct Scan {
        var store: [String]
        var clips: [String]
        /// The sealed ones, with the id of their key.
        var sealed: [(path: String, keyID: String)]
        var all: [String] { store + clips }

        /// `cleaning`: remove what an interrupted conversion left behind.
        init(context: CommandContext, cleaning: Bool) {
            store = context.store.audioFiles(cleaning: cleaning)
            clips = TranscriptStore.audioFiles(in: context.session.paths.clipsDirectory, cleaning: cleaning)
            sealed = (store + clips).compactMap { path in
                guard SealedAudio.isSealed(path: path) else { return nil }
                return (path, SealedAudio.Header.read(path: path)?.keyID ?? "(unreadable)")
            }
        }

        /// A message for the first file sealed with a key other than `key`, if any.
        func foreignKey(_ key: AudioKey?, _ keyFile: KeyFile) -> String? {
            guard let other = sealed.first(where: { $0.keyID != key?.id }) else { return nil }
            let others = sealed.filter { $0.keyID != key?.id }.count
            return (others > 1 ? "\(others) audio files are encrypted with a key vsh does not have; for example, " : "")
                + SealedAudio.keyProblem(other.path, keyID: other.keyID, keyFile: keyFile, found: key)
        }
    }

    private func status(_ scan: Scan, _ keyFile: KeyFile, _ context: CommandContext) throws {
        let out = context.output
        let loaded = Result { try keyFile.load() }
        let key = (try? loaded.get()) ?? nil
        if json {
            var problem: String?
            if case .failure(let error) = loaded { problem = "\(error)" }
            return context.writeJSON { json in
                json.object { json in
                    json.field("encryption", context.store.encryptionKeyID != nil)
                    json.field("store_key", context.store.encryptionKeyID.flatMap { $0.isEmpty ? nil : $0 })
                    json.field("key_file", keyFile.path)
                    json.field("key", key?.id)
                    json.field("key_problem", problem)
                    json.field("encrypted", integer: scan.sealed.count)
                    json.field("plain", integer: scan.all.count - scan.sealed.count)
                    json.field("store_files", integer: scan.store.count)
                    json.field("clip_files", integer: scan.clips.count)
                    json.field("foreign_key", problem == nil ? scan.foreignKey(key, keyFile) : nil)
                }
            }
        }
        if let id = context.store.encryptionKeyID {
            out.line("Encryption: on (key \(id.isEmpty ? "not named" : id)); new recordings are encrypted as they are made")
        } else {
            out.line("Encryption: off; new recordings are plain WAV files")
        }
        let keyState: String
        switch loaded {
        case .success(let key?): keyState = "holds key \(key.id); back it up"
        case .success(nil): keyState = "missing"
        case .failure(let error): keyState = "\(error)"
        }
        out.line("Key file:   \(keyFile.path) (\(keyState))")
        out.line("Audio:      \(scan.sealed.count) encrypted, \(scan.all.count - scan.sealed.count) plain "
            + "(store, drafts and trash: \(scan.store.count); history clips: \(scan.clips.count))")
        if case .failure = loaded {
            // The key file is there but cannot be used: that, not a missing key, is what to fix.
            if !scan.sealed.isEmpty {
                out.line("warning: the \(counted(scan.sealed.count, "encrypted audio file")) cannot be played or "
                    + "transcribed until the key file is usable (see 'Key file' above)")
            }
        } else if let problem = scan.foreignKey(key, keyFile) {
            out.line("warning: " + problem)
        }
        if context.store.encryptionKeyID != nil && scan.sealed.count < scan.all.count {
            out.line("'encrypt on' encrypts the plain ones.")
        } else if context.store.encryptionKeyID == nil && !scan.sealed.isEmpty {
            out.line("'encrypt off' decrypts the encrypted ones (vsh reads both).")
        }
    }

    private func on(_ scan: Scan, _ keyFile: KeyFile, _ context: CommandContext) throws {
        var key = try keyFile.load()
        var created = false
        if key == nil {
            if let first = scan.sealed.first {
                throw CommandError(
                    "\(counted(scan.sealed.count, "audio file")) here \(scan.sealed.count == 1 ? "is" : "are") already "
                        + "encrypted with key \(first.keyID) (for example \(first.path)), and there is no key file at "
                        + "\(keyFile.path). Restore the key file from your backup; vsh will not make a new key, "
                        + "which could never read them. Nothing was changed")
            }
            key = try keyFile.create()
            created = true
        }
        guard let key else { return }
        if let problem = scan.foreignKey(key, keyFile) { throw CommandError(problem + " Nothing was changed") }
        try context.store.setEncryption(key)
        let out = context.output
        if created { out.line("Created the key \(keyFile.path) (key \(key.id), mode 0600).") }
        let tally = convert(scan, context) { file, inStore in
            inStore ? context.store.convertAudio(file, seal: true, key: key, keyFile: keyFile) : AudioConversion.seal(file, key: key)
        }
        out.line("Encryption is on: \(tally.converted) audio file(s) encrypted now, \(tally.unchanged) already were; "
            + "new recordings are encrypted as they are made.")
        out.line("Back up \(keyFile.path): without it the encrypted audio cannot be recovered. "
            + "Transcripts, titles and word timings stay plain text.")
        try tally.report(out, retry: "encrypt on")
    }

    private func off(_ scan: Scan, _ keyFile: KeyFile, _ context: CommandContext) throws {
        let key = try keyFile.load()
        if !scan.sealed.isEmpty, let problem = scan.foreignKey(key, keyFile) {
            throw CommandError(problem + " Nothing was changed")
        }
        try context.store.setEncryption(nil)
        var tally = Tally()
        if let key {
            tally = convert(scan, context) { file, inStore in
                inStore ? context.store.convertAudio(file, seal: false, key: key, keyFile: keyFile)
                    : AudioConversion.unseal(file, key: key, keyFile: keyFile)
            }
        }
        context.output.line("Encryption is off: \(tally.converted) audio file(s) decrypted now; new recordings are plain. "
            + "The key \(keyFile.path) was kept.")
        try tally.report(context.output, retry: "encrypt off")
    }

    /// What a conversion did.
    struct Tally {
        var converted = 0, unchanged = 0
        var busy: [String] = []
        var failed: [String] = []

        func report(_ out: TextSink, retry: String) throws {
            for file in busy {
                out.line("Left as it is for now: \(file) is being written (a recording in progress?); run '\(retry)' again once it ends.")
            }
            if !failed.isEmpty {
                throw CommandError("\(counted(failed.count, "file")) could not be converted and \(failed.count == 1 ? "was" : "were") left as \(failed.count == 1 ? "it was" : "they were"): "
                    + failed.joined(separator: "; "))
            }
        }
    }

    private func convert(
        _ scan: Scan, _ context: CommandContext, _ one: (String, Bool) -> AudioConversion.Outcome
    ) -> Tally {
        var tally = Tally()
        for (file, inStore) in scan.store.map({ ($0, true) }) + scan.clips.map({ ($0, false) }) {
            switch one(file, inStore) {
            case .converted: tally.converted += 1
            case .unchanged: tally.unchanged += 1
            case .busy: tally.busy.append(file)
            case .failed(let why): tally.failed.append(why)
            }
        }
        return tally
    }
}
