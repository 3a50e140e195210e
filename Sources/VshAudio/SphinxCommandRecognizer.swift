import Foundation
import VshCore
import VshSpoken
import VshVoice
import VshTraining

/// Command recognition with PocketSphinx. Each utterance is level-normalised and decoded
/// against the command grammar opened to everyday words (`OpenGrammar`, `OtherWords`): a
/// grammar search always returns some phrase, so without the other words "dog" would run
/// "go". What is heard as another word is no command; a command's confidence says how
/// clearly it beat the next phrase (`Confidence`).
package final class SphinxCommandRecognizer: CommandRecognizer {
    package struct Settings: Sendable, Equatable {
        package var model: SpeechModel
        /// Whether to score the speaker of what could be a command (with an adapted model).
        package var scoresSpeaker = true
        /// Whether to check each word of a command against a phone loop
        /// (`WordVerification`, `Confidence.Features.weakestWordRatio`): research for issue
        /// 35, not yet a check of the gate, so off unless asked for (it costs about a fifth
        /// more CPU a decode): `VSH_WORD_RATIOS=1` in the environment
        /// (research/recognition/VERIFY.md).
        package var checksWords = false
        /// The JSGF weight at which a word of the grammar that is no phrase alone ("five",
        /// "play") may be heard alone, as no command (`OtherWords.lone`,
        /// `OpenGrammar.loneWeight`); nil: it may not, and a lone "five" runs `play 5`
        /// (research/recognition/LONE_WORDS.md). Research may set another with
        /// `VSH_LONE_WEIGHT` (`off` for nil).
        package var loneWordWeight: String? = OpenGrammar.loneWeight
        /// The weight of the most likely everyday words as the first word heard
        /// (`OtherWords.common`, `OpenGrammar.commonWeight`); nil: they weigh what the rest
        /// do. vsh's own commands weigh them (`CommandGrammar.weighsCommonWords`): on
        /// held-out speakers a third fewer commands ran for talk and for everyday words said
        /// alone. A grammar of one's own does not: where its commands are themselves common
        /// words (Speech Commands' ten) it loses right ones (research/attention/ATTENTION.md,
        /// sessions 28 and 29).
        package var commonWordWeight: String?
        package init(model: SpeechModel, scoresSpeaker: Bool = true, checksWords: Bool = false,
                     loneWordWeight: String? = OpenGrammar.loneWeight, commonWordWeight: String? = nil) {
            self.model = model
            self.scoresSpeaker = scoresSpeaker
            self.checksWords = checksWords
            self.loneWordWeight = loneWordWeight
            self.commonWordWeight = commonWordWeight
        }
    }

    private let decoder: PocketSphinxDecoder
    /// Whether the decoder has the phone loop each word of a command is checked against
    /// (`WordVerification`; the model's phone language model may be missing).
    private let hasPhoneLoop: Bool
    /// While a model adapted to the person is in use: how much each command sounds like
    /// them (`Confidence.Features.speakerScore`).
    private let speaker: SpeakerScorer?
    /// The everyday words the commands compete with: a phrase with one of them is no command.
    private let otherWords: Set<String>
    /// The grammar's words that may be heard alone (`OtherWords.lone`): words heard with
    /// one of them that are no phrase are no command, as with an other word; "five" in
    /// `play five` is part of a phrase and counts for nothing.
    private let loneWords: Set<String>
    /// Whether words are a whole phrase of the grammar (true for any when the grammar is
    /// one `JSGFPattern` cannot read).
    private let isPhrase: @Sendable ([String]) -> Bool
    /// What `train` calibrated for the model loaded (the stock model: nothing).
    package let calibration: Gate.Calibration
    /// What the person should know about how this recogniser hears (a check that is off).
    package private(set) var warning: String?
    /// Loads the acoustic model with a dictionary of `vocabulary` and the `OtherWords` set
    /// against it, and the grammar opened to those words (`OpenGrammar`).
    /// `workDirectory` receives the generated dictionary.
    package init(settings: Settings, jsgf: String, vocabulary: Set<String>, workDirectory: String) throws {
        let model = settings.model
        let known = try PronunciationDictionary(path: model.dictionary, only: vocabulary.union(OtherWords.candidates))
        let missing = vocabulary.filter { !known.contains($0) }.sorted()
        if !missing.isEmpty {
            throw AudioError("the command grammar uses words the dictionary does not know: \(missing.joined(separator: ", "))")
        }
        // The grammar's whole phrases: the n-best list also holds paths cut short ("what"
        // of "what time is it", at the best phrase's score), which are no runner-up.
        let phrases = JSGFPattern.parse(jsgf)
        let isPhrase: @Sendable ([String]) -> Bool = { words in phrases.map { $0.match(words) != nil } ?? true }
        self.isPhrase = isPhrase
        let others = OtherWords.against(vocabulary, in: known)
        otherWords = Set(others + [OpenGrammar.ballast])
        let lone = settings.loneWordWeight == nil || phrases == nil ? [] : OtherWords.lone(in: vocabulary, isPhrase: isPhrase)
        loneWords = Set(lone)
        let (dictText, _) = known.subset(vocabulary.union(otherWords))
        let open = OpenGrammar.jsgf(jsgf, otherWords: others, loneWords: lone,
                                    loneWeight: settings.loneWordWeight ?? OpenGrammar.loneWeight,
                                    common: settings.commonWordWeight == nil ? 0 : OtherWords.common,
                                    commonWeight: settings.commonWordWeight ?? OpenGrammar.weight)
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        let dictPath = workDirectory + "/commands-\(getpid()).dict"
        try dictText.write(toFile: dictPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: dictPath) }
        // -topn 8 (Gaussians scored per frame, default 4): +2 to +6 points in noise; 16
        // scored the same and cost 25% more CPU; on real speech 4 lost 0.8 points of top-1
        // and saved 6% (research/recognition/VOICING.md).
        // -maxhmmpf 2000 (default 30000): where more HMMs than that are active in a frame,
        // as at every word start of the thousand other words, the search narrows its beams
        // for the next frames. Chosen on the fitting speakers from 1000, 2000 and fixed
        // narrower beams, as the cheapest setting that kept their 12-class top-1: about a
        // fifth less CPU on Speech Commands, the same top-1 for speakers never fitted on
        // (research/recognition/SPEED.md).
        // -allphone_ci yes: the phone loop of context-independent phones, read by that search
        // alone; with triphones (the default) it took seconds for each utterance
        // (research/recognition/FINDINGS.md, "Gotchas").
        decoder = try PocketSphinxDecoder(arguments: [
            "-hmm", model.acousticModel, "-dict", dictPath, "-topn", "8", "-maxhmmpf", "2000", "-allphone_ci", "yes",
        ])
        try decoder.addGrammar("cmd", jsgf: open)
        hasPhoneLoop = settings.checksWords && FileManager.default.fileExists(atPath: model.phoneLanguageModel)
        if hasPhoneLoop { try decoder.addPhoneLoop("phones", languageModel: model.phoneLanguageModel) }
        decoder.use("cmd")
        var calibration = Gate.Calibration.stock
        if case .adapted(let adapted, directory: _) = model.adaptation { calibration = adapted.calibration }
        // A speaker model that cannot be read turns the check off, and says so: commands
        // still run, for anyone, until the model is adapted again.
        var speaker: SpeakerScorer?
        if model.isAdapted && settings.scoresSpeaker {
            do {
                speaker = try SpeakerScorer(stock: model.stockAcousticModel, adapted: model.acousticModel)
            } catch {
                calibration.speaker = nil
                warning = "the speaker check is off: \(error); spoken commands run whoever says them until 'train --again'"
            }
        }
        self.speaker = speaker
        self.calibration = calibration
    }

    /// Each utterance is decoded as a new stream (`PocketSphinxDecoder.decode`): the same
    /// audio gets the same answer whatever was heard before, so the early end's tentative
    /// recognitions, mostly thrown away, change nothing after them.
    package func recognize(_ samples: [Int16], start: Double) -> Recognition {
        let led = Self.led(samples)
        let audio = Self.normalised(led)
        let hyp = decoder.decode(audio, newStream: true)
        guard !hyp.text.isEmpty, hyp.frames > 0 else { return Recognition(words: [], confidence: 0) }
        let heard = SphinxWords.words(of: hyp)
        let words = heard.map { SphinxWords.recognized($0.word, $0.segment, start: start) }
        let spans = heard.map { ($0.segment.startFrame, $0.segment.endFrame) }
        // Where the words may lie in the audio: PocketSphinx drops the quiet its own VAD
        // finds, and counts the words' frames over the frames it kept, so a word lies up to
        // `dropped` frames later in the audio than its frames say. A synthetic "go" after
        // 0.4 s of quiet: 110 frames decoded of 137, its span 270 ms early, over the quiet.
        // Its voicing is judged over its span and the `dropped` frames after it. (Decoding
        // with the quiet kept, -remove_silence no, put the spans right but heard room noise,
        // brought up by the level normalisation and the mean over all frames, as words:
        // "list" → "list today".)
        let dropped = max(0, audio.count / (AudioFormat.sampleRate / 100) - hyp.frames)
        let mayLie = spans.map { ($0.0, $0.1 + dropped) }
        let levels = FrameLevels.of(audio)
        let wordFrames = spans.reduce(0) { $0 + $1.1 - $1.0 + 1 }
        let phones = hyp.text.split(separator: " ").reduce(0) { $0 + decoder.phoneCount(String($1)) }
        let shortest = heard.compactMap { word -> Double? in
            let n = decoder.phoneCount(word.segment.word)
            return n >= 3 ? Double(word.segment.endFrame - word.segment.startFrame + 1) / Double(n) : nil
        }.min()
        // The runners-up, for "did you mean" and for the confidence: other whole phrases of
        // the grammar (or nothing heard at all). Other words are not among them: that they
        // lost is what the search decided; the gap says how close another command came.
        let best = words.map(\.word)
        let scored = decoder.nbestScored(limit: 20, paths: 100).map { entry in
            (words: entry.text.split(separator: " ").compactMap { SphinxWords.word(String($0)) }, score: entry.score)
        }
        let commands = scored.filter { $0.words.isEmpty || (!$0.words.contains(where: otherWords.contains) && isPhrase($0.words)) }
        let alternatives = commands.map(\.words).filter { !$0.isEmpty && $0 != best }.prefix(5).map { $0 }
        let top = scored.first.map { Double($0.score) } ?? Double(hyp.score)
        // Another reading, not the same words ending sooner or later: the lattice also holds
        // the best phrase with a word more or less at its end ("seven of clubs jack" at the
        // same score as "seven of clubs"), which contests nothing. Hearing nothing does.
        let runnerUp = commands.first { $0.words != best && ($0.words.isEmpty || !($0.words.starts(with: best) || best.starts(with: $0.words))) }
            .map { top - Double($0.score) }
        let other = best.first(where: otherWords.contains) ?? (isPhrase(best) ? nil : best.first(where: loneWords.contains))
        // Every word of what could run something heard, not put in by the grammar: the
        // best reading of the same list that leaves some of its words out.
        let leftOut = other == nil ? LeftOut.reading(of: best, among: scored.map { ($0.words, Double($0.score)) }) : nil
        // Each word against the phone loop over the same frames, for what could run
        // something. Read after the n-best list: the phone loop's decode replaces the
        // grammar's lattice.
        let weakest = other == nil ? weakestWord(heard, of: audio, frames: hyp.frames) : nil
        let located = Self.located(spans, dropped: dropped, in: levels)
        // The acoustic checks of what could run something, over the audio as it came (the
        // level laid under it is a hiss of its own): each word that begins with a hiss, the
        // dip between syllables the words claim, a hiss where they claim voice, and one
        // before a first word that begins with voice.
        let wordPhones = other != nil ? [] : heard.map { decoder.phones(of: $0.segment.word) }
        let hissing = zip(wordPhones, located).compactMap { phones, span in
            Self.hisses[phones.first ?? ""].map { (span: span, kind: $0) }
        }
        let parted = Syllables.partings(wordPhones) > 0
        let voiced = Voicing.claimedThroughout(wordPhones)
        let voicedOnset = wordPhones.first?.first.map(Voicing.voicedOnsets.contains) ?? false
        let spectrum = hissing.isEmpty && !parted && !voiced && !voicedOnset ? nil : Spectrum(led)
        let hiss = spectrum.flatMap { hissing.isEmpty ? nil : Hiss.onsets(of: hissing, in: $0)?.min() }
        // The checks that read the words' frames whole, and three frames either side; and
        // the onset of a first word that begins with voice.
        var dip: Double?, hissInVoice: Int?, hissBefore: Int?
        if let spectrum, let first = located.first, let last = located.last {
            let from = first.0 - 3, to = last.1 + 3
            if parted { dip = Syllables.dip(in: spectrum, from: from, to: to) }
            if voiced { hissInVoice = Voicing.longestHiss(in: spectrum, from: from, to: to) }
            if voicedOnset { hissBefore = Voicing.hissBefore(first, wordsEnd: last.1, in: spectrum) }
        }
        let features = Confidence.Features(
            frames: hyp.frames, wordFrames: wordFrames, phones: phones, words: words.count,
            runnerUpGap: runnerUp, otherWord: other,
            speechOutsideWords: Self.speechOutside(located, in: levels,
                                                   room: words.count == 1 ? Self.roomLevel(in: levels) + Self.aboveRoom : nil),
            weakestVoicing: Voicing.best(in: mayLie, of: audio).max() ?? 1,
            speakerScore: other == nil ? speaker?.score(audio) : nil, shortestWord: shortest,
            weakestWord: weakest?.word, weakestWordRatio: weakest?.ratio, strongestWordRatio: weakest?.strongest,
            weakestHiss: hiss, syllableDip: dip, hissInVoice: hissInVoice, hissBefore: hissBefore, leftOutReading: leftOut?.words, leftOutGap: leftOut?.gap)
        // The stock confidence; the gate applies the person's calibration (`Gate.confidence`).
        return Recognition(words: words, confidence: Confidence.probability(features), alternatives: alternatives,
                           features: features)
    }

    /// The phones a word may begin with that `Hiss` looks for.
    static let hisses: [Substring: Hiss.Kind] = ["S": .s, "SH": .sh]

    /// The word of `heard` with the lowest ratio against the phone loop
    /// (`WordVerification`), and the highest ratio when two words or more have one; nil
    /// without a loop.
    private func weakestWord(_ heard: [(word: String, segment: PocketSphinxDecoder.DecodedWord)], of audio: [Int16],
                             frames: Int) -> (word: String, ratio: Double, strongest: Double?)? {
        guard hasPhoneLoop,
              let ratios = decoder.ratios(of: heard.map(\.segment), in: audio, frames: frames, loop: "phones", then: "cmd")
        else { return nil }
        let scored = zip(heard, ratios).compactMap { word, ratio in ratio.map { (word: word.word, ratio: $0) } }
        guard let weakest = scored.min(by: { $0.ratio < $1.ratio }) else { return nil }
        return (weakest.word, weakest.ratio, scored.count >= 2 ? scored.map(\.ratio).max() : nil)
    }

    /// An utterance's samples as the decoder (and the speaker check) hear them: a lead of
    /// quiet where it needs one (`led`), then the speaking level over the steady noise
    /// floor (`normalised`).
    static func decodingAudio(_ samples: [Int16]) -> [Int16] {
        normalised(led(samples))
    }

    /// `samples` with a lead of quiet where they need one, as they came otherwise: frame
    /// for frame the decoder's audio before the level is set.
    static func led(_ samples: [Int16]) -> [Int16] {
        // An utterance cut tight at its first word gets its own quietest tenth of a second
        // before it, as the room before the words: PocketSphinx starts its noise estimate at
        // the first frames, and in such a recording (cards/001.wav) the first word was taken
        // for noise once the floor was laid, and another heard in its place ("two ten of
        // clubs"). One that begins with its own quiet (within 3 dB of its quietest) needs
        // none: a lead before every utterance cost the fitting speakers' padded clips 0.9
        // points of top-1, and made a synthetic "okay" into `code 8`. Word times are still
        // counted from `start`: with a lead kept by PocketSphinx they come out a tenth of a
        // second late, so the early end waits longer, never less.
        return Array(lead(AudioFormat.sampleRate / 10, for: samples) + samples)
    }

    /// How many 10 ms frames outside the words' frames are as loud as speech (within 20 dB
    /// of the words' median frame, and at `room` or over when it is given): speech the words
    /// do not account for, as when a sentence is heard as a command and the decoder calls
    /// the rest silence or noise. `spans` are frames of the audio whose frame `levels`
    /// (`FrameLevels`) are given (`located`).
    ///
    /// `recognize` gives `room` for a hearing of one word: the room's own level and
    /// `aboveRoom`. A word said alone has soft sounds (the S, the closure and the P of
    /// "stop"), its median frame is low, and 20 dB under it reached into the room's noise:
    /// real people's "stop" after a pause was stopped as a sentence, with 200 to 500 frames
    /// of plain quiet counted as speech, and a clip was stopped at its level and ran at
    /// 12 dB softer. For two words or more the count stays as it was: there the room
    /// counted as speech is what stops a carrier and a number inferred from a lone digit
    /// ("play eighteen" from "eighteen", 300 to 700 frames), and no other check stops those
    /// yet (research/attention/ATTENTION.md, "Quiet counted as speech, after one word").
    static func speechOutside(_ spans: [(Int, Int)], in levels: [Double], room: Double? = nil) -> Int {
        let count = levels.count
        guard count > 0, !spans.isEmpty else { return 0 }
        var inside = [Bool](repeating: false, count: count)
        for (start, end) in spans where start < count {
            for f in max(0, start)...min(count - 1, max(start, end)) { inside[f] = true }
        }
        let words = levels.indices.filter { inside[$0] }.map { levels[$0] }.sorted()
        guard !words.isEmpty else { return 0 }
        let loud = max(words[words.count / 2] - 20, room ?? -.infinity)
        return levels.indices.filter { !inside[$0] && levels[$0] >= loud }.count
    }

    /// The words' spans moved to where they lie in the audio, whose frame `levels` are given.
    /// PocketSphinx numbers frames over those it kept, dropping the quiet its own VAD finds
    /// (all but the last 0.2 s of the quiet before speech; what follows more than half a second
    /// after it), so a word lies up to `dropped` frames later in the audio than its frames say.
    /// Of the shifts 0...`dropped`, the least that puts the words over the most sound: the
    /// highest sum of their frames' levels in dB, so that one click does not outweigh a word.
    ///
    /// Unmoved, the words of an utterance with a second of quiet before them were looked for
    /// in that quiet: their median level was the room's, and every frame of the words
    /// themselves counted as speech outside them (real people's "alexa" after a pause,
    /// 224-395 frames, stopped as a sentence heard as a command).
    static func located(_ spans: [(Int, Int)], dropped: Int, in levels: [Double]) -> [(Int, Int)] {
        guard dropped > 0, !spans.isEmpty else { return spans }
        var prefix = [0.0]
        prefix.reserveCapacity(levels.count + 1)
        for level in levels { prefix.append(prefix[prefix.count - 1] + level) }
        func sound(shiftedBy shift: Int) -> Double {
            spans.reduce(0.0) { sum, span in
                let from = min(max(0, span.0 + shift), levels.count)
                let to = min(max(from, span.1 + shift + 1), levels.count)
                return sum + prefix[to] - prefix[from]
            }
        }
        var best = 0, most = sound(shiftedBy: 0)
        for shift in 1...dropped {
            let covered = sound(shiftedBy: shift)
            if covered > most { (best, most) = (shift, covered) }
        }
        return spans.map { ($0.0 + best, $0.1 + best) }
    }

    /// What goes before `samples` when decoding: nothing when their first `length` samples
    /// are within 3 dB of their quietest `length` samples (on the 10 ms grid), else those
    /// quietest samples (the first of equals); digital silence when there are fewer.
    static func lead(_ length: Int, for samples: [Int16]) -> ArraySlice<Int16> {
        guard length > 0, samples.count >= length else { return ArraySlice(repeating: 0, count: max(0, length)) }
        func energy(_ start: Int) -> Int64 {
            samples[start..<(start + length)].reduce(Int64(0)) { $0 + Int64($1) * Int64($1) }
        }
        let first = energy(0)
        var quietest = 0, least = first
        for start in stride(from: AudioFormat.sampleRate / 100, through: samples.count - length, by: AudioFormat.sampleRate / 100) {
            let e = energy(start)
            if e < least { (quietest, least) = (start, e) }
        }
        return first <= 2 * least ? [] : samples[quietest..<(quietest + length)]
    }

    /// How far under the speaking level `normalised` lays its noise floor, in dB.
    ///
    /// PocketSphinx estimates the noise it subtracts and the silence it drops from the
    /// quietest frames. In a near-silent recording those frames hold little but its own hiss
    /// and rounding, which the normalisation brings up with the words: the same digit 12 dB
    /// softer was another word ("four" → "one"), and short real words were heard worse than
    /// they are through a microphone in a room. With a steady floor 34 dB under the speaking
    /// level (and the lead `recognize` puts before words cut tight), Speech Commands
    /// speakers never fitted on got the right command for 79.8% of their words instead of
    /// 72.3%, and the 12-class top-1 went from 76.8% to 82.9%
    /// (research/recognition/NOISE_FLOOR.md). Chosen on the fitting speakers (fold 0) from
    /// −48, −40, −34 and −28 dB, by the 12-class top-1.
    static let noiseFloor = -34.0

    /// The level of the quietest tenth of a second (ten 10 ms frames) of the audio whose
    /// frame `levels` (`FrameLevels`) are given, in the same dB; 0 under ten frames: the
    /// room's own noise under an utterance (with the floor `normalised` lays, at least).
    /// From the frames' levels already taken, not from the samples again.
    static func roomLevel(in levels: [Double]) -> Double {
        let span = 10
        // Each frame's mean square.
        guard let quietest = FrameLevels.quietest(levels.map { pow(10, $0 / 10) - 1 }, span: span) else { return 0 }
        return 10 * log10(max(0, quietest.sum) / Double(span) + 1)
    }

    /// How far over the room's level (`roomLevel`) a frame outside the one word heard must
    /// be to count as speech it leaves unexplained (`speechOutside`), dB: the margin
    /// `WakePhraseAgain.rest` takes for quiet, chosen before measuring.
    static let aboveRoom = 6.0

    /// Brings the utterance to a steady speaking level (RMS ≈ 3000), never clipping and
    /// never more than +40 dB, and lays a steady noise floor `noiseFloor` dB under that
    /// level: quiet microphones and loud ones look alike to the model, and so do a silent
    /// room and a noisy one until the room is louder than the floor. The noise is the
    /// same for every utterance (a fixed seed), so no decision depends on chance.
    static func normalised(_ samples: [Int16]) -> [Int16] {
        guard !samples.isEmpty else { return samples }
        var peak = 1.0, sum = 0.0
        for s in samples {
            let v = Double(s)
            peak = max(peak, abs(v))
            sum += v * v
        }
        let rms = (sum / Double(samples.count)).squareRoot() + 1e-9
        let gain = min(3_000 / rms, 32_000 / peak, 100)
        let floor = 3_000 * pow(10, noiseFloor / 20)
        var noise = SeededNoise()
        return samples.map { Int16(clamping: Int((Double($0) * gain + noise.next() * floor).rounded())) }
    }
}

/// Gaussian noise of deviation 1 from a fixed seed: the same numbers on every run (a 64-bit
/// linear congruential generator, Box–Muller).
struct SeededNoise {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next() -> Double {
        (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
    }

    /// Uniform in (0, 1), never 0.
    private mutating func uniform() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (Double(state >> 11) + 0.5) / Double(UInt64(1) << 53)
    }
}
