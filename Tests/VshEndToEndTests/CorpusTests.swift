import Foundation
import Testing
import VshCore
import VshTestSupport

/// The voice pipeline over the synthetic spoken-command corpus (the bench measures it all;
/// these check behaviour): several commands in one stream, and that commands are heard
/// and accepted at all.
@Suite(.tags(.slow)) struct CorpusTests {
    static let grammar = EvalData.repository + "/bench/commands.gram"

    struct Line: Decodable {
        var text: String
        var command: String?
        var start: Double
        var end: Double
    }

    static func listen(_ vsh: VshBinary, _ path: String) throws -> [Line] {
        let result = try vsh.run(["listen", "--json", "--from", path, "--grammar", grammar])
        guard result.status == 0 else { throw ListenFailed(message: result.stderr) }
        return try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
    }

    /// Tests run in parallel and may all ask for the corpus before it exists: each gets
    /// the whole of it, every file in place.
    @Test func callersAtOnceGetTheWholeCorpus() throws {
        let out = FileManager.default.temporaryDirectory.path + "/vsh-corpus-test-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let got = Locked<[[String]]>([])
        for i in 0..<4 {
            Thread.detachNewThread {
                usleep(useconds_t(i) * 400_000)  // a later caller comes while the first still writes
                let files = (try? EvalData.commandCorpus(in: out))?.map(\.path) ?? []
                got.withLock { $0.append(files) }
            }
        }
        let all = try #require(got.wait(until: { $0.count == 4 }, deadline: Date() + 120) { $0 })
        #expect(!all[0].isEmpty)
        #expect(all.allSatisfy { $0 == all[0] })
        #expect(all[0].allSatisfy { FileManager.default.fileExists(atPath: $0) })
        let left = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
        #expect(!left.contains { $0.hasPrefix(URL(fileURLWithPath: out).lastPathComponent + ".") }, "a scratch copy was left behind")
    }

    /// Each session file chains four to six commands with pauses: one utterance each, in
    /// order, none overlapping.
    @Test func aSessionIsCutIntoOneUtterancePerCommand() throws {
        let vsh = VshBinary()
        defer { vsh.remove() }
        let sessions = try EvalData.commandCorpus().filter { $0.condition == "session" }
        #expect(sessions.count == 3)
        for session in sessions {
            let lines = try Self.listen(vsh, session.path)
            let commands = session.expected.components(separatedBy: " | ")
            #expect(lines.count == commands.count, "\(session.id): heard \(lines.map(\.text)) for \(commands)")
            for (a, b) in zip(lines, lines.dropFirst()) { #expect(a.end <= b.start) }
        }
    }

    /// Clean spoken commands are mostly heard right and accepted (the bench has the exact
    /// figures: about 80%; well below this floor means the voice pipeline broke).
    @Test func cleanCommandsAreHeardAndAccepted() throws {
        let files = try EvalData.commandCorpus().filter { $0.condition == "clean" }
        #expect(files.count == 92)
        let right = Counter()
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let vsh = VshBinary()
            defer { vsh.remove() }
            for file in files.enumerated() where file.offset % 2 == part {
                let lines = (try? Self.listen(vsh, file.element.path)) ?? []
                if lines.compactMap(\.command).joined(separator: " | ") == file.element.expected { right.add() }
            }
        }
        #expect(right.value >= 60, "\(right.value) of 92 clean commands right")
    }
}

struct ListenFailed: Error { var message: String }

/// A count several threads add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
