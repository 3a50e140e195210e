import Foundation
import VshCore
import VshSpoken
import VshVoice

/// Turning listening on and off (`listen on|off`).
package protocol ListeningControl: AnyObject {
    /// One line on what the listener does now.
    var status: String { get }
    /// Sets when spoken commands are taken (`listen always|wake|key`); returns what to say.
    func setAttention(_ attention: Attention) -> String
    /// Turns listening on or off; returns what to tell the person. Throws when there is
    /// no audio input to listen to.
    func setListening(_ on: Bool) throws -> String
}

/// The prompt's side of listening: takes what the listener thread heard and decides, on
/// the reading thread, what the prompt does with it. Confident commands run as if typed
/// (destructive ones after a yes); unsure ones get "did you mean" with the runners-up;
/// doubtful speech is ignored; while off, only the wake phrase counts. Pure logic over
/// events, so tests drive it without audio.
package final class VoicePrompt: PromptSideInput, ListeningControl, @unchecked Sendable {
    package struct Options: Sendable {
        /// Said while listening is off, turns it on again (a spoken pattern).
        package var wakePhrase = "listen on"
        /// Spoken destructive commands ask for yes or no first.
        package var confirmDestructive = true
        /// Seconds a question waits for its answer.
        package var answerSeconds = 10.0
        /// Seconds of quiet a command needs before it (`voice.quiet_before_ms`).
        package var quietBefore = 0.0
        /// When spoken commands are taken (`voice.attention`).
        package var attention = Attention.always
        /// Seconds the wake phrase (or the talk key) keeps vsh taking commands, from the
        /// last thing said to it.
        package var awakeSeconds = 6.0
        /// The confidence the wake phrase needs: the strictest check vsh has, since it
        /// opens the door to every command.
        package var wakeConfidence = Options.wakeConfidence
        package static let wakeConfidence = 0.8
        package var marks = PromptMarks.ascii
        package var style = Style.plain
        /// Also show ignored speech and each spoken command's timing.
        package var verbose = false

        package init() {}

        package init(settings: Settings) {
            wakePhrase = settings.wakePhrase
            confirmDestructive = settings.confirmDestructive
            answerSeconds = settings.answerSeconds
            quietBefore = Double(settings.quietBefore) / 1000
            attention = settings.attention
        }
    }

    package let options: Options
    /// The listener thread; nil in tests that post events themselves.
    package var listener: Listener?
    /// Whether running the candidate cannot be taken back without undo (then a spoken one
    /// asks first); see `destructive(in:)`.
    package var isDestructive: (VoiceCandidate) -> Bool = { _ in false }
    /// Whether running the candidate ends the session (`exit`): a spoken one always asks
    /// first; see `endsSession(in:)`.
    package var endsSession: (VoiceCandidate) -> Bool = { _ in false }
    /// Why a command can do nothing now, nil when it can; see `unavailable(in:)`.
    package var unavailable: (VoiceCandidate) -> String? = { _ in nil }
    /// When speech starts, on the prompt's thread: reloads command files that changed,
    /// so a command from a file dropped in a moment ago is heard; returns what to say.
    package var beforeHearing: () -> String? = { nil }
    /// Where spoken commands' audio is kept; nil keeps none.
    package var clips: ClipStore?
    /// Seconds on a monotonic clock (questions lapse by it). Tests replace it.
    package var clock: () -> Double = VoicePrompt.monotonic
    /// The prompt without the mark, as the shell gives it.
    package var basePrompt = "vsh> "

    // The inbox: written by the listener thread, read by the prompt's.
    private let inbox = Locked<[ListenerEvent]>([])
    let wakeup = WakePipe()

    // The prompt's state: touched only on the reading thread, which `promptThread` checks.
    let promptThread = OwningThread("the prompt's thread")
    /// The input audio comes from, while it flows.
    package private(set) var input: String?
    /// Why vsh is not listening, when it tried and could not.
    package private(set) var problem: String?
    package internal(set) var isOn = true { didSet { mirrorSleep() } }
    /// The input was a file that has played to its end.
    private var inputEnded = false
    /// `listen on` asked to try the input again: its outcome is said, even a quiet failure.
    private var retrying = false
    private var hearing = false
    /// When spoken commands are taken; `listen always|wake|key` changes it.
    package internal(set) var attention: Attention { didSet { mirrorSleep() } }
    /// Until when (`clock`) vsh takes commands, in `wake` and `key` attention: the wake
    /// phrase or the talk key opened it.
    var awakeUntil = -Double.infinity { didSet { mirrorSleep() } }
    /// What the listener thread reads of the three above (`awaitsWakePhrase`): whether vsh
    /// sleeps until the wake phrase (attention `wake`, listening on), and until when it is
    /// awake.
    private let sleep = Locked((forPhrase: false, awakeUntil: -Double.infinity))
    /// The prompt the reader shows, as last handed to it.
    private var shown: String?
    /// A command has run since the last utterance: the next one is said to vsh after it,
    /// and the quiet the listener missed while it ran is not counted (`quietBefore`).
    var afterCommand = false
    /// When the speech of the last utterance with a voice in it ended (`Segment.speechEnd`;
    /// nil before any), and whether the utterances since were all voiceless
    /// (`Recognition.isVoiceless`). A breath or a click before a command is no talk: the
    /// command's quiet before it is counted from the speech before them (`decide`).
    var lastVoicedSpeechEnd: Double?
    var afterVoiceless = false
    var question: PromptQuestion?
    var wake: SpokenPattern?
    /// What the prompt did with the last utterance (and the answer that settled a
    /// question): for `vsh listen` and the benchmarks.
    package internal(set) var lastVerdict: Verdict?
    /// When (`clock`) the prompt last said a command was not taken (`ignored`).
    var lastUnheardNote = -Double.infinity

    package init(options: Options) {
        self.options = options
        attention = options.attention
        wake = try? SpokenPattern.parse(options.wakePhrase)
        mirrorSleep()
    }

    private func mirrorSleep() {
        let state = (forPhrase: isOn && attention == .wake, awakeUntil: awakeUntil)
        sleep.withLock { $0 = state }
    }

    /// Whether vsh is asleep in attention `wake`, waiting for its wake phrase
    /// (`WakePhraseAgain`), at `now` (`clock`'s time; nil: now). Any thread: the listener
    /// asks before each utterance, and takes no audio while the prompt decides one.
    package func awaitsWakePhrase(at now: Double? = nil) -> Bool {
        let state = sleep.withLock { $0 }
        return state.forPhrase && (now ?? clock()) >= state.awakeUntil
    }

    /// Seconds since an arbitrary start, never going back.
    package static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    // MARK: - From the listener thread

    /// Queues an event for the prompt and wakes the reader. Any thread. After an
    /// utterance the listener takes no more audio until the prompt has decided it (and,
    /// when that ran a command, until the command is done): a command it heard runs before
    /// more audio is read.
    package func post(_ event: ListenerEvent) {
        if case .heard = event { listener?.pause() }
        inbox.withLock { $0.append(event) }
        wakeup.poke()
    }

    // MARK: - Who may listen

    /// The prompt waits for a line: the listener may take audio. Returns the prompt to
    /// show, with the listening mark. The one place, with
    /// `promptIsBusy` and `post`, that starts and stops the listener's reading.
    package func promptWaits(prompt: String) -> String {
        basePrompt = prompt
        listener?.resume()
        shown = self.prompt()
        return shown!
    }

    /// The prompt has a line to run: the listener takes no audio until the next prompt,
    /// so that no speech is taken as a command while one runs, and `record` may take the
    /// input (`ListenerAudio.releaseDevice`).
    package func promptIsBusy() {
        listener?.pause()
        afterCommand = true
    }

    package var fileDescriptor: Int32 { wakeup.readEnd }

    // MARK: - On the reading thread

    /// The listening state the mark shows; nil when there is nothing listening.
    package var state: ListeningState? {
        guard input != nil else { return nil }
        if question != nil { return .asking }
        if !isOn || !isAwake { return .off }
        return hearing ? .hearing : .listening
    }

    /// Whether spoken commands are taken now: always, or while the wake phrase or the
    /// talk key keeps vsh awake.
    var isAwake: Bool { attention == .always || clock() < awakeUntil }

    /// The talk key (attention `key`): takes one command, said within `awakeSeconds`.
    package func talkKey() {
        promptThread.check()
        guard attention == .key, isOn else { return }
        awakeUntil = clock() + options.awakeSeconds
        let wakeup = self.wakeup
        DispatchQueue.global().asyncAfter(deadline: .now() + options.awakeSeconds + 0.05) { wakeup.poke() }
        wakeup.poke()
    }

    /// The prompt with the listening mark in front: `● vsh> `.
    package func prompt() -> String {
        promptThread.check()
        guard let state else { return basePrompt }
        return options.marks.mark(state) + " " + basePrompt
    }

    package func takeActions() -> [PromptAction] {
        promptThread.check()
        wakeup.drain()
        var events = inbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }

        // What the reader shows: the mark may have changed since without an event (the
        // talk key, a lapsed wake-up).
        let shownBefore = shown ?? prompt()
        var notes: [String] = []
        var submit: SpokenLine?
        if let q = question, clock() >= q.deadline {
            question = nil
            notes.append(dim("(no answer: \(q.subject) not run)"))
        }
        while submit == nil, !events.isEmpty {
            switch events.removeFirst() {
            case .ready(let name, let wakePhrase):
                input = name
                problem = nil
                if retrying { notes.append(dim("(listening to \(name))")) }
                retrying = false
                if wakePhrase != options.wakePhrase { wake = try? SpokenPattern.parse(wakePhrase) }
            case .speechStarted:
                hearing = true
                if let note = beforeHearing() { notes.append(dim("(\(note))")) }
            case .heard(let utterance, let grammar, let gate):
                hearing = false
                submit = decide(utterance, grammar: grammar, gate: gate, notes: &notes)
                // The listener waits after each utterance, so that a command it heard runs
                // before it takes in more audio; go on unless the line is leaving.
                if submit == nil { listener?.resume() }
            case .note(let message):
                notes.append(options.style.yellow("warning:") + " " + message)
            case .ended(let message):
                input = nil
                hearing = false
                problem = message
                inputEnded = true
                notes.append(dim("(\(message); no longer listening)"))
            case .failed(let message, let quiet):
                input = nil
                hearing = false
                problem = message
                if !quiet || retrying { notes.append(options.style.yellow("warning:") + " not listening: \(message)") }
                retrying = false
            }
        }
        if !events.isEmpty {
            // After a command is submitted, the rest waits for the next prompt.
            inbox.withLock { [events] in $0.insert(contentsOf: events, at: 0) }
            wakeup.poke()
        }
        var actions: [PromptAction] = []
        if !notes.isEmpty {
            actions.append(.notice(notes, prompt: prompt()))
        } else if prompt() != shownBefore {
            actions.append(.prompt(prompt()))
        }
        shown = prompt()
        if let submit { actions.append(.submit(submit, mark: mark(for: submit))) }
        return actions
    }

    /// What the prompt line shows after a spoken command: `[spoken 0.91]`.
    func mark(for spoken: SpokenLine) -> String {
        var text = "spoken " + String(format: "%.2f", spoken.confidence)
        if let settled = spoken.settled { text += ", " + settled }
        return "   " + dim("[" + text + "]")
    }

    func dim(_ text: String) -> String { options.style.dim(text) }

    // MARK: - Listening on and off

    package var status: String {
        guard let input else {
            if let problem { return "not listening: \(problem)" }
            return listener == nil ? "not listening: there is no audio input" : "not listening yet: the audio input is starting"
        }
        if !isOn { return "listening is off (\(input)); say \"\(options.wakePhrase)\" or type 'listen on' to turn it on" }
        switch attention {
        case .always: return "listening to \(input); say a command, or type one"
        case .wake: return "listening to \(input) for the wake phrase: say \"\(options.wakePhrase)\", then a command"
        case .key: return "listening to \(input) when you press Ctrl-T at the prompt: press it, then say a command"
        }
    }

    /// Sets when spoken commands are taken, for this session.
    package func setAttention(_ attention: Attention) -> String {
        promptThread.check()
        self.attention = attention
        awakeUntil = -.infinity
        listener?.refreshGrammar()
        switch attention {
        case .always: return "taking spoken commands said on their own"
        case .wake: return "taking spoken commands after \"\(options.wakePhrase)\""
        case .key: return "taking a spoken command after Ctrl-T at the prompt"
        }
    }

    package func setListening(_ on: Bool) throws -> String {
        promptThread.check()
        guard let listener else {
            throw CommandError("there is no audio input to listen to; start vsh with --audio-in DEVICE or FILE, without --no-voice")
        }
        isOn = on
        if on, input == nil, inputEnded {
            return "the audio input has ended (\(problem ?? "")); start vsh again to listen"
        }
        if on, input == nil {
            retrying = true
            listener.restart()
            return "trying the audio input again" + (problem.map { " (last time: \($0))" } ?? "")
        }
        if !on { question = nil }
        return on ? "listening" : "listening off; say \"\(options.wakePhrase)\" or type 'listen on' to turn it back on"
    }
}
