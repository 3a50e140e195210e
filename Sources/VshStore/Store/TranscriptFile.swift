import Foundation

/// The header of a transcript's `.txt` file: `Key: value` lines, then a blank line, then
/// the text (FORMAT.md). Keys vsh does not know are ignored, so other tools may add some.
package struct TranscriptHeader: Sendable, Equatable {
    package var id: String?
    package var title: String?
    package var created: StoreDate?
    package var duration: Double?
    package var quality: String?
    package var sampleRate: Int?
    /// The audio file's name, beside the `.txt`.
    package var audio: String?
    /// Where the audio came from: `microphone default`, `file notes.wav`.
    package var source: String?

    package init() {}

    /// The whole file: header lines in a fixed order, a blank line, the text.
    func rendered(text: String) -> String {
        var out = ""
        func line(_ key: String, _ value: String?) {
            guard let value else { return }
            out += "\(key): \(Self.oneLine(value))\n"
        }
        line("Id", id)
        line("Title", title)
        line("Created", created?.iso)
        line("Duration", duration.map { String(format: "%.2f", $0) })
        line("Quality", quality)
        line("Sample-Rate", sampleRate.map(String.init))
        line("Audio", audio)
        line("Source", source)
        out += "\n"
        if !text.isEmpty { out += text.hasSuffix("\n") ? text : text + "\n" }
        return out
    }

    /// A header value is one line, whatever it was given.
    static func oneLine(_ value: String) -> String {
        value.contains(where: \.isNewline) ? value.split(whereSeparator: \.isNewline).joined(separator: " ") : value
    }
}

/// Why a file could not be read as a transcript; shown in the warning that names it.
struct DamagedFile: Error, Equatable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

enum TranscriptFile {
    /// Reads a header from `bytes`; returns it and where the text starts. `validate`
    /// checks that the whole file is UTF-8 text (the listing cache holds only files that
    /// passed, so reading it skips that).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, validate: Bool) throws -> (TranscriptHeader, textStart: Int) {
        if validate {
            if bytes.isEmpty { throw DamagedFile(reason: "the file is empty") }
            if bytes.contains(0) { throw DamagedFile(reason: "binary data, not text") }
            if String(validating: bytes, as: UTF8.self) == nil {
                throw DamagedFile(reason: "not UTF-8 text")
            }
        }
        var header = TranscriptHeader()
        var start = 0
        var lineNumber = 0
        let base = bytes.baseAddress
        while true {
            // memchr: headers of 100,000 files are read for every listing.
            guard let base, start < bytes.count,
                  let found = memchr(base + start, 10, bytes.count - start) else {
                throw DamagedFile(reason: "the header does not end in a blank line (truncated?)")
            }
            let end = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            lineNumber += 1
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
            if lineEnd == start { return (header, end + 1) }
            guard let colon = bytes[start..<lineEnd].firstIndex(of: 58) else {
                throw DamagedFile(reason: "header line \(lineNumber) is not 'Key: value'")
            }
            var valueStart = colon + 1
            while valueStart < lineEnd && bytes[valueStart] == 32 { valueStart += 1 }
            try header.set(key: bytes[start..<colon], value: UnsafeBufferPointer(rebasing: bytes[valueStart..<lineEnd]))
            start = end + 1
        }
    }

    /// Parses a whole file's bytes into its header and text.
    static func read(_ bytes: [UInt8]) throws -> (TranscriptHeader, text: String) {
        try bytes.withUnsafeBufferPointer { buffer in
            let (header, start) = try parse(buffer, validate: true)
            return (header, text(buffer, from: start))
        }
    }

    /// The text after the header, without the file's final newline.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> String {
        var end = bytes.count
        if end > start && bytes[end - 1] == 10 { end -= 1 }
        return start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : ""
    }
}

extension TranscriptHeader {
    fileprivate mutating func set(key: Slice<UnsafeBufferPointer<UInt8>>, value bytes: UnsafeBufferPointer<UInt8>) throws {
        // Keys differ in length or first letter, so most comparisons stop at once.
        func named(_ name: StaticString) -> Bool {
            guard key.count == name.utf8CodeUnitCount, key.first! | 0x20 == name.utf8Start.pointee else { return false }
            let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            return zip(key, expected).allSatisfy { $0 | 0x20 == $1 | 0x20 }
        }
        var value: String { String(decoding: bytes, as: UTF8.self) }
        if named("id") {
            id = value
        } else if named("title") {
            title = value
        } else if named("created") {
            guard let date = StoreDate(utf8: bytes) else {
                throw DamagedFile(reason: "Created '\(value)' is not a date like 2026-11-21T14:02:11+01:00")
            }
            created = date
        } else if named("duration") {
            guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
                throw DamagedFile(reason: "Duration '\(value)' is not a number of seconds")
            }
            duration = seconds
        } else if named("quality") {
            quality = value
        } else if named("sample-rate") {
            guard let rate = Int(value), rate > 0 else {
                throw DamagedFile(reason: "Sample-Rate '\(value)' is not a whole number")
            }
            sampleRate = rate
        } else if named("audio") {
            audio = value
        } else if named("source") {
            source = value
        }
    }
}
