import Foundation
import VshCore

/// The voice pipeline's recognitions, made on a thread of their own so that decoding can
/// begin while the endpointer still waits out a pause: the endpointer cuts the utterance
/// the early end will be asked about after `Endpointer.Settings.earlyCut` of quiet
/// (`Endpointer.willAskEarly`), and by the time the pause has lasted long enough to ask,
/// the decode is done or nearly. What is heard depends on the audio alone, never on
/// whether it was decoded ahead: the same audio asked for again is the recognition
/// already made, and audio that was not begun ahead (the thread was busy with an earlier
/// utterance's, or nothing was offered) is decoded when asked.
///
/// Used from one thread, the pipeline's; every call into the recogniser runs on the
/// recognition thread, one at a time.
final class RecognitionAhead: @unchecked Sendable {
    /// A recognition, when it was begun (stream seconds) and the CPU seconds it took.
    struct Heard {
        var recognition: Recognition
        var begunAt: Double
        var decoding: Double
    }

    private final class Job: @unchecked Sendable {
        let audio: [Int16]
        let start: Double
        let begunAt: Double
        let done = DispatchGroup()
        /// Written on the recognition thread before `done` is left; read after waiting.
        var heard: (Recognition, Double)?

        init(audio: [Int16], start: Double, begunAt: Double) {
            self.audio = audio
            self.start = start
            self.begunAt = begunAt
        }

        func isOf(_ audio: [Int16], start: Double) -> Bool { self.start == start && self.audio == audio }
        var isFinished: Bool { done.wait(timeout: .now()) == .success }
    }

    /// The most audio begun ahead (samples): 4 s, a command's words with the padding around
    /// them. A longer utterance is talk, mostly, and each pause in it would begin another
    /// decode of all of it: with no limit, listening to background talk took 33% of a core
    /// instead of 2% (bench/prompt.py); the limit brought it back to 2%.
    static let longest = 4 * AudioFormat.sampleRate

    private let recognizer: CommandRecognizer
    private let queue = DispatchQueue(label: "vsh.recognition")
    /// The last recognition asked for or begun.
    private var last: Job?

    init(_ recognizer: CommandRecognizer) {
        self.recognizer = recognizer
    }

    /// Begins recognising `audio` (from `start` in the stream) at stream time `now`,
    /// unless the recognition thread is still busy: then it is recognised when asked for.
    func begin(_ audio: [Int16], start: Double, now: Double) {
        guard audio.count <= Self.longest else { return }
        if let last, !last.isFinished { return }
        last = run(Job(audio: audio, start: start, begunAt: now))
    }

    /// The recognition of `audio`: the one begun ahead or made before, when it was of the
    /// same audio (waited for), else one made now, at stream time `now`.
    func recognition(of audio: [Int16], start: Double, now: Double) -> Heard {
        let job = last.flatMap { $0.isOf(audio, start: start) ? $0 : nil } ?? run(Job(audio: audio, start: start, begunAt: now))
        last = job
        job.done.wait()
        let (recognition, decoding) = job.heard!
        return Heard(recognition: recognition, begunAt: job.begunAt, decoding: decoding)
    }

    private func run(_ job: Job) -> Job {
        job.done.enter()
        queue.async { [self] in
            let began = Self.threadTime()
            let recognition = recognizer.recognize(job.audio, start: job.start)
            job.heard = (recognition, Self.threadTime() - began)
            job.done.leave()
        }
        return job
    }

    /// CPU seconds the calling thread has used.
    static func threadTime() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
