import Foundation
import VshCore
import VshVoice

/// A shorter enrolment: `train` stops asking for phrases once more takes stop helping. At
/// each checkpoint (`first` takes, then every `step`) the takes so far are heard held out
/// (`HeldOut`) in the background while the person goes on speaking; asking stops when the
/// share heard right is at least `enough` and rose by less than `gain` since the checkpoint
/// before (or is at least `plenty` at once).
package final class Enrolment: @unchecked Sendable {
    package static let first = 20
    package static let step = 10
    package static let enough = 0.95
    package static let gain = 0.02
    package static let plenty = 0.99

    /// Hears the takes held out and gives the share right; runs off the caller's thread.
    let check: ([TrainingTakes.Take]) throws -> Double
    private let state = Locked<(running: Bool, shares: [Double], done: Bool)>((false, [], false))
    private let group = DispatchGroup()

    package init(check: @escaping ([TrainingTakes.Take]) throws -> Double) {
        self.check = check
    }

    /// After each kept take, with every take kept so far: starts a check at a checkpoint
    /// (none while one runs).
    package func kept(_ takes: [TrainingTakes.Take]) {
        let n = takes.count
        guard n >= Self.first, (n - Self.first) % Self.step == 0 else { return }
        let start = state.withLock { s -> Bool in
            guard !s.running, !s.done else { return false }
            s.running = true
            return true
        }
        guard start else { return }
        group.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            defer { group.leave() }
            let share = try? check(takes)
            state.withLock { s in
                s.running = false
                guard let share else { return }
                if share >= Self.plenty || (share >= Self.enough && s.shares.last.map { share - $0 < Self.gain } == true) {
                    s.done = true
                }
                s.shares.append(share)
            }
        }
    }

    /// Whether more takes have stopped helping.
    package var isEnough: Bool { state.withLock { $0.done } }
    /// The shares right at each checkpoint so far.
    package var shares: [Double] { state.withLock { $0.shares } }

    /// Waits for a check under way.
    package func wait() { group.wait() }

    static let notNeededName = ".not-needed"

    /// Notes that the script's phrases `rest` were not needed, so `train` does not ask for them.
    package static func skip(_ rest: [String], takes: TrainingTakes) throws {
        try AtomicFile.write(Data((rest.joined(separator: "\n") + "\n").utf8), to: takes.directory + "/" + notNeededName)
    }

    /// The phrases a shorter enrolment left out.
    package static func notNeeded(_ takes: TrainingTakes) -> Set<String> {
        let text = (try? String(contentsOfFile: takes.directory + "/" + notNeededName, encoding: .utf8)) ?? ""
        return Set(text.split(separator: "\n").map(String.init))
    }
}
