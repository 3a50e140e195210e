import Foundation
import VshCore

/// Finds utterances in a continuous 16 kHz stream: speech starts when the frame energy
/// stays above the tracked noise floor for a few frames, and ends after a stretch of
/// quiet. Each utterance keeps some audio before and after (padding), because the
/// recogniser needs the silence around words.
///
/// SpeexDSP's own VAD is a placeholder, so vsh uses this detector instead.
package final class Endpointer {
    package struct Settings: Sendable, Equatable {
        /// dB above the noise floor that counts as speech. Measured on the command corpus:
        /// 10 dB missed soft word onsets in white and pink noise (white 56%, pink 36%);
        /// 4 dB lifted them to 84% and 67% with clean speech unchanged.
        package var threshold: Double = 4
        /// dB above the floor that keeps an utterance going once it has started: lower
        /// than `threshold`, so that dips between words in noise do not end it early.
        package var holdThreshold: Double = 2
        /// Frames (10 ms) above the threshold in a row that start speech.
        package var startFrames = 5
        /// Milliseconds of quiet that end an utterance.
        /// Measured on the synthetic command corpus: 300 ms and 200 ms (with
        /// `holdThreshold` 2 dB) score the same (80.8% and 80.6%), 150 ms splits words in
        /// noise (77.5%, twice the false accepts). But people pause inside commands:
        /// 200 ms cut a human "four | queen of clubs" in two. 300 ms keeps it whole.
        package var hangover = 300
        /// Milliseconds of quiet after which the endpointer asks `endsEarly` whether the
        /// utterance is over already, or will be unless more is said (`EarlyAnswer`); 0
        /// never asks.
        /// Asked once per pause, and only when it is shorter than the hangover.
        package var earlyPause = 0
        /// Milliseconds of quiet at which the utterance `endsEarly` is asked about is cut:
        /// the audio up to here, the rest of the hangover filled with the quiet from
        /// before the speech (`Segment.early`). Cut sooner than `earlyPause`, it is handed
        /// to `willAskEarly` at once, so that its decode can begin while the endpointer
        /// waits out the pause, and only what is left of the decode after the wait adds to
        /// the latency. 0 (or anything not under `earlyPause`): cut at `earlyPause`. An
        /// utterance that waits for the hangover is the audio up to where it closed, unless
        /// the early end let it wait only for more words (`EarlyAnswer.endUnlessMore`) and
        /// none came: then it is the cut it was asked about.
        package var earlyCut = 0
        /// Milliseconds of audio kept before speech starts and after it ends: the
        /// recogniser needs silence around the words, and soft onsets lie below the
        /// threshold. 400 ms beat 250/200 by 1–8 points in noise.
        package var paddingBefore = 400
        package var paddingAfter = 400
        /// Utterances with less speech than this are dropped as clicks (ms).
        package var minimumSpeech = 100
        /// Utterances are cut at this length (seconds).
        package var maximumLength = 15.0
        /// "Speech" whose frame energy has stayed within this many dB (standard deviation)
        /// for `steadyFrames` is a step up in the background (a fan, a hum, noise after
        /// digital silence), not speech: the noise floor moves up to it, and the utterance
        /// ends where that second began. Speech swings 10–20 dB between syllables; the
        /// frame energy of steady white noise varies by about 0.5 dB.
        package var steadyDeviation = 1.0
        /// A second after the speech, all of it `roomUnderSpeech` dB or more under the
        /// utterance's loudest frame, is steady within this many dB: the room the word was
        /// followed by. Coloured noise swings more than white: the rooms after Speech
        /// Commands' "stop"s (fold 0's speakers) 0.66 dB at the median, 1.37 dB at the 95th
        /// percentile and up to 2.1 dB, and at 1 dB a quarter of them were heard as speech,
        /// the word joined to the next one said seconds later. A word over loud noise
        /// swings as little (2 dB over a second in pink noise 10 dB under it), but its
        /// second holds its own loudest frames, so only `steadyDeviation` applies there.
        package var roomDeviation = 2.5
        package var roomUnderSpeech = 10.0
        package var steadyFrames = 100

        package init() {}
    }

    /// What feeding audio produced.
    package enum Event: Equatable {
        /// Speech began at this time (seconds from the start of the stream).
        case speechStarted(Double)
        /// A finished utterance.
        case utterance(Segment)
    }

    /// What `endsEarly` says of the utterance after `Settings.earlyPause` of quiet.
    package enum EarlyAnswer: Equatable, Sendable {
        /// It ends now.
        case end
        /// It waits out the hangover for more speech; when none comes (or the stream
        /// ends), it ends as it was when asked: the same segment, not the quiet heard since.
        case endUnlessMore
        /// It waits out the hangover, and is the audio up to where it closes.
        case wait
    }

    /// An utterance's audio (with padding) and where it lies in the stream.
    package struct Segment: Equatable, Sendable {
        package var samples: [Int16]
        /// The same stretch after the front end (noise suppression), when one runs.
        package var processed: [Int16]?
        /// Seconds from the start of the stream.
        package var start: Double
        package var end: Double
        /// When the last speech frame ended: `end` minus the padding after it.
        package var speechEnd: Double
        /// When the endpointer decided the utterance was over (speech end + hangover).
        package var closedAt: Double
        /// Loudest frame over the noise floor, in dB.
        package var snr: Double
        /// Whether `endsEarly` ended it, before the full hangover. Its samples (and
        /// processed audio) then run on past `end` by the rest of the hangover, filled
        /// with the quiet from before the speech: the recogniser hears the utterance with
        /// as much quiet after it as a full hangover leaves. (Without it, on real speech
        /// the shorter audio raised the confidence of every utterance: 3x the wrong
        /// commands of the full hangover on Speech Commands.) One that `endsEarly` let wait
        /// for more speech that never came (`EarlyAnswer.endUnlessMore`) is not early, but
        /// is the audio it was asked about, cut and filled the same way.
        package var early = false
        /// Whether its speech began before the full hangover after an utterance that ended
        /// early would have run out: with the full hangover it would have been part of
        /// that utterance (the rest of a word, a breath after it), not one of its own.
        package var continuesEarly = false
        /// Seconds of quiet between the speech of the utterance before it and its own
        /// (infinite for the first: nothing was said before it): talk runs on after short
        /// pauses, a command is said after a silence.
        package var quietBefore = Double.infinity
        /// When its first speech frame began, in seconds from the start of the stream, as
        /// `speechEnd`; nil where not known.
        package var speechStart: Double?
    }

    package static let frameLength = 160  // 10 ms at 16 kHz

    /// Added to a frame's mean energy (pre-emphasised, in LSB²) before taking its
    /// decibels, so that digital silence has a level: about the energy of silence dithered
    /// to 16 bits (±1 LSB TPDF dither and rounding, 0.25 LSB², doubled by the
    /// pre-emphasis). Digital silence is then 3 dB under dithered silence, short of the
    /// 4 dB that starts speech (at 0.1 dither after digital silence started an
    /// utterance). The offset squeezes the decibels of the quietest recordings together:
    /// with 1, 12 dB softer, their background fell by about 7 dB and speech stood 5 dB
    /// less clear of it, and soft onsets were cut differently. Against 1, on Speech
    /// Commands, 0.5 made 3 decisions of the fitting speakers better and 1 of the others,
    /// and none worse (research/recognition/SPEED.md).
    static let silenceEnergy = 0.5
    package let settings: Settings

    private var pending: [Int16] = []       // samples not yet a whole frame
    private var pendingProcessed: [Int16] = []
    private var history: [Int16] = []       // recent audio, for padding and the utterance
    private var processedHistory: [Int16] = []  // the same after the front end, if fed
    private var historyStart = 0            // stream sample index of history[0]
    private var frameIndex = 0              // frames seen
    private var floor: Double?
    private var previous: Double = 0        // pre-emphasis state
    private var inSpeech = false
    private var run = 0
    private var quiet = 0
    private var speechStartFrame = 0
    private var lastSpeechFrame = 0
    private var loudest = 0.0                // dB, within the utterance
    private var previousEnd = 0              // stream sample where the last utterance ended
    private var previousSpeechEnd: Int?      // frame after the last utterance's last speech frame
    /// After an early end, the quiet the full hangover would have counted so far (reset by
    /// frames over the hold threshold, as within an utterance); nil once it would have run
    /// out. Counted only between utterances, so during one it says whether it began within.
    private var hangoverAfterEarly: Int?
    /// The frame energies of the speech so far, to tell a steady background from speech.
    private var steady: SteadyLevel

    /// Asked after `earlyPause` ms of quiet with the utterance as it would be if it ended
    /// now: whether it ends there (`EarlyAnswer`). Without it every utterance waits for
    /// the full hangover.
    package var endsEarly: ((Segment) -> EarlyAnswer)?

    /// Told after `earlyCut` ms of quiet of the utterance `endsEarly` will be asked about
    /// if the quiet lasts to `earlyPause`.
    package var willAskEarly: ((Segment) -> Void)?
    /// The utterance as `earlyCut` cut it, while the quiet after it lasts.
    private var earlyCandidate: Segment?
    /// The utterance `endsEarly` let wait for more speech (`EarlyAnswer.endUnlessMore`),
    /// while none comes: what it closes as.
    private var unlessMore: Segment?

    package init(settings: Settings = Settings()) {
        self.settings = settings
        steady = SteadyLevel(frames: settings.steadyFrames, deviation: settings.steadyDeviation,
                             roomDeviation: settings.roomDeviation)
    }

    /// Whether an utterance is under way.
    package var hearingSpeech: Bool { inSpeech }

    /// Samples taken into whole frames so far: the stream position the events refer to.
    package var position: Int { historyStart + history.count }

    /// The audio (raw, or after the front end) from stream sample `from` to the current
    /// position, as far as it is still kept: from the start of the current utterance's
    /// padding on while speech goes on.
    package func audio(from: Int, processed: Bool = false) -> ArraySlice<Int16> {
        let source = processed && processedHistory.count == history.count ? processedHistory : history
        let first = min(max(from, historyStart), position) - historyStart
        return source[first...]
    }

    /// The current noise floor in dB (for meters and diagnostics).
    package var noiseFloor: Double? { floor }

    /// Feeds samples; returns the events they completed. `processed` is the same audio
    /// after the front end, sample for sample; speech is detected on the raw audio (the
    /// front end's noise suppression would move the floor), and segments carry both.
    package func feed(_ samples: [Int16], processed: [Int16]? = nil) -> [Event] {
        precondition(processed == nil || processed!.count == samples.count, "processed audio must align with the raw audio")
        var events: [Event] = []
        pending += samples
        if let processed { pendingProcessed += processed }
        var offset = 0
        while pending.count - offset >= Self.frameLength {
            let frame = pending[offset..<offset + Self.frameLength]
            history += frame
            if !pendingProcessed.isEmpty {
                processedHistory += pendingProcessed[offset..<offset + Self.frameLength]
            }
            offset += Self.frameLength
            events += step(frame)
        }
        pending.removeFirst(offset)
        if !pendingProcessed.isEmpty { pendingProcessed.removeFirst(offset) }
        trimHistory()
        return events
    }

    /// Ends the stream: an utterance under way is finished.
    package func finish() -> [Event] {
        guard inSpeech else { return [] }
        return close(at: frameIndex)
    }

    /// A frame's level as the endpointer hears it: pre-emphasised (0.97, carried over
    /// from the frame before in `previous`) energy per sample, in dB.
    package static func level(of frame: ArraySlice<Int16>, after previous: inout Double) -> Double {
        var energy = 0.0
        for s in frame {
            let v = Double(s)
            let d = v - 0.97 * previous
            previous = v
            energy += d * d
        }
        return 10 * log10(energy / Double(frame.count) + silenceEnergy)
    }

    private func step(_ frame: ArraySlice<Int16>) -> [Event] {
        defer { frameIndex += 1 }
        let db = Self.level(of: frame, after: &previous)
        let noise = floor ?? db
        let speech = db > noise + (inSpeech ? settings.holdThreshold : settings.threshold)
        if !inSpeech {
            if let counted = hangoverAfterEarly {
                let next = db > noise + settings.holdThreshold ? 0 : counted + 1
                hangoverAfterEarly = next * 10 >= settings.hangover ? nil : next
                // With the full hangover a steady second of the room would have closed the
                // utterance too (as in speech, below): a room whose level swings past the
                // hold threshold seldom gives `hangover` of quiet in a row, and a command
                // said seconds later was taken for the rest of the one before it.
                // (`close` and the start of speech reset `steady`, so it holds only this wait.)
                if hangoverAfterEarly != nil, steady.add(db, roomUnder: loudest - settings.roomUnderSpeech) != nil {
                    hangoverAfterEarly = nil
                }
            }
            // Follow the floor down quickly and up slowly.
            floor = noise + (db < noise ? 0.2 : 0.01) * (db - noise)
            run = speech ? run + 1 : 0
            if run >= settings.startFrames {
                inSpeech = true
                quiet = 0
                steady.reset()
                loudest = db
                speechStartFrame = frameIndex - run + 1
                lastSpeechFrame = frameIndex
                return [.speechStarted(Double(speechStartFrame) / 100)]
            }
            return []
        }
        loudest = max(loudest, db)
        if let level = steady.add(db, roomUnder: loudest - settings.roomUnderSpeech), level > noise {
            // Not speech: the background rose. Without this the floor would only follow
            // it between utterances, a little at a time, and vsh would hear "speech" for
            // up to `maximumLength` at a time for minutes. Any steady rise over the floor
            // counts, not only one past `holdThreshold`: a background less than that over
            // the floor (a room 3 dB over the digital silence before it) has half its
            // frames past the hold, never `hangover` of quiet in a row, and every
            // utterance ran on to `maximumLength`.
            floor = level
            steady.reset()
            // Nor is the utterance waited on: the steady second held none of its speech,
            // and a room whose level swings past the hold threshold around the new floor
            // (coloured noise: 1.5 dB is 9% of its frames) would seldom give `hangover`
            // of quiet in a row.
            let steadyFrom = frameIndex - settings.steadyFrames + 1
            lastSpeechFrame = min(lastSpeechFrame, steadyFrom - 1)
            return close(at: frameIndex + 1)
        }
        if speech {
            lastSpeechFrame = frameIndex
            quiet = 0
            earlyCandidate = nil
            unlessMore = nil
        } else {
            quiet += 1
        }
        if settings.earlyCut > 0, settings.earlyCut < settings.earlyPause, quiet * 10 == settings.earlyCut, endsEarly != nil {
            earlyCandidate = segment(endingAt: frameIndex + 1, early: true)
            if let earlyCandidate { willAskEarly?(earlyCandidate) }
        }
        let tooLong = Double(frameIndex - speechStartFrame) / 100 >= settings.maximumLength
        if quiet * 10 >= settings.hangover || tooLong {
            return close(at: frameIndex + 1)
        }
        if settings.earlyPause > 0, quiet * 10 == settings.earlyPause, let endsEarly,
           var candidate = earlyCandidate ?? segment(endingAt: frameIndex + 1, early: true) {
            candidate.closedAt = Double(frameIndex + 1) / 100
            switch endsEarly(candidate) {
            case .end: return close(at: frameIndex + 1, early: true)
            case .endUnlessMore: unlessMore = candidate
            case .wait: break
            }
        }
        return []
    }

    /// Ends the utterance; `endFrame` is the first frame not yet fed to history + 1.
    private func close(at endFrame: Int, early: Bool = false) -> [Event] {
        inSpeech = false
        run = 0
        steady.reset()
        defer { (earlyCandidate, unlessMore) = (nil, nil) }
        guard var found = (early ? earlyCandidate : unlessMore) ?? segment(endingAt: endFrame, early: early) else { return [] }
        found.closedAt = Double(endFrame) / 100
        found.early = early
        // The next utterance's padding begins after all this one listened to, however
        // soon it was cut: where its audio ends when it is not cut.
        previousEnd = Self.frameLength * min(endFrame, lastSpeechFrame + 1 + settings.paddingAfter / 10)
        previousSpeechEnd = lastSpeechFrame + 1
        hangoverAfterEarly = early ? quiet : nil
        return [.utterance(found)]
    }

    /// The utterance under way as it would be if it ended at `endFrame`; nil when it is too
    /// short to be speech.
    private func segment(endingAt endFrame: Int, early: Bool = false) -> Segment? {
        let speechFrames = lastSpeechFrame - speechStartFrame + 1
        guard speechFrames * 10 >= settings.minimumSpeech else { return nil }
        let first = max(0, (speechStartFrame - settings.paddingBefore / 10) * Self.frameLength)
        let last = min(endFrame, lastSpeechFrame + 1 + settings.paddingAfter / 10) * Self.frameLength
        // The padding never reaches back into the previous utterance: its words would be
        // heard twice.
        let from = max(first, historyStart, previousEnd)
        let to = min(last, historyStart + history.count)
        guard to > from else { return nil }
        let range = (from - historyStart)..<(to - historyStart)
        var samples = Array(history[range])
        var processed = processedHistory.count == history.count ? Array(processedHistory[range]) : nil
        if early {
            // The rest of the hangover's quiet, from the padding before the speech.
            let missing = max(0, lastSpeechFrame + 1 + min(settings.hangover, settings.paddingAfter) / 10 - endFrame)
                * Self.frameLength
            let quiet = (from - historyStart)..<max(from - historyStart, speechStartFrame * Self.frameLength - historyStart)
            if missing > 0, !quiet.isEmpty {
                samples += Self.repeated(history[quiet], count: missing)
                if processed != nil { processed! += Self.repeated(processedHistory[quiet], count: missing) }
            }
        }
        return Segment(
            samples: samples, processed: processed,
            start: Double(from) / Double(AudioFormat.sampleRate), end: Double(to) / Double(AudioFormat.sampleRate),
            speechEnd: Double(lastSpeechFrame + 1) / 100, closedAt: Double(endFrame) / 100,
            snr: loudest - (floor ?? loudest), early: early, continuesEarly: hangoverAfterEarly != nil,
            quietBefore: previousSpeechEnd.map { Double(speechStartFrame - $0) / 100 } ?? .infinity,
            speechStart: Double(speechStartFrame) / 100)
    }

    /// `count` samples of `audio`, repeated as often as needed.
    private static func repeated(_ audio: ArraySlice<Int16>, count: Int) -> [Int16] {
        var out: [Int16] = []
        out.reserveCapacity(count)
        while out.count < count { out += audio.prefix(count - out.count) }
        return out
    }

    /// Keeps only what an utterance may still need: the padding before a start, or
    /// everything since the current utterance began.
    private func trimHistory() {
        let keepFrom: Int
        if inSpeech {
            keepFrom = max(0, (speechStartFrame - settings.paddingBefore / 10) * Self.frameLength)
        } else {
            keepFrom = max(0, (frameIndex - settings.paddingBefore / 10 - settings.startFrames - 1) * Self.frameLength)
        }
        let drop = keepFrom - historyStart
        if drop > AudioFormat.sampleRate {  // trim in bulk, not every frame
            history.removeFirst(drop)
            if !processedHistory.isEmpty { processedHistory.removeFirst(min(drop, processedHistory.count)) }
            historyStart = keepFrom
        }
    }
}

/// Whether the last `frames` frame energies (dB) were steady: their standard deviation at
/// most `deviation`, or at most `roomDeviation` where every one of them is under a level
/// (the room after speech). Speech never is for long; a fan or a hum is.
struct SteadyLevel {
    let frames: Int
    let deviation: Double
    let roomDeviation: Double
    private var ring: [Double] = []
    private var next = 0
    private var sum = 0.0
    private var squares = 0.0

    init(frames: Int, deviation: Double, roomDeviation: Double) {
        self.frames = frames
        self.deviation = deviation
        self.roomDeviation = max(deviation, roomDeviation)
    }

    /// Adds a frame's energy; returns the mean of the last `frames` when they were steady.
    mutating func add(_ db: Double, roomUnder ceiling: Double = -.infinity) -> Double? {
        guard frames > 1 else { return nil }
        if ring.count < frames {
            ring.append(db)
        } else {
            sum -= ring[next]
            squares -= ring[next] * ring[next]
            ring[next] = db
            next = (next + 1) % frames
        }
        sum += db
        squares += db * db
        guard ring.count == frames else { return nil }
        let mean = sum / Double(frames)
        let spread = max(0, squares / Double(frames) - mean * mean).squareRoot()
        if spread <= deviation { return mean }
        return spread <= roomDeviation && ring.allSatisfy({ $0 < ceiling }) ? mean : nil
    }

    mutating func reset() {
        ring.removeAll(keepingCapacity: true)
        next = 0
        sum = 0
        squares = 0
    }
}
