import Foundation
import VshCommands
import VshCore

/// Runs the built `vsh` binary as a person would, in an isolated home: its own config,
/// state and data directories, so tests never touch the real ones.
package struct VshBinary {
    package struct Result {
        package var stdout: String
        package var stderr: String
        package var status: Int32
    }

    /// The binary under test: $VSH_BIN, else `.build/debug/vsh` in this package.
    package static var path: String {
        if let path = ProcessInfo.processInfo.environment["VSH_BIN"], !path.isEmpty { return path }
        return sourceRoot + "/.build/debug/vsh"
    }

    /// The top of this package's source tree (`config/`, `commands/`, `Package.swift`).
    package static var sourceRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }

    package let home: TempDirectory

    package init() {
        home = TempDirectory("vsh-home")
        precondition(FileManager.default.isExecutableFile(atPath: Self.path),
                     "\(Self.path) is missing: run `swift build` (or `make test`) first")
    }

    /// The environment vsh runs with: a private HOME and XDG directories.
    package func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["VSH_STORE", "VSH_CONFIG", "VSH_SHARE", "NO_COLOR"] { env[key] = nil }
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.file("config")
        env["XDG_STATE_HOME"] = home.file("state")
        env["XDG_DATA_HOME"] = home.file("data")
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Runs a shell command line (sox, espeak-ng: making test audio); throws when it fails.
    package static func shell(_ line: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        struct Failed: Error, CustomStringConvertible { var description: String }
        if process.terminationStatus != 0 { throw Failed(description: "'\(line)' exited \(process.terminationStatus)") }
    }

    /// Runs vsh with `arguments`, feeding `stdin` through a pipe (so vsh sees a script).
    package func run(_ arguments: [String], stdin: String = "", environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.path)
        process.arguments = arguments
        process.environment = environment(extra)
        return try run(process, stdin: stdin)
    }

    /// Runs `vsh` as a person types it: by name, found on PATH with `directory` first,
    /// from the working directory `from` (so vsh sees only `vsh` as its argv[0]).
    package func run(byNameOnPath directory: String, from workingDirectory: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec vsh \"$@\"", "sh"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory)
        var env = environment()
        env["PATH"] = directory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        process.environment = env
        return try run(process, stdin: "")
    }

    private func run(_ process: Process, stdin: String) throws -> Result {
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while writing, so a large script cannot deadlock on full pipes.
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data(), err = Data()
        DispatchQueue.global().async(group: group) { out = output.fileHandleForReading.readToEndRetrying() }
        DispatchQueue.global().async(group: group) { err = error.fileHandleForReading.readToEndRetrying() }
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Result(
            stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
            status: process.terminationStatus)
    }

    package func remove() { home.remove() }
}
