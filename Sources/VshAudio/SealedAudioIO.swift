internal import CSndFile
import Foundation
import VshAudioFiles
import VshStore

/// libsndfile's virtual I/O over an encrypted store file (`encrypt on`): libsndfile reads
/// the plain WAV through these callbacks while `AudioBytes` decrypts it chunk by chunk,
/// so play, transcribe and `record --from` read encrypted audio as they read any WAV, and
/// no plain copy is ever written.
///
/// `AudioFile` owns the box for as long as its `SNDFILE` handle lives (the handle holds
/// an unretained pointer to it). A chunk that fails to decrypt mid-way cannot be thrown
/// through C: the read callback returns short and keeps the error, which `AudioFile`
/// throws. Not thread-safe.
final class SealedAudioIO {
    let audio: AudioBytes
    private(set) var position = 0
    /// The first failure to decrypt, for `AudioFile.read` to throw.
    private(set) var failure: Error?

    init(audio: AudioBytes) {
        self.audio = audio
    }

    /// Opens a `SNDFILE` over this box; nil with libsndfile's error set when it cannot.
    func open(_ info: inout SF_INFO) -> OpaquePointer? {
        var io = SF_VIRTUAL_IO(
            get_filelen: { user in sf_count_t(SealedAudioIO.box(user).audio.count) },
            seek: { offset, whence, user in SealedAudioIO.box(user).seek(Int(offset), whence) },
            read: { pointer, count, user in SealedAudioIO.box(user).read(pointer, Int(count)) },
            write: { _, _, _ in 0 },
            tell: { user in sf_count_t(SealedAudioIO.box(user).position) })
        // libsndfile copies the callbacks; the box must outlive the handle (AudioFile).
        return sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func box(_ user: UnsafeMutableRawPointer?) -> SealedAudioIO {
        Unmanaged<SealedAudioIO>.fromOpaque(user!).takeUnretainedValue()
    }

    private func seek(_ offset: Int, _ whence: Int32) -> sf_count_t {
        switch whence {
        case SEEK_SET: position = offset
        case SEEK_CUR: position += offset
        case SEEK_END: position = audio.count + offset
        default: return -1
        }
        position = max(0, position)
        return sf_count_t(position)
    }

    private func read(_ pointer: UnsafeMutableRawPointer?, _ count: Int) -> sf_count_t {
        guard let pointer, count > 0, failure == nil else { return 0 }
        do {
            let bytes = try audio.read(at: position, length: count)
            bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            position += bytes.count
            return sf_count_t(bytes.count)
        } catch {
            failure = error
            return 0
        }
    }
}
