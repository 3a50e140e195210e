import Foundation
import VshCore

/// The `.json` sidecar of a transcript: when each word was said and how sure the
/// recogniser was, `{"words":[{"word":…,"start":…,"end":…,"confidence":…}]}`.
enum WordTimings {
    static func json(_ words: [RecognizedWord]) -> String {
        "{\"words\":" + array(words) + "}\n"
    }

    /// `words` as a JSON array of `{"word", "start", "end", "confidence"}`.
    static func array(_ words: [RecognizedWord]) -> String {
        let objects = words.map {
            "{\"word\":\(JSON.string($0.word)),\"start\":\(JSON.number($0.start)),"
                + "\"end\":\(JSON.number($0.end)),\"confidence\":\(JSON.number($0.confidence))}"
        }
        return "[" + objects.joined(separator: ",") + "]"
    }

    /// The words in a sidecar; nil when it is missing or not in this shape.
    static func read(_ path: String) -> [RecognizedWord]? {
        guard let bytes = StoreFiles.read(path),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let list = object["words"] as? [[String: Any]] else { return nil }
        return words(list)
    }

    /// The words of a JSON array as `array` writes it; nil when one is not in this shape.
    static func words(_ list: [[String: Any]]) -> [RecognizedWord]? {
        var words: [RecognizedWord] = []
        for entry in list {
            guard let word = entry["word"] as? String, let start = (entry["start"] as? NSNumber)?.doubleValue,
                  let end = (entry["end"] as? NSNumber)?.doubleValue else { return nil }
            let confidence = (entry["confidence"] as? NSNumber)?.doubleValue ?? 0
            words.append(RecognizedWord(word: word, start: start, end: end, confidence: confidence))
        }
        return words
    }
}

/// A draft's words as they were written down, one JSON line per utterance appended as it
/// ends (`drafts/<id>.words`, FORMAT.md): `{"seconds":…,"text":…,"words":[…]}`, the seconds
/// of audio written down by then, the utterance's text and its words.
enum DraftWords {
    static func line(seconds: Double, text: String, words: [RecognizedWord]) -> String {
        "{\"seconds\":\(JSON.number(seconds)),\"text\":\(JSON.string(text)),\"words\":\(WordTimings.array(words))}\n"
    }

    /// Appends `line` to `path` and makes it durable, through the store's one write loop
    /// (`PositionalWrite`; the store's lock keeps appends one at a time). A line torn by
    /// an earlier failure is ended first, so it stands alone and the reader leaves it out.
    static func append(_ line: String, to path: String) throws {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw FileError.current("cannot write \(path)", path: path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError.current("cannot write \(path)", path: path) }
        let end = Int(info.st_size)
        var bytes = Array(line.utf8)
        var last: UInt8 = 10
        if end > 0, pread(fd, &last, 1, off_t(end - 1)) == 1, last != 10 { bytes.insert(10, at: 0) }
        guard bytes.withUnsafeBytes({ PositionalWrite.all(fd, $0, at: end) }), fsync(fd) == 0 else {
            throw FileError.current("cannot write \(path)", path: path)
        }
    }

    /// The text (each line's, a space between), the words and the last seconds of the
    /// lines that read whole; nil when there is no such file.
    static func read(_ path: String) -> (text: String, words: [RecognizedWord], seconds: Double)? {
        guard let bytes = StoreFiles.read(path) else { return nil }
        var texts: [String] = []
        var words: [RecognizedWord] = []
        var seconds = 0.0
        for line in bytes.split(separator: 10) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let said = (object["seconds"] as? NSNumber)?.doubleValue, let text = object["text"] as? String,
                  let list = object["words"] as? [[String: Any]], let heard = WordTimings.words(list) else { continue }
            if !text.isEmpty { texts.append(text) }
            words += heard
            seconds = said
        }
        return (texts.joined(separator: " "), words, seconds)
    }
}
