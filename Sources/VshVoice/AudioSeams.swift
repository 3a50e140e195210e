/// The voice pipeline's seams. VshVoice defines them; VshAudio implements them with ALSA,
/// SpeexDSP and PocketSphinx; tests use fakes.

/// A source of 16 kHz mono 16-bit audio: a microphone, a file, a test fake.
package protocol AudioSource: AnyObject {
    /// A name for messages (device or file name).
    var name: String { get }
    /// Fills `buffer` with up to `buffer.count` samples and returns how many it wrote;
    /// 0 means the stream ended. Throws when the source fails (device vanished).
    func read(into buffer: inout [Int16]) throws -> Int
}

extension AudioSource {
    /// Everything up to the end of the stream: for files and takes, not for long recordings.
    package func readToEnd() throws -> [Int16] {
        var all: [Int16] = []
        var buffer = [Int16](repeating: 0, count: 16_384)
        while true {
            let count = try read(into: &buffer)
            if count == 0 { return all }
            all += buffer[0..<count]
        }
    }
}

/// Cleans audio before recognition (noise suppression, gain control), in place.
package protocol Preprocessor: AnyObject {
    func process(_ frame: inout [Int16])
}

/// Recognises free speech: dictation with a language model, or keyword spotting.
/// Either as it arrives, one utterance at a time (`begin`, `feed` returns the words so
/// far, `end`), or a whole utterance at once, which is more accurate: the decoder can
/// normalise the audio over the whole utterance rather than guess from what came before.
package protocol StreamingRecognizer: AnyObject {
    func recognize(_ samples: [Int16], start: Double) -> Recognition
    /// `start`: where the utterance begins in the stream (seconds), for word times.
    func begin(at start: Double)
    /// Adds audio; returns the hypothesis so far (a partial result).
    func feed(_ samples: [Int16]) -> String
    func end() -> Recognition
}
