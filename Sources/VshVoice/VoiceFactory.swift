import Foundation
import VshCore

/// The voice pipeline as the settings make it: the one place that decides the front end and
/// when its audio is used, the endpointer, and how a command recogniser is loaded. `vsh
/// listen`, `vsh transcribe`, `record` and the prompt's listener all build their
/// pipelines here. The real parts (SpeexDSP, PocketSphinx) come in through the two
/// factories (`VoiceFactory.system` in VshAudio); tests pass fakes.
package struct VoiceFactory {
    package let settings: Settings
    /// Makes a front end that suppresses noise and/or controls gain.
    let makeFrontEnd: (_ denoise: Bool, _ gainControl: Bool) -> Preprocessor
    /// Loads a recogniser for a grammar.
    let makeRecognizer: (_ grammar: CommandGrammar) throws -> CommandRecognizer
    /// Names the speech model a recogniser made now would load: when it changes (`train`
    /// adapted the model, or `train reset` put the stock one back) the listener reloads.
    package let model: () -> String

    package init(
        settings: Settings,
        frontEnd: @escaping (_ denoise: Bool, _ gainControl: Bool) -> Preprocessor,
        recognizer: @escaping (_ grammar: CommandGrammar) throws -> CommandRecognizer,
        model: @escaping () -> String = { "" }
    ) {
        self.settings = settings
        self.makeFrontEnd = frontEnd
        self.makeRecognizer = recognizer
        self.model = model
    }

    /// The front end, when noise suppression or gain control is on.
    package func frontEnd() -> Preprocessor? {
        let denoise = settings.denoise != .off
        guard denoise || settings.gainControl else { return nil }
        return makeFrontEnd(denoise, settings.gainControl)
    }

    /// Which audio a command recogniser gets: with `denoise = auto` (and no gain control)
    /// the front end's only for noisy utterances, since suppression costs clean speech.
    package var frontEndUse: VoicePipeline.FrontEndUse {
        settings.denoise == .auto && !settings.gainControl ? .belowSNR(Settings.denoiseBelowSNR) : .always
    }

    package func endpointer() -> Endpointer {
        var endpointing = Endpointer.Settings()
        endpointing.hangover = settings.hangover
        endpointing.earlyPause = settings.earlyEnd
        endpointing.earlyCut = Int(ProcessInfo.processInfo.environment["VSH_EARLY_CUT"] ?? "") ?? Self.earlyCut
        return Endpointer(settings: endpointing)
    }

    /// Milliseconds of quiet at which the utterance the early end is asked about is cut
    /// (`Endpointer.Settings.earlyCut`), so that its decode begins while the endpointer
    /// waits for `voice.early_end_ms`. 50: at the prompt (bench/prompt.py, one run each on
    /// a quiet machine) a spoken command started a median 270 ms after the end of speech
    /// instead of 330, at the same CPU; 2 of 485 Speech Commands clips and 2 of 485 at the
    /// prompt's grammar were decided otherwise than when cut at the pause (quick subset),
    /// and talk by held-out speakers ran the same 8.1 commands an hour (words said alone:
    /// 24 runs in 35 min instead of 22). Deciding every utterance on audio cut at 50 ms,
    /// the full hangover's too, was faster still (median 206-240 ms) but heard a fifth of
    /// the talk otherwise and ran 13.6 commands an hour of it
    /// (research/recognition/EARLY_END.md, session 24). `VSH_EARLY_CUT` sets another for
    /// research (0: cut at the pause).
    static let earlyCut = 50

    /// A recogniser for `grammar`.
    package func recognizer(for grammar: CommandGrammar) throws -> CommandRecognizer {
        try makeRecognizer(grammar)
    }

    /// The gate for what `recognizer` hears: the configured thresholds with what `train`
    /// calibrated for the model it loaded.
    package func gate(for recognizer: CommandRecognizer) -> Gate {
        Gate(settings: settings, calibration: recognizer.calibration)
    }

    /// Audio to recognised utterances. `ending` (the grammar's, asked of the words heard
    /// so far) says which are a whole command, and whether it can grow: one that cannot
    /// ends after `voice.early_end_ms` of quiet when vsh is sure of it (`EarlyEnd`), one
    /// that can after the full hangover, as it was heard then unless more was said; without
    /// it every utterance waits for the hangover and is decided on all of it.
    package func commandPipeline(
        source: AudioSource, recognizer: CommandRecognizer, ending: (([String]) -> PhraseEnding?)? = nil
    ) -> VoicePipeline {
        let early = ending.flatMap { ending in
            settings.earlyEnd > 0 && settings.earlyEnd < settings.hangover
                ? EarlyEnd(pause: settings.earlyEnd, minimumConfidence: max(settings.voiceThreshold, EarlyEnd.defaultConfidence),
                           ending: ending)
                : nil
        }
        return VoicePipeline(
            source: source, frontEnd: frontEnd(), frontEndUse: frontEndUse, endpointer: endpointer(),
            recognizer: recognizer, earlyEnd: early)
    }

    /// Audio to free text (dictation or keyword spotting).
    package func dictationPipeline(source: AudioSource, recognizer: StreamingRecognizer, interim: Bool) -> DictationPipeline {
        DictationPipeline(
            source: source, frontEnd: frontEnd(), useProcessed: settings.denoise == .on, endpointer: endpointer(),
            recognizer: recognizer, interim: interim)
    }
}
