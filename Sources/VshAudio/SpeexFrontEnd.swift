import CSpeexDSP
import VshCore
import VshVoice

/// SpeexDSP's preprocessor as vsh's front end: noise suppression and automatic gain
/// control on 10 ms frames of 16 kHz audio. Its VAD is a placeholder and stays off (it
/// is off by default; even switching it off prints a warning, so vsh leaves it alone).
/// Owns the SpeexPreprocessState; destroyed in deinit.
package final class SpeexFrontEnd: Preprocessor {
    package struct Settings: Sendable, Equatable {
        package var denoise: Bool
        package var gainControl: Bool
        /// Loudness AGC aims for (SpeexDSP's AGC level, 1…32768).
        package var gainTarget: Float = 8_000

        package init(denoise: Bool, gainControl: Bool) {
            self.denoise = denoise
            self.gainControl = gainControl
        }
    }

    package static let frameLength = 160
    /// Owned: speex_preprocess_state_destroy in deinit.
    private let state: OpaquePointer
    package let settings: Settings
    private var pending: [Int16] = []

    package init(settings: Settings) {
        guard let state = speex_preprocess_state_init(Int32(Self.frameLength), Int32(AudioFormat.sampleRate)) else {
            preconditionFailure("SpeexDSP could not allocate a preprocessor")  // out of memory
        }
        self.state = state
        self.settings = settings
        var denoise: Int32 = settings.denoise ? 1 : 0
        var agc: Int32 = settings.gainControl ? 1 : 0
        speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_DENOISE, &denoise)
        speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_AGC, &agc)
        if settings.gainControl {
            var level = settings.gainTarget
            speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_AGC_LEVEL, &level)
        }
    }

    deinit { speex_preprocess_state_destroy(state) }

    /// Processes whole 10 ms frames in place; a trailing partial frame is held back and
    /// processed with the next call, so `frame` may come back shorter or longer.
    package func process(_ frame: inout [Int16]) {
        guard settings.denoise || settings.gainControl else { return }
        pending += frame
        let whole = pending.count / Self.frameLength * Self.frameLength
        pending.withUnsafeMutableBufferPointer { buf in
            var offset = 0
            while offset < whole {
                _ = speex_preprocess_run(state, buf.baseAddress! + offset)
                offset += Self.frameLength
            }
        }
        frame = Array(pending[0..<whole])
        pending.removeFirst(whole)
    }
}
