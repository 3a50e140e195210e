import VshCore

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
