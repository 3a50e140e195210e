import ArgumentParser
import VshCore
import VshStore
import VshVoice
import Foundation

/// `play N|ID`: plays a saved recording with a level meter; Enter or Ctrl-C stops it.
package struct PlayCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "play", summary: "Play a recording (a number from the last list, or its id)",
        spokenForms: [SpokenForm("play <number>", runs: "play $1"), SpokenForm("play recording <number>", runs: "play $1")])

    @Argument(help: ArgumentHelp("A number from the last 'list' or 'search', or an id.", valueName: "n|id"))
    var item: String

    package init() {}

    package func run(in context: CommandContext) throws {
        guard let voice = context.session.voice else {
            throw CommandError("playing needs audio, and vsh was started with --no-voice; start it without that option")
        }
        let item = try context.resolveItem(self.item)
        guard let audio = item.audioPath, item.hasAudio else {
            throw CommandError("\(item.id) has no audio" + (item.audioPath.map { ": \($0) is missing" } ?? ""))
        }
        var stopped: String?
        try voice.play(path: audio) { level, position in
            let seconds = Int(position)
            context.status("▶ " + String(format: "%02d:%02d  ", seconds / 60, seconds % 60)
                + LevelMeter.bar(level, width: 20) + "  " + (context.typed.isEmpty ? item.title.visible : "typed: " + context.typed))
            stopped = context.session.stopRequest()
            return stopped == nil
        }
        context.clearStatus()
        context.output.line(stopped == nil ? "Played \(item.id): \(item.title.visible)" : "Stopped \(item.id) (\(stopped!)).")
    }
}
