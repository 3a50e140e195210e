import Foundation
import Testing
import VshTestSupport
import VshCore
import VshStore
import VshVoice
import VshTraining
@testable import VshCommands

/// `train --again`, `train status` and `train status --json` over fakes, word for word:
/// a take left out, the threshold raised, the speaker check and a fast speaker's floor
/// calibrated, and what each says of them. Pins what `train` prints, so that moving its
/// calibration about does not change a byte.
@Suite struct TrainOutputTests {
    /// A model that writes empty model files and knows nothing.
    final class Adapter: ModelAdapter {
        func adapt(_ takes: [TrainingTakes.Take], base: String, into directory: String, progress: (String) -> Void) throws -> AdaptedModel {
            progress("Adapting on \(takes.count) takes…")
            for name in AdaptedModel.modelFiles + ["sendump"] {
                guard FileManager.default.createFile(atPath: directory + "/" + name, contents: Data()) else {
                    throw CommandError("the fake adapter cannot write \(directory)/\(name)")
                }
            }
            return AdaptedModel(base: base, takes: takes.count, seconds: Double(takes.count) * 1.5, recipe: "mllr+map")
        }
    }

    /// The takes' words, the first eight of them commands.
    static let words = ["list", "help", "undo", "record", "show drafts", "play three", "discard", "show history",
                        "one", "two three", "four five six", "seven", "eight nine", "zero one", "two", "three four",
                        "five", "six seven", "eight", "nine zero", "one two", "three", "four", "five six"]

    /// Each take's audio: its number (from 1), a hundredfold, 0.1 s of it.
    static func samples(_ index: Int) -> [Int16] { [Int16](repeating: Int16(100 * (index + 1)), count: 1600) }

    final class Services: AudioServices, TrainingServices {
        let factory = VoiceFactory(settings: Settings(), frontEnd: { _, _ in PassThroughPreprocessor() },
                                recognizer: { _ in throw CommandError("no command recogniser in this test") })
        let base: String
        init(base: String) { self.base = base }

        func recordingInput(file: String?, rate: Int) throws -> RecordingInput {
            let name = ((file ?? "") as NSString).lastPathComponent
            return RecorderTests.MemoryInput(TrainOutputTests.samples(Int(name.prefix(3))! - 1))
        }
        func dictation() throws -> StreamingRecognizer { throw CommandError("no dictation in this test") }
        func play(path: String, progress: (Double, Double) -> Bool) throws {}

        func modelAdapter() throws -> (adapter: ModelAdapter, base: String) { (Adapter(), base) }

        /// Commands are heard as themselves but for `discard` (as `list`); what is no command
        /// as `list`, more surely the later the take (the runner-up further behind); take 6 as
        /// take 7's phrase, surely. Every word is said fast (5.5 frames a phone).
        func hearing(adaptedIn directory: String, base: String, grammar: CommandGrammar) throws -> Hearing {
            let asCommands = grammar is VoiceGrammar
            return Hearing(recognize: { samples in
                let i = Int(samples[0]) / 100 - 1
                let said = TrainOutputTests.words[i]
                let (text, confidence): (String, Double) = switch (asCommands, i) {
                case (true, 6): ("list", 0.9)
                case (true, 0..<8): (said, 0.9)
                case (true, _): ("list", 0.2 + 0.02 * Double(i))
                case (false, 5): (TrainOutputTests.words[6], 0.92)
                case (false, _): (said, 0.9)
                }
                var heard = Recognition(
                    words: text.split(separator: " ").map { RecognizedWord(word: String($0), start: 0.1, end: 0.5, confidence: 1) },
                    confidence: confidence)
                heard.features = Confidence.Features(frames: 80, wordFrames: 33, phones: 6,
                                                     runnerUpGap: asCommands && i >= 8 ? Double(10 * i - 50) : nil)
                return heard
            }, speakerScore: { samples in
                Double(samples.count % 97) / 50 + Double(Int(samples.last ?? 0) % 13) / 10
            })
        }
    }

    @Test func trainAndItsStatusSayWhatTheCheckSet() throws {
        var settings = Settings()
        settings.speakerCheck = true
        let harness = ShellHarness(settings: settings)
        let services = Services(base: settings.modelDirectory + "/en-us")
        harness.session.voice = services
        harness.session.training = services
        let takes = TrainingTakes(store: harness.session.paths.store)
        for (i, words) in Self.words.enumerated() {
            try takes.save(Self.samples(i), words: words, name: TrainingTakes.scriptName(i))
        }
        #expect(harness.script(["train --again", "train status", "train status --json"]) == 0, "\(harness.error.text)")
        func plain(_ text: String) -> String {
            text.replacingOccurrences(of: harness.directory.path, with: "TMP")
                .replacingOccurrences(of: #"\d{4}-\d{2}-\d{2}(T[0-9:]+Z)?"#, with: "DATE", options: .regularExpression)
        }
        let output = plain(harness.output.text), error = plain(harness.error.text)
        #expect(output == Self.output, "\(output)")
        #expect(error == Self.error, "\(error)")
        // The gates are in the manifest, each field beside the model's own.
        let manifest = try #require(FileManager.default.contents(atPath: harness.session.paths.store + "/model/adaptation.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: manifest) as? [String: Any])
        #expect(object["gates"] == nil)
        #expect(Set(object.keys).isSuperset(of: ["threshold", "calibrationTakes", "heldOut", "leftOut", "framesPerPhoneFloor"]),
                "\(object.keys.sorted())")
    }

    static let output = #"""
        Checking your takes with models adapted on the others (1/3)…
        Checking your takes with models adapted on the others (2/3)…
        Checking your takes with models adapted on the others (3/3)…
        Adapting on 23 takes…
        The speech model is adapted to your voice (23 takes, 0.6 min of speech) and in use. 'train reset' goes back to the stock model.
        Heard by models not adapted on them, 100% of your 23 takes came out right and 0% wrong; 0% of the 16 that are no command would have run one.
        At the prompt, 6 of the 7 takes that say a command would run it; 1 ran another command.
        Spoken commands must now also sound like you (voice.speaker_check): set on your takes changed the ways a set-up changes, it kept at least 100% of them each way.
        Spoken commands now need a confidence of 0.67 (voice.threshold is 0.50): at that, no more than 5% of what you said that is not a command would run one.
        Speech model: adapted to your voice on DATE from 23 takes (0.6 min of speech), MLLR then MAP; in TMP/store/model.
        Confidence for spoken commands: 0.67, calibrated on 16 of your takes that are no command (voice.threshold: 0.50).
        Speaker check: on; a spoken command needs a speaker score of 0.68, calibrated on 23 of your takes.
        Takes kept: 23 (0 of the 40 training phrases) in TMP/store/training.
        Heard by models not adapted on them, 100% of your 23 takes came out right and 0% wrong; 0% of the 16 that are no command would have run one.
        At the prompt, 6 of the 7 takes that say a command would run it; 1 ran another command.
        You speak fast: a spoken command may last down to 5.5 frames a phone (6 for the stock model).
        Learning from use: on; adapted on 0 of your commands, 0 kept and not yet learnt.
        {"model": "adapted", "directory": "TMP/store/model", "stock_model": "/usr/share/pocketsphinx/model/en-us/en-us", "created": "DATE", "takes": 23, "seconds": 34.5, "recipe": "mllr+map", "threshold": 0.67, "calibration_takes": 16, "speaker_check": true, "speaker_threshold": 0.684, "speaker_check_off": null, "held_out": {"takes": 23, "right": 1, "wrong": 0, "non_commands_accepted": 0, "non_commands": 16, "commands": 7, "commands_run": 6, "stopped_by": {"another-command": 1}}, "left_out": ["006"], "frames_per_phone_floor": 5.5, "learned_from_use": 0, "unlearned": 0, "takes_kept": 23, "phrases_recorded": 0, "phrases": 40, "script": ["commands delete discard drafts", "eighteen eighty eleven empty", "encryption exit fifteen fifty", "forty fourteen from help", "high history list listen", "low medium nineteen ninety", "number off on outputs", "play quality record recording", "reload replay save set", "seventeen seventy show sixteen", "sixty start stop ten", "the thirteen thirty today", "transcript transcripts trash twelve", "twenty undo yesterday", "one two three four five", "the birch canoe slid on the smooth planks", "six seven eight nine zero", "glue the sheet to the dark blue background", "zero nine two seven four", "it's easy to tell the depth of a well", "five eight one six three", "these days a chicken leg is a rare dish", "oh four nine six two", "rice is often served in round bowls", "three seven zero eight one", "the juice of lemons makes fine punch", "the box was thrown beside the parked truck", "the hogs were fed chopped corn and garbage", "four hours of steady work faced us", "a large size in stockings is hard to sell", "the boy was there when the sun rose", "a rod is used to catch pink salmon", "the source of the huge river is the clear spring", "kick the ball straight and follow through", "help the woman get back to her feet", "a pot of tea helps to pass the evening", "smoky fires lack flame and heat", "the soft cushion broke the man's fall", "the salt breeze came across from the sea", "the girl at the booth sold fifty bonds"], "takes_directory": "TMP/store/training"}

        """#
    static let error = #"""
        warning: the take 006 ("play three") is left out: it sounds like "discard", not "play three": correct its .txt, or record it again ('train' asks for it again)

        """#
}
