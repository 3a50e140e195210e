import Foundation
import VshAudio
import VshCore
import VshStore
import VshVoice
import VshCommands
import VshTraining

/// The real audio side of record and play: ALSA, libsndfile, SpeexDSP, PocketSphinx.
final class SystemAudioServices: AudioServices, TrainingServices, SpeechModelOwner {
    let settings: Settings
    let paths: Paths
    /// The capture device or audio file `--audio-in` named (default: voice.device).
    let input: AudioInput
    let output: String
    /// False with `--no-voice`: files are recorded and transcribed, no device is opened.
    let devices: Bool
    /// Loaded on first use, again when `train` changed the model.
    private var loadedDictation: (SpeechModel, SphinxDictation)?
    private var loadedStop: (SpeechModel, String, CommandRecognizer)?

    init(settings: Settings, paths: Paths, input: String?, output: String?, devices: Bool = true) {
        self.settings = settings
        self.paths = paths
        self.devices = devices
        self.input = AudioInput.resolve(input ?? settings.audioDevice)
        self.output = output ?? "default"
    }

    func recordingInput(file: String?, rate: Int) throws -> RecordingInput {
        let source: RecordingSource
        switch (file, input) {
        case (let file?, _), (nil, .file(let file)):
            // `--audio-in` may name a file that stands in for the microphone.
            source = try RecordingSource(file: file, rate: rate)
        case (nil, .device(let device)):
            guard devices else {
                throw CommandError("vsh was started with --no-voice, so it opens no microphone; start it without --no-voice, "
                    + "or use audio files: 'record --from FILE' records one, 'train --from DIR' trains on a directory of them")
            }
            source = try RecordingSource.microphone(device: device, rate: rate)
        }
        return source
    }

    func dictation() throws -> StreamingRecognizer {
        let model = speechModel
        if let (loadedFor, dictation) = loadedDictation, loadedFor == model { return dictation }
        PocketSphinxLog.send(to: paths.recognizerLog)
        let dictation = try SphinxDictation(model: model)
        loadedDictation = (model, dictation)
        return dictation
    }

    var factory: VoiceFactory { .system(settings: settings, paths: paths) }

    /// The stop phrase's recogniser: the prompt's kind (`SphinxCommandRecognizer`), over
    /// the phrase and the other words.
    func stopRecognizer(for grammar: CommandGrammar) throws -> CommandRecognizer? {
        let model = speechModel
        if let (loadedFor, jsgf, recognizer) = loadedStop, loadedFor == model, jsgf == grammar.jsgf { return recognizer }
        let recognizer = try factory.recognizer(for: grammar)
        loadedStop = (model, grammar.jsgf, recognizer)
        return recognizer
    }

    func modelAdapter() throws -> (adapter: ModelAdapter, base: String) {
        let model = speechModel
        return (try SphinxAdaptation(model: model, workDirectory: paths.state), model.stockAcousticModel)
    }

    func hearing(adaptedIn directory: String, base: String, grammar: CommandGrammar) throws -> Hearing {
        let model = SpeechModel(directory: settings.modelDirectory, adapted: directory)
        guard model.stockAcousticModel == base else {
            throw CommandError("the takes were adapted from \(base), not from voice.model's \(model.stockAcousticModel)")
        }
        PocketSphinxLog.send(to: paths.recognizerLog)
        // The prompt's weights for the grammar, so that what `train` calibrates on the
        // takes is what the prompt's gate will meet.
        let common = VoiceFactory.commonWordWeight(for: grammar, environment: ProcessInfo.processInfo.environment)
        let recognizer = try SphinxCommandRecognizer(
            settings: .init(model: model, scoresSpeaker: false, commonWordWeight: common), jsgf: grammar.jsgf,
            vocabulary: grammar.vocabulary, workDirectory: paths.state)
        // Loaded on the first score: a hearing of the takes' phrases asks for none.
        var scorer: SpeakerScorer?
        return Hearing(recognize: { recognizer.recognize($0, start: 0) }, speakerScore: { utterance in
            if scorer == nil { scorer = try SpeakerScorer(stock: base, adapted: directory) }
            return scorer?.score(utterance: utterance)
        })
    }

    func play(path: String, progress: (Double, Double) -> Bool) throws {
        guard devices else {
            throw CommandError("vsh was started with --no-voice, so it opens no sound device; start it without --no-voice to play \(path)")
        }
        try AudioPlayer.play(path: path, device: output, progress: progress)
    }
}
