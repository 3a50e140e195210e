import ArgumentParser
import VshCore

extension Quality: ExpressibleByArgument {}

/// `quality [low|medium|high]`: shows or sets the recording quality, saved in the
/// user's `vsh.toml` so it holds in later runs.
package struct QualityCommand: ShellCommand {
    package static let info = CommandInfo(
        name: "quality", summary: "Show or set the recording quality (low, medium, high)",
        spokenForms: [
            SpokenForm("quality (low | medium | high)", runs: "quality $1"),
            SpokenForm("set quality (low | medium | high)", runs: "quality $1"),
        ],
        arguments: [.values(Quality.allCases.map(\.rawValue))])

    @Argument(help: ArgumentHelp(
        "low (8 kHz), medium (16 kHz) or high (48 kHz). Without it, shows the current quality.",
        valueName: "low|medium|high"))
    var level: Quality?

    package init() {}

    package func run(in context: CommandContext) throws {
        guard let level else {
            context.output.line(context.session.settings.quality.rawValue)
            return
        }
        context.session.settings.quality = level
        try context.session.saveSetting("quality", level.rawValue)
        context.confirm("quality: \(level.rawValue) (\(level.sampleRate / 1000) kHz, 16-bit mono)")
    }
}
