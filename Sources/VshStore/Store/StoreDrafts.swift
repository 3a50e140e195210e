import Foundation
import VshAudioFiles
import VshCore

/// A recording lives in `drafts/<id>.{wav,txt,words}` from the moment it starts, so a
/// crash or `kill -9` leaves a draft to recover; `save` moves it into the store. Its words
/// are appended as each utterance ends (`<id>.words`, FORMAT.md), never rewritten.
extension TranscriptStore {
    /// An unsaved recording.
    package struct Draft: Sendable, Equatable {
        package var id: String
        /// Where the recorder writes the 16-bit mono WAV as audio arrives.
        package var audioPath: String
        package var created: StoreDate
        package var quality: Quality
        package var sampleRate: Int
        /// `microphone default`, `file notes.wav`.
        package var source: String
        /// Seconds recorded (from the WAV's data when there is one).
        package var duration: Double
        package var transcript: String
        package var words: [RecognizedWord]
        /// Seconds of audio the transcript covers: the recorder writes the draft's words
        /// and this as each utterance ends, so after a crash the audio runs on past it.
        package var transcribedSeconds: Double = 0
        /// How many of `words` (and how much of `transcript`) are written down already:
        /// `updateDraft` appends the rest.
        var writtenWords = 0
        var writtenTranscript = ""

        /// Whether audio was recorded after the last words were written down (vsh was
        /// killed mid-sentence): `save` transcribes it before saving.
        package var hasUntranscribedAudio: Bool { duration > transcribedSeconds + 0.5 }

        /// Adds an utterance's words after the draft's, to its words and its transcript
        /// (the words, a space between each); `updateDraft(_:duration:)` writes them down.
        package mutating func append(_ heard: [RecognizedWord]) {
            guard !heard.isEmpty else { return }
            let said = heard.map(\.word).joined(separator: " ")
            transcript = words.isEmpty ? said : transcript + " " + said
            words += heard
        }
    }

    var draftsDirectory: String { path("drafts") }

    /// Starts a draft: a new id, and its header in `drafts/<id>.txt`. The recorder then
    /// writes the audio to `audioPath` and calls `updateDraft` as words arrive.
    package func beginDraft(quality: Quality, sampleRate: Int, source: String) throws -> Draft {
        try change { _ in
            try StoreFiles.makeDirectory(draftsDirectory)
            let created = StoreDate(now, timeZone: timeZone)
            guard let id = StoreID.candidates(created).first(where: { !isTaken($0) }) else {
                throw CommandError("more than \(StoreID.slotsPerSecond) recordings began this second; try again")
            }
            let draft = Draft(
                id: id, audioPath: draftsDirectory + "/" + id + ".wav", created: created, quality: quality,
                sampleRate: sampleRate, source: source, duration: 0, transcript: "", words: [])
            try write(draft)
            return draft
        }
    }

    /// Records the transcript so far as `transcript` and `words`: appended when they go
    /// on from what is written down, else the draft's words are written anew (a draft's
    /// transcript replaced, as when `save` transcribes what a crash left).
    @discardableResult
    package func updateDraft(_ draft: Draft, transcript: String, words: [RecognizedWord], duration: Double) throws -> Draft {
        var draft = draft
        if !(words.starts(with: draft.words.prefix(draft.writtenWords)) && transcript.hasPrefix(draft.writtenTranscript)) {
            (draft.writtenWords, draft.writtenTranscript) = (0, "")
        }
        draft.transcript = transcript
        draft.words = words
        return try updateDraft(draft, duration: duration)
    }

    /// Records the draft's words (`Draft.append` adds each utterance's), with `duration`
    /// seconds recorded and written down: one line appended to `<id>.words` with the
    /// words and text since the last, and the seconds. A kill during the append leaves at
    /// most a torn last line, which the reader leaves out: the draft reads whole at every
    /// instant. The first line, and words that do not go on from those written down
    /// (`updateDraft(_:transcript:words:duration:)`), write the file anew, atomically.
    @discardableResult
    package func updateDraft(_ draft: Draft, duration: Double) throws -> Draft {
        var draft = draft
        draft.duration = duration
        draft.transcribedSeconds = duration
        try StoreLock.changing(directory, recover: recover) {
            guard StoreFiles.isDirectory(draftsDirectory) else { throw CommandError("the drafts directory \(draftsDirectory) has gone") }
            let file = draftsDirectory + "/" + draft.id + ".words"
            if draft.writtenWords == 0 && draft.writtenTranscript.isEmpty || !StoreFiles.exists(file) {
                try AtomicFile.write(DraftWords.line(seconds: duration, text: draft.transcript, words: draft.words), to: file)
            } else {
                var text = String(draft.transcript.dropFirst(draft.writtenTranscript.count))
                if text.hasPrefix(" ") { text.removeFirst() }
                try DraftWords.append(
                    DraftWords.line(seconds: duration, text: text, words: Array(draft.words[draft.writtenWords...])), to: file)
            }
        }
        draft.writtenWords = draft.words.count
        draft.writtenTranscript = draft.transcript
        return draft
    }

    /// Saves a draft as a transcript: `<id>.json`, the audio, then `<id>.txt` (from that
    /// moment it is listed), then the draft's files go. `title` defaults to the first
    /// words of the transcript.
    package func save(_ draft: Draft, title: String? = nil) throws -> Item {
        try change { changes in
            let base = draftsDirectory + "/" + draft.id
            guard StoreFiles.exists(base + ".txt") || StoreFiles.exists(base + ".wav") else {
                throw CommandError("there is no draft '\(draft.id)' any more (saved or discarded already?)")
            }
            guard !StoreFiles.exists(path(draft.id + ".txt")) else {
                throw CommandError("a transcript '\(draft.id)' is already saved")
            }
            var header = Self.header(of: draft)
            let given = TranscriptHeader.oneLine(title ?? "").trimmingCharacters(in: .whitespaces)
            header.title = given.isEmpty ? Self.defaultTitle(draft.transcript) : given
            // The length is the draft's: its writer's (`DraftWriter.duration`: the samples the
            // WAV's header describes), or the WAV's as it was read for a draft found on disk.
            let hasAudio = StoreFiles.exists(base + ".wav")
            if hasAudio {
                WaveFile.repair(base + ".wav")
                chmod(base + ".wav", 0o600)
            }
            try AtomicFile.write(WordTimings.json(draft.words), to: path(draft.id + ".json"))
            if hasAudio { try StoreFiles.move(base + ".wav", to: path(draft.id + ".wav")) }
            let text = header.rendered(text: draft.transcript)
            try AtomicFile.write(text, to: path(draft.id + ".txt"))
            changes.append(StoreIndex.Change(name: draft.id, state: .file(Array(text.utf8), hasAudio: hasAudio)))
            unlink(base + ".txt")
            unlink(base + ".words")
            unlink(base + ".json")
            return Item(
                id: draft.id, title: header.title!, created: draft.created, duration: header.duration ?? 0,
                quality: draft.quality.rawValue, sampleRate: draft.sampleRate, source: draft.source,
                audio: header.audio, hasAudio: hasAudio, directory: directory, text: StoreText(draft.transcript))
        }
    }

    /// Moves a draft's files to the trash (as one batch, so `undo` brings it back).
    package func discard(_ draft: Draft) throws {
        try change { _ in
            let names = (StoreFiles.names(in: draftsDirectory) ?? []).filter { $0.hasPrefix(draft.id + ".") }
            guard !names.isEmpty else { throw CommandError("there is no draft '\(draft.id)'") }
            let batch = try newBatch() + "/drafts"
            try StoreFiles.makeDirectory(batch)
            for name in names {
                try StoreFiles.move(draftsDirectory + "/" + name, to: batch + "/" + name)
            }
        }
    }

    /// Removes a draft whose recording never started (its audio could not be written, or
    /// nothing could transcribe it): there is nothing in it to keep, to offer at the next
    /// start, or to bring back with `undo`.
    package func abandon(_ draft: Draft) throws {
        try change { _ in
            for name in (StoreFiles.names(in: draftsDirectory) ?? []) where name.hasPrefix(draft.id + ".") {
                let file = draftsDirectory + "/" + name
                if unlink(file) != 0 && errno != ENOENT { throw FileError.current("cannot remove \(file)", path: file) }
            }
        }
    }

    /// The unsaved drafts, oldest first, and a warning for each damaged draft file (the
    /// draft is still listed from its audio). A draft whose transcript was already saved
    /// (a save interrupted at its last step) is finished off here.
    package func drafts() throws -> (drafts: [Draft], warnings: [String]) {
        recoverIfInterrupted()
        var warnings = takeNotices()
        guard let names = StoreFiles.names(in: draftsDirectory) else { return ([], warnings) }
        let ids = Set(names.filter { !$0.hasPrefix(".") }.map(Self.id(of:)))
        var drafts: [Draft] = []
        for id in ids.sorted() {
            if StoreFiles.exists(path(id + ".txt")) {
                try change { _ in
                    for ext in [".txt", ".words", ".json"] { unlink(draftsDirectory + "/" + id + ext) }
                }
                continue
            }
            let (draft, damage) = load(id)
            if let draft { drafts.append(draft) }
            if let damage { warnings.append(damage) }
        }
        return (drafts.sorted { ($0.created, $0.id) < ($1.created, $1.id) }, warnings)
    }

    /// The draft `id` as its files now are; nil when there is none. When the `.txt` is
    /// missing or damaged but the WAV exists (a crash before the header), the draft is
    /// made from the WAV and its id; a damaged `.txt` throws only without a WAV.
    package func draft(_ id: String) throws -> Draft? {
        guard Self.isPlausibleID(id) else { return nil }
        let (draft, damage) = load(id)
        if draft == nil, let damage { throw CommandError(damage) }
        return draft
    }

    /// A draft from its files, and what is wrong with its `.txt` if anything.
    private func load(_ id: String) -> (Draft?, damage: String?) {
        let base = draftsDirectory + "/" + id
        let wave = WaveFile(path: base + ".wav")
        var header: TranscriptHeader?
        var text = ""
        var damage: String?
        if let bytes = StoreFiles.read(base + ".txt") {
            do {
                (header, text) = try TranscriptFile.read(bytes)
            } catch {
                damage = "\(base).txt is damaged: \(error); it was left as it is"
            }
        }
        guard header != nil || StoreFiles.exists(base + ".wav") else { return (nil, damage) }
        let offsets = LocalOffsets(timeZone)
        let created = header?.created ?? StoreID.localSeconds(of: id).map { local in
            let offset = offsets.offset(at: local - Int64(offsets.offset(at: local)))
            return StoreDate(seconds: local - Int64(offset), offset: offset)
        } ?? StoreDate(Self.modified(base + ".wav") ?? now, timeZone: timeZone)
        let rate = header?.sampleRate ?? wave?.sampleRate ?? Quality.medium.sampleRate
        // The words as appended (`<id>.words`); a draft of an earlier vsh has them in its
        // `.txt` and `.json`, the seconds written down in the header.
        var words = WordTimings.read(base + ".json") ?? []
        var transcribed = header?.duration ?? 0
        if let appended = DraftWords.read(base + ".words") {
            (text, words, transcribed) = (appended.text, appended.words, appended.seconds)
        }
        var draft = Draft(
            id: id, audioPath: base + ".wav", created: created,
            quality: header?.quality.flatMap(Quality.init(rawValue:))
                ?? Quality.allCases.first { $0.sampleRate == rate } ?? .medium,
            sampleRate: rate, source: header?.source ?? "unknown",
            duration: wave?.seconds ?? transcribed, transcript: text, words: words, transcribedSeconds: transcribed)
        draft.writtenWords = words.count
        draft.writtenTranscript = text
        return (draft, damage)
    }

    /// Whether `id` is in use anywhere: saved, draft, or in any batch of the trash.
    private func isTaken(_ id: String) -> Bool {
        var places = [directory, draftsDirectory]
        for batch in StoreFiles.names(in: trashDirectory) ?? [] {
            places += [trashDirectory + "/" + batch, trashDirectory + "/" + batch + "/drafts"]
        }
        return places.contains { dir in [".txt", ".wav", ".json"].contains { StoreFiles.exists(dir + "/" + id + $0) } }
    }

    /// The draft's header, once, as it begins; its words go to `<id>.words` (`updateDraft`).
    private func write(_ draft: Draft) throws {
        try AtomicFile.write(Self.header(of: draft).rendered(text: ""), to: draftsDirectory + "/" + draft.id + ".txt")
    }

    private static func header(of draft: Draft) -> TranscriptHeader {
        var header = TranscriptHeader()
        header.id = draft.id
        header.created = draft.created
        header.duration = draft.duration
        header.quality = draft.quality.rawValue
        header.sampleRate = draft.sampleRate
        header.audio = draft.id + ".wav"
        header.source = draft.source
        return header
    }

    /// The first six words of the transcript, or "Untitled recording".
    static func defaultTitle(_ transcript: String) -> String {
        let words = transcript.split(whereSeparator: { $0.isWhitespace })
        return words.isEmpty ? untitled : words.prefix(6).joined(separator: " ")
    }

    private static func modified(_ path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
    }
}
