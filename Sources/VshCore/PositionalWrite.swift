import Foundation

/// `pwrite` until every byte is written: the one loop every writer of audio and store
/// files uses (recordings, sealed chunks, conversions).
package enum PositionalWrite {
    /// Writes all of `bytes` at `offset` of `descriptor`, retrying short writes and
    /// interruptions. Returns false, with `errno` saying why, when a write fails.
    package static func all(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                if n == 0 { errno = EIO }
                return false
            }
            done += n
        }
        return true
    }
}
