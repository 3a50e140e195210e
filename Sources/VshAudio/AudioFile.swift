internal import CSndFile
import Foundation
import VshAudioFiles
import VshCore
import VshStore

/// An audio file open for reading through libsndfile: WAV, FLAC, Ogg/Vorbis, MP3 (and the other
/// formats libsndfile knows), or a headerless `.raw` file, read as 16 kHz 16-bit
/// little-endian mono. Hands out interleaved float frames in −1…1; `FileAudioSource` turns
/// them into the 16 kHz mono stream the voice pipeline wants.
///
/// Store audio encrypted by `encrypt on` is read through libsndfile's virtual I/O and
/// decrypted as it is read (`SealedAudioIO`).
///
/// Owns one C resource, the `SNDFILE` handle, closed in `deinit`. The file descriptor is
/// opened here, so that a missing, unreadable, empty or directory path gets a precise
/// message, and then handed to libsndfile (`sf_open_fd` with `close_desc` true), which
/// closes it. Not thread-safe.
final class AudioFile {
    /// The path as given, for messages.
    let path: String
    /// The file's own rate in Hz.
    let sampleRate: Int
    let channels: Int
    /// Frames (one sample per channel) as the file states.
    let frames: Int64

    /// Owned: `sf_close` in deinit (which closes the descriptor too).
    private let handle: OpaquePointer
    /// For an encrypted file: what the handle reads through. Owned: released after
    /// `sf_close` (the handle points at it).
    private let sealed: SealedAudioIO?

    /// What vsh reads, for messages about files it cannot.
    static let formats = "vsh reads WAV, FLAC, Ogg, MP3 and headerless 16 kHz 16-bit .raw"
    /// The hint for a file libsndfile recognises but cannot decode.
    static let damaged = "It may be truncated or damaged."
    /// Held across every `sf_open_*` and the read of its error (libsndfile's `sf_errno`
    /// is process-wide).
    private static let opening = NSLock()

    /// Opens `path`. A name ending in `.raw` (any case) is read as headerless 16 kHz 16-bit
    /// little-endian mono; anything else must carry a header libsndfile recognises.
    init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw AudioFile.error(path, AudioFile.reason(errno: errno)) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = AudioFile.reason(errno: errno)
            close(fd)
            throw AudioFile.error(path, reason)
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw AudioFile.error(path, "it is a directory; give the path of an audio file")
        }
        if status.st_mode & S_IFMT == S_IFREG && status.st_size == 0 {
            close(fd)
            throw AudioFile.error(path, "the file is empty")
        }

        var info = SF_INFO()
        var sealed: SealedAudioIO?
        if AudioFile.isRaw(path) {
            info.samplerate = Int32(AudioFormat.sampleRate)
            info.channels = 1
            info.format = Int32(SF_FORMAT_RAW | SF_FORMAT_PCM_16 | SF_ENDIAN_LITTLE)
        } else if SealedAudio.isSealed(path: path) {
            // Encrypted store audio (`encrypt on`): decrypted as libsndfile reads it, from
            // bytes read by path; the descriptor is not needed.
            close(fd)
            sealed = SealedAudioIO(audio: try AudioBytes(path: path))
        }
        // libsndfile keeps the error of a failed open in one global; another thread's open
        // may overwrite it, so the open and the reading of its error share one lock. The
        // descriptor is libsndfile's from here: it closes it after a failed open too,
        // whatever `close_desc` says, and a second close here could close a file another
        // thread had just opened under the same number.
        let (opened, code, text) = AudioFile.opening.withLock {
            let opened = if let sealed { sealed.open(&info) } else { sf_open_fd(fd, Int32(SFM_READ), &info, 1) }
            return opened == nil ? (opened, sf_error(nil), String(cString: sf_strerror(nil))) : (opened, 0, "")
        }
        guard let handle = opened else {
            if let failure = sealed?.failure { throw failure }
            let reason = AudioFile.sentence(text)
            let unknown = Int(code) == SF_ERR_UNRECOGNISED_FORMAT || Int(code) == SF_ERR_UNSUPPORTED_ENCODING
            throw AudioFile.error(path, "\(reason) \(unknown ? AudioFile.formats : AudioFile.damaged)")
        }
        guard info.frames > 0, info.channels > 0, info.samplerate > 0 else {
            sf_close(handle)
            throw AudioFile.error(path, "it holds no audio (0 samples)")
        }
        self.path = path
        self.handle = handle
        self.sampleRate = Int(info.samplerate)
        self.channels = Int(info.channels)
        self.frames = info.frames
        self.sealed = sealed
    }

    deinit {
        sf_close(handle)
    }

    /// Reads up to `frames` frames into `buffer` (room for `frames × channels` floats,
    /// interleaved, normalised to −1…1) and returns how many it read; 0 at the end.
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws -> Int {
        let got = sf_readf_float(handle, buffer, sf_count_t(frames))
        if let failure = sealed?.failure { throw failure }
        if got < frames && sf_error(handle) != 0 {
            let reason = AudioFile.sentence(String(cString: sf_strerror(handle)))
            throw AudioFile.error(path, "\(reason) \(AudioFile.damaged)")
        }
        return Int(max(got, 0))
    }

    /// Headerless 16 kHz 16-bit mono, by name.
    static func isRaw(_ path: String) -> Bool {
        (path as NSString).pathExtension.lowercased() == "raw"
    }

    /// The message for any failure to read `path`.
    static func error(_ path: String, _ reason: String) -> AudioError {
        AudioError("cannot read audio file '\(path)': \(reason)")
    }

    /// Why `open` or `fstat` failed, in words a person can act on.
    static func reason(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case ENOTDIR: return "a directory in its path is a file"
        case EACCES, EPERM: return "permission denied; make it readable (chmod u+r)"
        case ELOOP: return "too many symbolic links"
        default: return String(cString: strerror(code))
        }
    }

    /// libsndfile's message as a sentence: trimmed, without its "Error : " prefix, with
    /// a capital and a final period (`"Error : flac decoder lost sync."` becomes
    /// `"Flac decoder lost sync."`).
    static func sentence(_ text: String) -> String {
        var trimmed = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if trimmed.hasPrefix("Error : ") { trimmed = trimmed.dropFirst("Error : ".count) }
        guard let first = trimmed.first else { return "libsndfile cannot read it." }
        let capitalised = first.uppercased() + trimmed.dropFirst()
        return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
    }
}
