/// Whether each word heard was said, or inferred by the grammar: the classic
/// utterance-verification test, a word's acoustic score against what a free phone loop
/// (`PocketSphinxDecoder.addPhoneLoop`) scores over the same frames.
///
/// PocketSphinx scales each frame's senone scores to the frame's best, so a search's
/// acoustic score over some frames is ≤ 0 and says how far its path is from the best
/// senones there. A word that is clearly said scores about what the phone loop scores
/// (its ratio near 0: the loop finds the word's own phones); a word the grammar squeezed
/// in where something else was said ("play" before a lone "five") scores far worse.
/// research/recognition/VERIFY.md measures it on real speech.
enum WordVerification {
    /// A stretch of decoded frames (inclusive, counted as the decoder counts them) and
    /// the acoustic score a search gave it.
    struct Span: Equatable {
        var start: Int
        var end: Int
        var score: Int32
        var frames: Int { end - start + 1 }
    }

    /// What the phone loop scored over `start...end`: the sum of its phones' scores,
    /// each prorated by the share of its frames inside.
    static func loopScore(from start: Int, to end: Int, in phones: [Span]) -> Double {
        phones.reduce(0.0) { sum, phone in
            let overlap = min(end, phone.end) - max(start, phone.start) + 1
            guard overlap > 0, phone.frames > 0 else { return sum }
            return sum + Double(phone.score) * Double(overlap) / Double(phone.frames)
        }
    }

    /// Each word's log-likelihood ratio per frame against the phone loop, in the decoder's
    /// score units (as `Hypothesis.score`): its own score minus the loop's over its frames,
    /// over its frames. Nil for a word of no frames.
    static func ratios(of words: [Span], against phones: [Span]) -> [Double?] {
        words.map { word in
            guard word.frames > 0 else { return nil }
            return (Double(word.score) - loopScore(from: word.start, to: word.end, in: phones)) / Double(word.frames)
        }
    }
}

extension PocketSphinxDecoder {
    /// Each of `words` (the words of a decode of `audio` that counted `frames` frames)
    /// against the phone-loop search `loop` (`WordVerification.ratios`), decoding `audio`
    /// again with it, then back to the search `then`. Both decodes start a new stream over
    /// the same samples, so the decoder drops the same quiet frames from both and their
    /// frame numbers line up; nil when they do not (the frame counts differ).
    func ratios(of words: [DecodedWord], in audio: [Int16], frames: Int, loop: String, then search: String) -> [Double?]? {
        guard !words.isEmpty else { return [] }
        use(loop)
        defer { use(search) }
        let phones = decode(audio, newStream: true)
        guard phones.frames == frames, !phones.words.isEmpty else { return nil }
        func span(_ s: DecodedWord) -> WordVerification.Span {
            WordVerification.Span(start: s.startFrame, end: s.endFrame, score: s.acousticScore)
        }
        return WordVerification.ratios(of: words.map(span), against: phones.words.map(span))
    }
}
