import CPocketSphinx
import Foundation
import VshCore

/// A PocketSphinx decoder (`ps_decoder_t`) with named searches: command grammars
/// (JSGF) and keyword lists. Owns the decoder; freed in deinit. One thread at a time.
final class PocketSphinxDecoder {
    /// Owned: released with ps_free.
    private let decoder: OpaquePointer
    /// Kept alive for the decoder's lifetime (ps_init retains it, but we hold our own too).
    private let config: PocketSphinxConfig

    /// A word of a result: `frames` are 10 ms frames from the start of the decoded audio.
    struct DecodedWord {
        var word: String
        var startFrame: Int
        var endFrame: Int
        /// Posterior probability (log base 1.0001, ≤ 0).
        var posterior: Int32
        /// The acoustic score of the segment's frames (`ps_seg_prob`'s ascr; each frame's
        /// senone scores are scaled to the frame's best, so 0 is the best any search over
        /// the same audio could do and words and phones of two searches compare).
        var acousticScore: Int32 = 0
    }

    struct Hypothesis {
        var text: String
        var score: Int32
        var frames: Int
        var words: [DecodedWord]
    }

    /// Creates a decoder from `-name value` arguments. Errors name the model files.
    init(arguments: [String]) throws {
        guard let config = PocketSphinxConfig.parse(arguments) else {
            throw AudioError("the speech recogniser refused its settings: \(arguments.joined(separator: " "))")
        }
        guard let decoder = ps_init(config.handle) else {
            throw AudioError("the speech recogniser could not load its model (\(arguments.joined(separator: " "))); check voice.model and that the Debian package pocketsphinx-en-us is installed")
        }
        self.config = config
        self.decoder = decoder
    }

    deinit { ps_free(decoder) }

    func addGrammar(_ name: String, jsgf: String) throws {
        let log = PocketSphinxLog.path.map { " (\($0) says where)" } ?? ""
        // A syntax error first: the decoder reports any failure alike.
        guard let parsed = jsgf_parse_string(jsgf, nil) else {
            throw AudioError("the grammar is not valid JSGF: it has a syntax error\(log); each rule is '<name> = words | <other>;' and the public one 'public <name> = …;'")
        }
        jsgf_grammar_free(parsed)
        guard ps_set_jsgf_string(decoder, name, jsgf) == 0 else {
            throw AudioError("the grammar did not load: a word in it may be missing from the dictionary\(log)")
        }
    }

    /// Adds a phone-loop search (`-allphone`): the phones of the model's triphones in any
    /// order, weighted by the phone language model at `path`. What it scores over some
    /// frames is what those frames sound like with no words imposed (`WordVerification`).
    func addPhoneLoop(_ name: String, languageModel path: String) throws {
        guard ps_set_allphone_file(decoder, name, path) == 0 else {
            throw AudioError("cannot load the phone language model \(path); check voice.model and that the Debian package pocketsphinx-en-us is installed")
        }
    }

    func use(_ search: String) {
        let rc = ps_set_search(decoder, search)
        precondition(rc == 0, "no search named \(search)")
    }

    func addKeywords(_ name: String, file path: String) throws {
        guard ps_set_kws(decoder, name, path) == 0 else {
            throw AudioError("cannot load the keyword list \(path)")
        }
    }

    /// Live decoding: `start`, then `process` audio as it arrives (the hypothesis so far
    /// is `partial`), then `end` for the result.
    func start() { ps_start_utt(decoder) }

    func process(_ samples: [Int16]) {
        samples.withUnsafeBufferPointer { buf in
            _ = ps_process_raw(decoder, buf.baseAddress, buf.count, 0, 0)
        }
    }

    var partial: String {
        var score: Int32 = 0
        return ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
    }

    func end() -> Hypothesis {
        ps_end_utt(decoder)
        return hypothesis()
    }

    /// Decodes a whole utterance with the current search. PocketSphinx carries its noise
    /// estimate (which also decides the frames it drops as silence) from each utterance of
    /// a stream to the next; `newStream` starts a new stream first, so that the result
    /// depends on `samples` alone (commands: without it a "left" kept 108 of its 136
    /// frames after a "down", and its words' frames no longer lined up with its audio).
    /// Word frames count from the start of the stream.
    func decode(_ samples: [Int16], newStream: Bool) -> Hypothesis {
        if newStream { ps_start_stream(decoder) }
        ps_start_utt(decoder)
        samples.withUnsafeBufferPointer { buf in
            _ = ps_process_raw(decoder, buf.baseAddress, buf.count, 0, 1)
        }
        ps_end_utt(decoder)
        return hypothesis()
    }

    private func hypothesis() -> Hypothesis {
        var score: Int32 = 0
        let text = ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
        var words: [DecodedWord] = []
        var seg = ps_seg_iter(decoder)
        while let s = seg {
            var sf: Int32 = 0, ef: Int32 = 0, ascr: Int32 = 0, lscr: Int32 = 0, lback: Int32 = 0
            ps_seg_frames(s, &sf, &ef)
            let post = ps_seg_prob(s, &ascr, &lscr, &lback)
            words.append(DecodedWord(
                word: String(cString: ps_seg_word(s)), startFrame: Int(sf), endFrame: Int(ef), posterior: post,
                acousticScore: ascr))
            seg = ps_seg_next(s)
        }
        return Hypothesis(text: text, score: score, frames: Int(ps_get_n_frames(decoder)), words: words)
    }

    /// After a decode: up to `limit` distinct word sequences from the lattice's n-best
    /// list, best first, each with its best path score (log base 1.0001, as
    /// `Hypothesis.score`); fillers and variants such as `record(2)` kept as PocketSphinx
    /// gives them. Looks at no more than `paths` paths; the list may include partial
    /// phrases of a grammar. Empty when the search made no lattice.
    func nbestScored(limit: Int, paths: Int = 30) -> [(text: String, score: Int32)] {
        var found: [(text: String, score: Int32)] = []
        var iterator = ps_nbest(decoder)
        var seen = 0
        while let current = iterator, found.count < limit, seen < paths {
            var score: Int32 = 0
            if let text = ps_nbest_hyp(current, &score).map({ String(cString: $0) }), !text.isEmpty,
               !found.contains(where: { $0.text == text }) {
                found.append((text, score))
            }
            seen += 1
            iterator = ps_nbest_next(current)
        }
        if let iterator { ps_nbest_free(iterator) }
        return found
    }

    /// How many phones the dictionary gives `word` (its first pronunciation), or 0.
    func phoneCount(_ word: String) -> Int {
        phones(of: word).count
    }

    /// The phones of `word`'s pronunciation in the dictionary ("S T AA P"); empty when it
    /// has none.
    func phones(of word: String) -> [Substring] {
        guard let phones = ps_lookup_word(decoder, word) else { return [] }
        defer { ckd_free(phones) }
        return String(cString: phones).split(separator: " ")
    }

    /// Converts a log score (base 1.0001, as PocketSphinx reports) to a probability.
    static func probability(_ logScore: Int32) -> Double {
        exp(Double(logScore) * log(1.0001))
    }
}
