import Foundation
import VshCore

/// The `.json` sidecar of a transcript: when each word was said and how sure the
/// recogniser was, `{"words":[{"word":…,"start":…,"end":…,"confidence":…}]}`.
enum WordTimings {
    static func json(_ words: [RecognizedWord]) -> String {
        let objects = words.map {
            "{\"word\":\(JSON.string($0.word)),\"start\":\(JSON.number($0.start)),"
                + "\"end\":\(JSON.number($0.end)),\"confidence\":\(JSON.number($0.confidence))}"
        }
        return "{\"words\":[" + objects.joined(separator: ",") + "]}\n"
    }

    /// The words in a sidecar; nil when it is missing or not in this shape.
    static func read(_ path: String) -> [RecognizedWord]? {
        guard let bytes = StoreFiles.read(path),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let list = object["words"] as? [[String: Any]] else { return nil }
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
