import Foundation

/// Where commands write. Commands never `print`: they write to the sinks in their
/// `CommandContext`, so tests can capture exactly what a person would see.
package protocol TextSink: AnyObject {
    func write(_ text: String)
    /// Whether what is written goes to a terminal, which reads cursor codes (a status
    /// line rewritten in place); false unless the sink says otherwise.
    var isTerminal: Bool { get }
}

extension TextSink {
    package var isTerminal: Bool { false }

    /// Writes `text` followed by a newline.
    package func line(_ text: String = "") { write(text + "\n") }
}

/// A sink over a file descriptor (standard output or error). Unbuffered, so output
/// to stdout and stderr keeps its order when both go to one terminal.
package final class FileDescriptorSink: TextSink, @unchecked Sendable {
    private let handle: FileHandle
    /// Whether the descriptor is a terminal (decides colours and cursor codes).
    package let isTerminal: Bool

    package init(fileDescriptor: Int32) {
        handle = FileHandle(fileDescriptor: fileDescriptor, closeOnDealloc: false)
        isTerminal = isatty(fileDescriptor) == 1
    }

    package func write(_ text: String) {
        guard !text.isEmpty else { return }
        // A closed pipe (vsh ... | head) must not kill the shell mid-command.
        try? handle.write(contentsOf: Data(text.utf8))
    }

    package static let standardOutput = FileDescriptorSink(fileDescriptor: 1)
    package static let standardError = FileDescriptorSink(fileDescriptor: 2)
}
