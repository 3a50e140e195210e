import Foundation
import VshCore
import VshVoice

/// A sink that keeps what was written, for assertions.
package final class BufferSink: TextSink {
    package private(set) var text = ""
    /// Stands for a terminal: commands write their status lines to it.
    package let isTerminal: Bool
    package init(isTerminal: Bool = false) { self.isTerminal = isTerminal }
    package func write(_ text: String) { self.text += text }
    /// Forgets what was written so far.
    package func clear() { text = "" }
}

/// A line reader that plays back a fixed list of inputs, then reports the end.
package final class ScriptedLineReader: LineReader {
    private var inputs: [LineInput]
    package private(set) var prompts: [String] = []
    package private(set) var recalled: [String] = []

    package init(_ inputs: [LineInput]) { self.inputs = inputs }
    package convenience init(lines: [String]) { self.init(lines.map { .line($0) }) }

    package func readLine(prompt: String) -> LineInput {
        prompts.append(prompt)
        return inputs.isEmpty ? .endOfInput : inputs.removeFirst()
    }

    package func addToRecall(_ line: String) { recalled.append(line) }
}

/// Audio from memory, delivered in the pieces the reader asks for, then the end.
package final class FakeAudioSource: AudioSource {
    package let name = "test audio"
    private var samples: ArraySlice<Int16>

    package init(_ samples: [Int16]) { self.samples = samples[...] }

    package func read(into buffer: inout [Int16]) throws -> Int {
        let n = min(buffer.count, samples.count)
        buffer.replaceSubrange(0..<n, with: samples.prefix(n))
        samples = samples.dropFirst(n)
        return n
    }
}

/// A command recogniser that answers from a script, one recognition per utterance (then
/// nothing heard), and counts the utterances it was given.
package final class FakeRecognizer: CommandRecognizer, @unchecked Sendable {
    private let answers = Locked<(script: [Recognition], calls: Int)>(([], 0))

    /// `script`: (words, confidence) for each utterance in turn.
    package convenience init(_ script: [([String], Double)]) {
        self.init(recognitions: script.map { words, confidence in
            Recognition(
                words: words.map { RecognizedWord(word: $0, start: 0, end: 0, confidence: confidence) },
                confidence: confidence)
        })
    }

    /// `recognitions`: what it hears in each utterance in turn, word times and features
    /// included.
    package init(recognitions: [Recognition]) {
        answers.withLock { $0.script = recognitions }
    }

    /// How many utterances it has been asked to recognise.
    package var calls: Int { answers.withLock { $0.calls } }

    package func recognize(_ samples: [Int16], start: Double) -> Recognition {
        answers.withLock { state in
            state.calls += 1
            return state.script.isEmpty ? Recognition(words: [], confidence: 0) : state.script.removeFirst()
        }
    }
}

/// A front end that leaves the audio as it is.
package final class PassThroughPreprocessor: Preprocessor {
    package init() {}
    package func process(_ frame: inout [Int16]) {}
}

/// Test audio: steady low noise with louder tone bursts where speech would be, so the
/// endpointer finds an utterance in each burst. `parts` alternate silence and speech
/// lengths in seconds, starting with silence. `tone` is the bursts' amplitude (4,000:
/// about −21 dBFS, over noise at −55 dBFS; above 32,767 they clip). A steady tone held
/// for a second is a hum to the endpointer, not speech: a burst that long needs
/// `syllables` (a rate in Hz), which swings its level some 20 dB the way syllables do.
package enum TestSignal {
    package static func bursts(_ parts: [Double], seed: UInt32 = 7, tone amplitude: Double = 4_000,
                               syllables: Double? = nil) -> [Int16] {
        var seed = seed
        var out: [Int16] = []
        for (i, seconds) in parts.enumerated() {
            let n = Int(seconds * Double(AudioFormat.sampleRate))
            for k in 0..<n {
                seed = seed &* 1_103_515_245 &+ 12_345
                let noise = Double(Int(seed >> 16) % 201 - 100)
                let t = Double(k) / Double(AudioFormat.sampleRate)
                let envelope = syllables.map { 0.55 - 0.45 * cos(2 * Double.pi * $0 * t) } ?? 1
                let tone = i % 2 == 1 ? amplitude * envelope * sin(2 * Double.pi * 300 * t) : 0
                out.append(Int16(clamping: Int((noise + tone).rounded())))
            }
        }
        return out
    }
}
