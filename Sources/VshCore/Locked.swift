import Foundation

/// The one lock vsh uses: state that more than one thread touches, with the mutex that
/// guards it and a condition to wait on (an `NSCondition`). Every change wakes the
/// waiters, which check their condition again, so a waiter never misses a change.
package final class Locked<State>: @unchecked Sendable {
    private let condition = NSCondition()
    private var state: State

    package init(_ state: State) { self.state = state }

    /// Runs `body` holding the lock; then wakes whoever waits for a change.
    @discardableResult
    package func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Waits until `ready` holds (re-checked after every change), then runs `body` holding
    /// the lock. `prepare` runs first, in the same hold of the lock (so nothing can change
    /// between it and the wait), and its change is announced to other waiters. Returns
    /// nil, without running `body`, when `deadline` passed first.
    package func wait<T>(until ready: (State) -> Bool, deadline: Date? = nil, prepare: (inout State) -> Void = { _ in },
                        then body: (inout State) -> T) -> T? {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        prepare(&state)
        condition.broadcast()
        while !ready(state) {
            if let deadline {
                if !condition.wait(until: deadline) && !ready(state) { return nil }
            } else {
                condition.wait()
            }
        }
        return body(&state)
    }
}

/// The thread some state belongs to, checked rather than written in a comment (as
/// fish's `assert_is_main_thread` and swift-nio's event-loop checks do). The first call
/// binds it; a call from any other thread afterwards is a programming error and traps.
package final class OwningThread: @unchecked Sendable {
    private let owner = Locked<pthread_t?>(nil)
    private let role: String

    /// `role` names the thread in the message: "the prompt's thread".
    package init(_ role: String) { self.role = role }

    package func check(_ function: StaticString = #function) {
        let me = pthread_self()
        let owner = owner.withLock { owner -> pthread_t in
            if owner == nil { owner = me }
            return owner!
        }
        precondition(pthread_equal(owner, me) != 0, "\(function) must be called on \(role) only")
    }
}
