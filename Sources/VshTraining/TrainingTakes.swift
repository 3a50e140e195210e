import Foundation
import VshAudioFiles
import VshCore
import VshStore

/// The phrases a person recorded for `train`, kept so that a later model or a better
/// recipe can adapt again without asking them to speak again (`train --again`), and so
/// that an interrupted training resumes. One 16 kHz mono WAV per take, `NAME.wav`, with
/// its words in `NAME.txt`; sealed like the store's other audio while it encrypts.
package struct TrainingTakes: Sendable {
    package struct Take: Sendable, Equatable {
        package var name: String
        package var audioPath: String
        package var words: String

        package init(name: String, audioPath: String, words: String) {
            self.name = name
            self.audioPath = audioPath
            self.words = words
        }
    }

    package let directory: String
    /// The key to seal takes with (nil: plain). Throws when the store encrypts and the key
    /// is missing: then no take is written rather than a plain one.
    package var sealing: @Sendable () throws -> AudioKey? = { nil }

    /// The takes of the store at `store`.
    package init(store: String) {
        directory = store + "/" + TranscriptStore.trainingDirectoryName
    }

    /// Every take with both its audio and its words, by name.
    package func all() -> [Take] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".txt") && !$0.hasPrefix(".") }.sorted().compactMap { file in
            let name = String(file.dropLast(4))
            let audio = directory + "/" + name + ".wav"
            guard FileManager.default.fileExists(atPath: audio),
                  let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else { return nil }
            let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return words.isEmpty ? nil : Take(name: name, audioPath: audio, words: words)
        }
    }

    /// Moves a take into `.left-out/` beside the takes: it is no longer listed, so its
    /// phrase counts as not recorded, and nothing is lost.
    package func setAside(_ take: Take) throws {
        let aside = directory + "/.left-out"
        try FileManager.default.createDirectory(atPath: aside, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for file in [take.name + ".wav", take.name + ".txt"] {
            try? FileManager.default.removeItem(atPath: aside + "/" + file)
            try FileManager.default.moveItem(atPath: directory + "/" + file, toPath: aside + "/" + file)
        }
    }

    /// The take name of phrase `index` (from 0) of the script: `001`, `002`…
    package static func scriptName(_ index: Int) -> String { String(format: "%03d", index + 1) }

    /// Writes (or replaces) a take: the audio first, the words last, so a take is listed
    /// only once it is whole.
    @discardableResult
    package func save(_ samples: [Int16], words: String, name: String) throws -> Take {
        let wav = WavWriter.bytes(samples, rate: AudioFormat.sampleRate)
        return try save(sealedWAV: try sealing().map { Data(SealedAudio.seal(Array(wav), key: $0)) } ?? wav,
                        words: words, name: name)
    }

    /// Writes a take from audio already in the store's form (a WAV, sealed while the store
    /// encrypts: a history clip), the words last.
    @discardableResult
    package func save(sealedWAV audio: Data, words: String, name: String) throws -> Take {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory + "/" + name + ".wav"
        try AtomicFile.write(audio, to: path)
        try AtomicFile.write(Data((words + "\n").utf8), to: directory + "/" + name + ".txt")
        return Take(name: name, audioPath: path, words: words)
    }
}
