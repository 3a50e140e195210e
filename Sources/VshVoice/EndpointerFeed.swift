import VshCore
import VshStore

/// Reads a source and feeds an endpointer: the front end works in whole 10 ms frames
/// on a copy of the audio, so the raw and processed audio are fed in whole frames,
/// aligned sample for sample. Both pipelines read their sources through this.
struct EndpointerFeed {
    let source: AudioSource
    let frontEnd: Preprocessor?
    let endpointer: Endpointer
    private var buffer: [Int16]
    private var pending: [Int16] = []

    init(source: AudioSource, frontEnd: Preprocessor?, endpointer: Endpointer, chunk: Int) {
        self.source = source
        self.frontEnd = frontEnd
        self.endpointer = endpointer
        buffer = [Int16](repeating: 0, count: chunk)
    }

    /// Reads once. Returns the audio read (empty once the source has ended, when the
    /// endpointer is finished too) and the events it completed.
    mutating func step() throws -> (read: ArraySlice<Int16>, events: [Endpointer.Event]) {
        let n = try source.read(into: &buffer)
        pending += buffer[0..<n]
        let whole = pending.count / Endpointer.frameLength * Endpointer.frameLength
        let raw = Array(pending[0..<whole])
        pending.removeFirst(whole)
        var processed: [Int16]? = nil
        if let frontEnd {
            var copy = raw
            frontEnd.process(&copy)
            processed = copy
        }
        var events = endpointer.feed(raw, processed: processed)
        if n == 0 { events += endpointer.finish() }
        return (buffer[0..<n], events)
    }
}
