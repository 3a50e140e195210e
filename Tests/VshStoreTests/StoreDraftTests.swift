import Foundation
import Testing
@testable import VshAudioFiles
@testable import VshCore
@testable import VshStore
@testable import VshTestSupport

@Suite struct StoreDraftTests {
    @Test func aDraftExistsFromTheStartAndFollowsUpdates() throws {
        let f = StoreFixture()
        let draft = try f.store.beginDraft(quality: .high, sampleRate: 48000, source: "file notes.wav")
        #expect(draft.audioPath == f.path + "/drafts/\(draft.id).wav")
        #expect(try f.makeStore().drafts().drafts.map(\.id) == [draft.id])
        WaveFixture.write(draft.audioPath, seconds: 1.5, rate: 48000)
        let words = [RecognizedWord(word: "hello", start: 0.1, end: 0.4, confidence: 0.9),
                     RecognizedWord(word: "world", start: 0.5, end: 0.875, confidence: 0.75)]
        try f.store.updateDraft(draft, transcript: "hello world", words: words, duration: 1.2)
        let found = try #require(try f.makeStore().drafts().drafts.first)
        #expect(found.transcript == "hello world")
        #expect(found.words == words)
        #expect(found.duration == 1.5, "the WAV's data is the truth for the length")
        #expect(found.quality == .high && found.source == "file notes.wav")
        let item = try f.store.save(found, title: nil)
        #expect(f.store.words(of: item.id) == words)
        #expect(f.directory.read("store/\(item.id).json")
                == "{\"words\":[{\"word\":\"hello\",\"start\":0.1,\"end\":0.4,\"confidence\":0.9},{\"word\":\"world\",\"start\":0.5,\"end\":0.875,\"confidence\":0.75}]}\n")
        #expect(throws: CommandError.self) { try f.store.save(found, title: nil) }
    }

    /// Each utterance's words are appended to the draft as a line, never rewritten: what
    /// was written down stays byte for byte, and a line torn by a kill is left out while
    /// the lines before it, and those appended after it, read whole.
    @Test func aDraftsWordsAreAppendedAndATornLineIsLeftOut() throws {
        let f = StoreFixture()
        var draft = try f.store.beginDraft(quality: .medium, sampleRate: 16000, source: "test")
        let file = f.path + "/drafts/\(draft.id).words"
        draft.append([RecognizedWord(word: "buy", start: 0.1, end: 0.3, confidence: 0.9)])
        draft = try f.store.updateDraft(draft, duration: 1.0)
        let first = try #require(f.directory.read("store/drafts/\(draft.id).words"))
        #expect(first == "{\"seconds\":1,\"text\":\"buy\",\"words\":[{\"word\":\"buy\",\"start\":0.1,\"end\":0.3,\"confidence\":0.9}]}\n")
        draft.append([RecognizedWord(word: "milk", start: 1.2, end: 1.5, confidence: 0.8)])
        draft = try f.store.updateDraft(draft, duration: 2.0)
        let second = try #require(f.directory.read("store/drafts/\(draft.id).words"))
        #expect(second.hasPrefix(first) && second.split(separator: "\n").count == 2, "appended: \(second)")
        // Killed while appending: half a line at the end.
        let handle = try #require(FileHandle(forWritingAtPath: file))
        handle.seekToEndOfFile()
        handle.write(Data("{\"seconds\":3,\"text\":\"and br".utf8))
        handle.closeFile()
        let found = try #require(try f.makeStore().draft(draft.id))
        #expect(found.transcript == "buy milk" && found.words.map(\.word) == ["buy", "milk"])
        #expect(found.transcribedSeconds == 2.0)
        // Recording goes on after the torn line: the next line stands on its own.
        var again = found
        again.append([RecognizedWord(word: "eggs", start: 3.1, end: 3.4, confidence: 0.7)])
        _ = try f.store.updateDraft(again, duration: 4.0)
        let later = try #require(try f.makeStore().draft(draft.id))
        #expect(later.transcript == "buy milk eggs" && later.transcribedSeconds == 4.0, "\(later.transcript)")
        // A transcript replaced (save transcribing what a crash left) is written anew.
        _ = try f.store.updateDraft(later, transcript: "all of it", words: [], duration: 4.5)
        #expect(f.directory.read("store/drafts/\(draft.id).words")
                == "{\"seconds\":4.5,\"text\":\"all of it\",\"words\":[]}\n")
        let saved = try f.store.save(try #require(try f.makeStore().draft(draft.id)), title: nil)
        #expect(saved.title == "all of it")
        #expect(!FileManager.default.fileExists(atPath: file), "saving removes the draft's words")
    }

    /// A draft an earlier vsh wrote (its transcript in the `.txt`, its words in the `.json`,
    /// no `.words`) still reads and saves.
    @Test func aDraftOfAnEarlierVshStillReads() throws {
        let f = StoreFixture()
        let draft = try f.store.beginDraft(quality: .medium, sampleRate: 16000, source: "test")
        let base = f.path + "/drafts/" + draft.id
        let header = try #require(f.directory.read("store/drafts/\(draft.id).txt"))
        let older = header.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("Duration:") ? "Duration: 2.5" : String($0) }.joined(separator: "\n")
        try (older + "an old note\n")
            .write(toFile: base + ".txt", atomically: true, encoding: .utf8)
        try "{\"words\":[{\"word\":\"an\",\"start\":0.1,\"end\":0.2,\"confidence\":0.9}]}\n"
            .write(toFile: base + ".json", atomically: true, encoding: .utf8)
        let found = try #require(try f.makeStore().draft(draft.id))
        #expect(found.transcript == "an old note" && found.words.map(\.word) == ["an"])
        #expect(found.transcribedSeconds == 2.5)
    }

    @Test func aWavOnlyDraftFromACrashIsListedAndSaved() throws {
        let f = StoreFixture()
        try FileManager.default.createDirectory(atPath: f.path + "/drafts", withIntermediateDirectories: true)
        // kill -9 before the header was written and before the WAV's sizes were filled in.
        let id = "20261121-jg54"
        WaveFixture.write(f.path + "/drafts/\(id).wav", seconds: 2.5, declaredDataSize: 0)
        let (drafts, warnings) = try f.store.drafts()
        #expect(warnings.isEmpty)
        let draft = try #require(drafts.first)
        #expect(draft.id == id)
        #expect(draft.duration == 2.5)
        #expect(draft.created == StoreDate(iso: "2026-11-21T14:02:11+01:00"))
        #expect(draft.transcript == "" && draft.sampleRate == 16000 && draft.quality == .medium)
        let item = try f.store.save(draft, title: "Recovered")
        #expect(item.duration == 2.5 && item.title == "Recovered")
        let wave = try #require(WaveFile(path: f.path + "/\(id).wav"))
        #expect(!wave.sizesStale, "save fills in the sizes the recorder never wrote")
        #expect(wave.dataBytes == 80_000)
    }

    @Test func aDamagedDraftHeaderStillLeavesTheAudioRecoverable() throws {
        let f = StoreFixture()
        let draft = try f.store.beginDraft(quality: .medium, sampleRate: 16000, source: "test")
        WaveFixture.write(draft.audioPath, seconds: 1)
        let txt = f.path + "/drafts/\(draft.id).txt"
        try Data([0xff, 0xfe, 0x00, 0x41]).write(to: URL(fileURLWithPath: txt))
        let (drafts, warnings) = try f.store.drafts()
        #expect(drafts.map(\.id) == [draft.id])
        #expect(warnings == ["\(txt) is damaged: binary data, not text; it was left as it is"])
    }

    @Test func discardGoesToTheTrashAndUndoBringsItBack() throws {
        let f = StoreFixture()
        let draft = try f.store.beginDraft(quality: .medium, sampleRate: 16000, source: "test")
        WaveFixture.write(draft.audioPath, seconds: 1)
        try f.store.discard(draft)
        #expect(try f.store.drafts().drafts.isEmpty)
        #expect(f.store.trash().first?.drafts == [draft.id])
        #expect(try f.store.undo() == TranscriptStore.Restored(items: [], drafts: [draft.id]))
        #expect(try f.store.drafts().drafts.map(\.id) == [draft.id])
    }

    @Test func anInterruptedSaveIsFinishedWhenDraftsAreListed() throws {
        let f = StoreFixture()
        let item = try f.save("done", at: "2026-11-21T10:00:00")
        // As if vsh died after writing the transcript but before removing the draft's header.
        f.directory.write("Id: \(item.id)\nCreated: 2026-11-21T10:00:00+01:00\n\ndone\n", to: "store/drafts/\(item.id).txt")
        #expect(try f.store.drafts().drafts.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: f.path + "/drafts/\(item.id).txt"))
        #expect(try f.store.item(item.id) == item)
    }

    @Test func saveCommandExplainsHowToPickADraft() throws {
        let f = StoreFixture()
        let harness = f.harness()
        #expect(harness.script(["save"]) == 1)
        #expect(harness.error.text == "line 1: error: save: nothing to save: no recording has been made\n")
        let draft = try f.store.beginDraft(quality: .medium, sampleRate: 16000, source: "test")
        let again = f.harness()
        #expect(again.script(["save", "drafts"]) == 1)
        #expect(again.error.text == "line 1: error: save: no recording was made in this session; 1 unsaved draft from earlier: 'drafts' lists them, 'save --draft ID' keeps one\n")
        #expect(again.output.text.hasPrefix("\(draft.id)  Sat 21 Nov 2026 15:00  0:00  (no transcript)\n"))
        let third = f.harness()
        third.session.currentDraft = draft
        #expect(third.script(["save Weekly plan"]) == 0)
        #expect(third.output.text == "saved \(draft.id): Weekly plan\n")
        #expect(third.session.currentDraft == nil)
    }
}
