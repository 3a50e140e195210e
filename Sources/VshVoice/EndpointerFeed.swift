/// Reads a source and feeds an endpointer: the front end works in whole 10 ms frames
/// on a copy of the audio, so the raw and processed audio are fed in whole frames,
/// aligned sample for sample. Both pipelines read their sources through this.
package struct EndpointerFeed {
    let source: AudioSource
    let frontEnd: Preprocessor?
    let endpointer: Endpointer
    private var buffer: [Int16]
    private var pending: [Int16] = []
    private var dcBlocker = DCBlocker()

    package init(source: AudioSource, frontEnd: Preprocessor?, endpointer: Endpointer, chunk: Int) {
        self.source = source
        self.frontEnd = frontEnd
        self.endpointer = endpointer
        buffer = [Int16](repeating: 0, count: chunk)
    }

    /// Reads once. Returns the audio read (empty once the source has ended, when the
    /// endpointer is finished too) and the events it completed.
    package mutating func step() throws -> (read: ArraySlice<Int16>, events: [Endpointer.Event]) {
        let n = try source.read(into: &buffer)
        pending += buffer[0..<n]
        let whole = pending.count / Endpointer.frameLength * Endpointer.frameLength
        var raw = Array(pending[0..<whole])
        pending.removeFirst(whole)
        // A constant offset is no sound: taken out before anything measures or hears the
        // audio, so a microphone's DC does not move the endpointer's levels or the
        // recogniser's decision (bench/invariance.py: 17% of decisions flipped with it).
        dcBlocker.process(&raw)
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

/// A one-pole high-pass at about 8 Hz: y[n] = x[n] − x[n−1] + a·y[n−1]. It removes a DC
/// offset (and rumble) and leaves speech, which starts far above it, as it was.
///
/// It starts as if the stream had always been at its first sample: started from zero, an
/// offset became a step at the first sample, a click that decayed over 50 ms, and the
/// recogniser heard the same words with and without an offset differently
/// (bench/invariance.py: 3 of 150 decisions flipped). Not at the mean of the first 10 ms:
/// in a recording cut tight at its first word that mean is the word's, not an offset, and
/// `cards/001.wav` lost its first word ("two ten of clubs").
struct DCBlocker {
    static let pole = 0.997
    private var lastIn: Double?, lastOut = 0.0

    mutating func process(_ samples: inout [Int16]) {
        if lastIn == nil, let first = samples.first { lastIn = Double(first) }
        guard var lastIn else { return }
        defer { self.lastIn = lastIn }
        for i in samples.indices {
            let x = Double(samples[i])
            let y = x - lastIn + Self.pole * lastOut
            lastIn = x
            lastOut = y
            samples[i] = Int16(clamping: Int(y.rounded()))
        }
    }
}
