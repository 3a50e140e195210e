import Foundation

/// One round of learning at a time, across processes: an exclusive `flock` on a file in
/// the takes' directory, released when the holder ends, however it ends.
package final class LearningLock {
    private let fd: Int32

    /// Nil when another process holds it.
    package init?(directory: String) {
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        fd = open(directory + "/.learning.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
    }

    package func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
