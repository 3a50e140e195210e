// swift-tools-version:6.0
import PackageDescription

/// Every Swift target imports exactly what it uses: a member of another module (an
/// extension's property, say) is visible only where that module is imported, so the
/// imports of each file, and the dependencies below, say what it depends on.
let importsAsUsed: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

/// Debian packages that provide the C libraries (and, for tests, the tools). The Makefile
/// installs the same list; `providers:` lets SwiftPM name the package when one is missing.
let package = Package(
    name: "vsh",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "vsh", targets: ["vsh"]),
        // Tests only: preloaded into vsh to make ALSA capture overrun, stall or vanish.
        .library(name: "VshAlsaFaults", type: .dynamic, targets: ["CAlsaFaults"]),
    ],
    dependencies: [
        // 1.6: `@ParentCommand`, through which `vsh listen` reads the root's `--config`.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // Encryption of audio at rest (`encrypt on`): ChaChaPoly, HKDF, SHA-256.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // The executable: a few lines that hand over to VshApp.
        .executableTarget(name: "vsh", dependencies: ["VshApp"]),

        // Composition root: the command line, wiring of the real adapters into the modules.
        .target(
            name: "VshApp",
            dependencies: [
                "VshCommands", "VshCommandFiles", "VshListening", "VshTraining", "VshAudio", "VshVoice", "VshStore", "VshAudioFiles",
                "VshCore", "VshSpoken", "VshLineEditor", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: importsAsUsed),

        // The built-in commands (one file each), the list of them, and the recorder.
        .target(
            name: "VshCommands",
            dependencies: [
                "VshCommandFiles", "VshListening", "VshTraining", "VshVoice", "VshStore", "VshAudioFiles", "VshCore", "VshSpoken",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: importsAsUsed),

        // The command-file language: parsing, checks, the commands it defines, running them.
        .target(name: "VshCommandFiles", dependencies: ["VshCore", "VshSpoken"], swiftSettings: importsAsUsed),

        // Listening at the prompt: the listener thread over the voice path, the decision on
        // each utterance (run, ask, ignore, wake), the audio clips of spoken commands.
        .target(name: "VshListening", dependencies: ["VshVoice", "VshStore", "VshAudioFiles", "VshCore", "VshSpoken"], swiftSettings: importsAsUsed),

        // Adapting the model to a person (`train`): the script, takes and their checks, the
        // ModelAdapter seam, the adapted model's manifest.
        .target(name: "VshTraining", dependencies: ["VshVoice", "VshStore", "VshAudioFiles", "VshCore", "VshSpoken"], swiftSettings: importsAsUsed),

        // Audio frames to recognised words: the seams the adapters implement, endpointer,
        // front-end rule, confidence, grammar, the command and dictation pipelines.
        .target(name: "VshVoice", dependencies: ["VshAudioFiles", "VshCore", "VshSpoken"], swiftSettings: importsAsUsed),

        // The transcript store (plain files, FORMAT.md): items, drafts, trash, the index,
        // turning encryption at rest on and off for the whole store.
        .target(name: "VshStore", dependencies: ["VshAudioFiles", "VshCore"], swiftSettings: importsAsUsed),

        // Audio files at rest: WAV read and written as it is recorded (WaveFile, WavWriter,
        // the DraftWriter seam), and their sealed form with its key (swift-crypto).
        .target(
            name: "VshAudioFiles",
            dependencies: ["VshCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: importsAsUsed),

        // Pure Swift, no C library: the shell loop, the command protocol and registry,
        // settings and config files, history, paths. Builds and tests without audio.
        .target(
            name: "VshCore",
            dependencies: [
                "VshSpoken",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: importsAsUsed),

        // What is said, as words, with no audio: spoken patterns and the words of numbers,
        // the pronunciation dictionary, a line heard at the prompt and what the line reader
        // does for the voice side (PromptAction). Depends on nothing.
        .target(name: "VshSpoken", swiftSettings: importsAsUsed),

        // Real audio and speech adapters: ALSA, SpeexDSP, PocketSphinx.
        .target(
            name: "VshAudio",
            dependencies: [
                "VshTraining", "VshVoice", "VshStore", "VshAudioFiles", "VshCore", "VshSpoken", "CALSA", "CSpeexDSP", "CPocketSphinx", "CSndFile",
                "CVshShims",
            ],
            swiftSettings: importsAsUsed + [.swiftLanguageMode(.v5)]),

        // libedit adapter for the core's LineReader protocol.
        .target(
            name: "VshLineEditor",
            dependencies: ["VshCore", "VshSpoken", "CLibEdit", "CVshShims"],
            swiftSettings: importsAsUsed + [.swiftLanguageMode(.v5)]),

        // One system library per C library: pkg-config for flags, apt for the package.
        .systemLibrary(name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSpeexDSP", pkgConfig: "speexdsp", providers: [.apt(["libspeexdsp-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(
            name: "CPocketSphinx", pkgConfig: "pocketsphinx",
            providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev"])]),

        // The little C that Swift cannot call: variadic functions and macros. vsh_ prefix.
        .target(name: "CVshShims", dependencies: ["CLibEdit", "CALSA", "CPocketSphinx"]),

        // Tests only: ALSA capture faults (overrun, stall, unplug) for a preloaded vsh.
        .target(name: "CAlsaFaults", dependencies: ["CALSA"], linkerSettings: [.linkedLibrary("dl")]),

        // Fakes for tests: scripted line reader, in-memory sinks.
        .target(
            name: "VshTestSupport", dependencies: ["VshCommands", "VshCommandFiles", "VshVoice", "VshStore", "VshCore"],
            swiftSettings: importsAsUsed),

        // the shell, registry and completion, settings and config files, history, words
        .testTarget(name: "VshCoreTests", dependencies: ["VshCommands", "VshStore", "VshCore", "VshTestSupport"]),
        // spoken patterns and the pronunciation dictionary
        .testTarget(name: "VshSpokenTests", dependencies: ["VshCommands", "VshVoice", "VshCore", "VshSpoken"]),
        // audio files at rest: the sealed format, written as it arrives, read at any offset
        .testTarget(name: "VshAudioFilesTests", dependencies: ["VshAudioFiles", "VshCore", "VshTestSupport"]),
        // the store, its encryption, what the store commands print, readers of damaged files
        .testTarget(name: "VshStoreTests", dependencies: ["VshCommands", "VshStore", "VshAudioFiles", "VshCore", "VshTestSupport"]),
        // endpointer, early end, dictation pipeline, other words, voicing (fakes, no model)
        .testTarget(name: "VshVoiceTests", dependencies: ["VshCommands", "VshVoice", "VshCore", "VshSpoken", "VshTestSupport"]),
        // the prompt's decisions and its listener thread (fakes, no model)
        .testTarget(name: "VshListeningTests", dependencies: ["VshCommands", "VshListening", "VshVoice", "VshCore", "VshSpoken", "VshTestSupport"]),
        // the training script, takes and their checks
        .testTarget(name: "VshTrainingTests", dependencies: ["VshTraining", "VshVoice", "VshStore", "VshCore", "VshSpoken", "VshTestSupport"]),
        // the recorder and encrypt over fakes
        .testTarget(name: "VshCommandsTests", dependencies: ["VshCommands", "VshListening", "VshTraining", "VshVoice", "VshStore", "VshAudioFiles", "VshCore", "VshTestSupport"]),
        // every reader of files people edit or damage, fuzzed (bench/fuzz.sh runs 100,000 cases)
        .testTarget(name: "VshFuzzTests", dependencies: ["VshCommands", "VshCommandFiles", "VshStore", "VshCore", "VshTestSupport"]),
        // the command-file language: parse, check, build, run
        .testTarget(name: "VshCommandFilesTests", dependencies: ["VshCommands", "VshCommandFiles", "VshVoice", "VshStore", "VshCore", "VshSpoken", "VshTestSupport"]),
        // the real adapters: libsndfile, SpeexDSP, ALSA's file PCM, PocketSphinx on real recordings
        // CSndFile: the MP3 test writes its file with libsndfile (sox here cannot write MP3)
        .testTarget(name: "VshAudioTests", dependencies: ["VshAudio", "VshVoice", "VshStore", "VshAudioFiles", "VshCore", "VshSpoken", "VshTestSupport", "CSndFile"]),
        // slow: the built binary, as a person or a script meets it (pty, tmux, files)
        .testTarget(name: "VshEndToEndTests", dependencies: ["VshTraining", "VshCore", "VshSpoken", "VshTestSupport"]),
    ]
)
