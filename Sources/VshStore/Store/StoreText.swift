import Foundation

/// Bytes that do not change once made: a file mapped into memory (the listing cache, so
/// a listing neither zero-fills nor copies 80 MB) or a copy of an array.
final class SharedBytes: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<UInt8>
    private let mapped: Bool

    init(_ bytes: [UInt8]) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        _ = copy.initialize(from: bytes)
        buffer = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(copy)[0..<bytes.count])
        mapped = false
    }

    /// The file at `path`, mapped read-only; nil if it cannot be. The store never writes
    /// into a file in place except by appending, so the mapped bytes stay as they were.
    init?(mapping path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0,
              let base = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0),
              base != MAP_FAILED else { return nil }
        buffer = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: Int(info.st_size))
        mapped = true
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
        } else {
            UnsafeMutableBufferPointer(mutating: buffer).deallocate()
        }
    }
}

/// A transcript's text, left as bytes of the file it was read from until it is asked
/// for: a listing of 100,000 transcripts need not copy their text into strings.
package struct StoreText: Sendable, Equatable {
    private let bytes: SharedBytes
    private let range: Range<Int>

    init(_ bytes: SharedBytes, _ range: Range<Int>) {
        self.bytes = bytes
        self.range = range
    }

    init(_ string: String) {
        let shared = SharedBytes(Array(string.utf8))
        self.init(shared, 0..<shared.buffer.count)
    }

    var string: String { withUTF8 { String(decoding: $0, as: UTF8.self) } }

    package func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(rebasing: bytes.buffer[range]))
    }

    package static func == (a: StoreText, b: StoreText) -> Bool {
        a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }
}
