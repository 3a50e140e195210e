import Foundation

/// Reading a pipe to its end, the one loop every reader of a child's output uses.
/// Foundation's `readDataToEndOfFile` and `availableData` stop the whole process
/// (`try!`) when a signal handler without SA_RESTART interrupts the read.
package enum DescriptorRead {
    /// Everything `descriptor` gives until end of file, retrying interruptions. A read
    /// error other than an interruption ends it with what was read so far.
    package static func toEnd(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while case let n = some(descriptor, into: &buffer), n > 0 { data.append(contentsOf: buffer[0..<n]) }
        return data
    }

    /// What one read of `descriptor` gives (empty at end of file or on an error),
    /// retrying interruptions: the piecewise form of `toEnd`.
    package static func some(_ descriptor: Int32) -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = some(descriptor, into: &buffer)
        return Data(buffer[0..<max(0, n)])
    }

    private static func some(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }
}

extension FileHandle {
    /// `readDataToEndOfFile` that survives a signal: see `DescriptorRead`.
    package func readToEndRetrying() -> Data { DescriptorRead.toEnd(fileDescriptor) }

    /// `availableData` that survives a signal: see `DescriptorRead`.
    package func readSomeRetrying() -> Data { DescriptorRead.some(fileDescriptor) }
}
