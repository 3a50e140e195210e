import Foundation

/// What the store needs to know of a WAV file: its format, where its samples are and how
/// long it lasts. The recorder writes the file; a recorder killed mid-way leaves sizes in
/// the header that are zero or stale, so the length comes from the bytes really there.
/// Sealed files (`encrypt on`) are read through `AudioBytes`, decrypted as they are read.
package struct WaveFile: Equatable {
    package var sampleRate: Int
    var channels: Int
    var bitsPerSample: Int
    /// 1 = integer PCM (also given for WAVE_FORMAT_EXTENSIBLE over PCM).
    var format: Int
    /// Where the samples start, and how many bytes of them there are.
    var dataOffset: Int
    package var dataBytes: Int
    /// Whether the header's RIFF and data sizes disagree with the file (see `repair`).
    var sizesStale: Bool

    package var seconds: Double {
        let frame = channels * max(1, bitsPerSample / 8)
        return sampleRate > 0 && frame > 0 ? Double(dataBytes / frame) / Double(sampleRate) : 0
    }

    /// Reads the header of the WAV at `path` (plain, or sealed when the key is here);
    /// nil when it is missing, not a WAV, or sealed with a key this process lacks.
    package init?(path: String) {
        guard let audio = try? AudioBytes(path: path) else { return nil }
        self.init(audio)
    }

    /// Reads the header of the WAV in `audio`; nil when it is not a WAV.
    package init?(_ audio: AudioBytes) {
        let fileSize = audio.count
        func bytes(_ offset: Int, _ count: Int) -> [UInt8]? {
            let read = try? audio.read(at: offset, length: count)
            return read?.count == count ? read : nil
        }
        guard let riff = bytes(0, 12), riff[0..<4] == Array("RIFF".utf8)[...], riff[8..<12] == Array("WAVE".utf8)[...] else {
            return nil
        }
        var at = 12
        var fmt: [UInt8]?
        while let chunk = bytes(at, 8) {
            let size = Self.u32(chunk, 4)
            let id = String(decoding: chunk[0..<4], as: UTF8.self)
            if id == "fmt ", size >= 16 { fmt = bytes(at + 8, 16) }
            if id == "data" {
                guard let fmt else { return nil }
                sampleRate = Self.u32(fmt, 4)
                channels = Self.u16(fmt, 2)
                bitsPerSample = Self.u16(fmt, 14)
                let tag = Self.u16(fmt, 0)
                format = tag == 0xFFFE ? 1 : tag
                dataOffset = at + 8
                let available = fileSize - dataOffset
                dataBytes = size > 0 && size <= available ? size : available
                sizesStale = size != dataBytes || Self.u32(riff, 4) + 8 > fileSize
                return
            }
            at += 8 + size + (size & 1)
        }
        return nil
    }

    /// Rewrites the RIFF and data sizes of a WAV whose recorder never finished it, so that
    /// players see the whole recording. Two four-byte writes in the first sector. A sealed
    /// file is left alone: its sizes are put right as it is read (`AudioBytes`).
    package static func repair(_ path: String) {
        guard !SealedAudio.isSealed(path: path), let wave = WaveFile(path: path), wave.sizesStale else { return }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        func put(_ value: Int, at offset: Int) {
            var le = UInt32(clamping: value).littleEndian
            _ = pwrite(fd, &le, 4, off_t(offset))
        }
        put(wave.dataBytes, at: wave.dataOffset - 4)
        put(wave.dataOffset + wave.dataBytes - 8, at: 4)
        fsync(fd)
    }

    /// The peak level (0…1 of full scale) of each of `columns` equal stretches of the
    /// audio, read in blocks; nil unless the file is 16-bit PCM or it cannot be read.
    func peaks(path: String, columns: Int) -> [Double]? {
        guard let audio = try? AudioBytes(path: path) else { return nil }
        return try? peaks(audio, columns: columns)
    }

    /// The same of `audio`; throws when a sealed file fails to decrypt part-way.
    package func peaks(_ audio: AudioBytes, columns: Int) throws -> [Double]? {
        guard format == 1, bitsPerSample == 16, columns > 0 else { return nil }
        let samples = dataBytes / 2
        var peaks = [Int](repeating: 0, count: columns)
        let block = 1 << 16
        var done = 0
        while done < samples {
            let want = min(block, samples - done)
            let bytes = try audio.read(at: dataOffset + done * 2, length: want * 2)
            let n = bytes.count / 2
            guard n > 0 else { break }
            for i in 0..<n {
                let column = min(columns - 1, (done + i) * columns / max(1, samples))
                let level = abs(Int(Int16(bitPattern: UInt16(bytes[2 * i]) | UInt16(bytes[2 * i + 1]) << 8)))
                if level > peaks[column] { peaks[column] = level }
            }
            done += n
        }
        return peaks.map { Double($0) / 32768 }
    }

    private static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ at: Int) -> Int { u16(b, at) | u16(b, at + 2) << 16 }
}
