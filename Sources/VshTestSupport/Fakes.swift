import VshCore
import VshStore
import VshVoice
import VshCommands

/// A sink that keeps what was written, for assertions.
public final class BufferSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
}

/// A line reader that plays back a fixed list of inputs, then reports the end.
public final class ScriptedLineReader: LineReader {
    private var inputs: [LineInput]
    public private(set) var prompts: [String] = []
    public private(set) var recalled: [String] = []

    public init(_ inputs: [LineInput]) { self.inputs = inputs }
    public convenience init(lines: [String]) { self.init(lines.map { .line($0) }) }

    public func readLine(prompt: String) -> LineInput {
        prompts.append(prompt)
        return inputs.isEmpty ? .endOfInput : inputs.removeFirst()
    }

    public func addToRecall(_ line: String) { recalled.append(line) }
}

/// Audio from memory, delivered in the pieces the reader asks for, then the end.
public final class FakeAudioSource: AudioSource {
    public let name = "test audio"
    private var samples: ArraySlice<Int16>

    public init(_ samples: [Int16]) { self.samples = samples[...] }

    public func read(into buffer: inout [Int16]) throws -> Int {
        let n = min(buffer.count, samples.count)
        buffer.replaceSubrange(0..<n, with: samples.prefix(n))
        samples = samples.dropFirst(n)
        return n
    }
}
