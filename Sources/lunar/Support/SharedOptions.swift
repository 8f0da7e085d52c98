import ArgumentParser
import LunarHostSupport

/// `--json`, shared by every command that can write JSON instead of text.
///
/// ```sh
/// lunar test examples --json
/// ```
struct JSONOption: ParsableArguments {
  @Flag(help: "Write JSON, one object per line, instead of text.")
  var json = false
}

/// `--timeout`, shared by the commands that wait for effects.
///
/// ```sh
/// lunar run examples/search --timeout 10 < actions.txt
/// ```
struct TimeoutOption: ParsableArguments {
  @Option(help: ArgumentHelp("Seconds to wait for running effects before going on or leaving.", valueName: "seconds"))
  var timeout: Double = 5

  func validate() throws {
    guard timeout.isFinite, timeout >= 0, timeout <= 86_400 else {
      throw ValidationError("--timeout must be a number of seconds from 0 to 86400, got \(timeout)")
    }
  }
}

/// `--seed`, shared by the commands that run features.
///
/// ```sh
/// lunar run examples/dice --seed 42
/// ```
struct SeedOption: ParsableArguments {
  @Option(name: .customLong("seed"), help: "Seed of math.random (default: 0). Given, lunar run draws deps.uuid() from it too.")
  var given: UInt64?

  /// The seed of `math.random`.
  var seed: UInt64 { given ?? 0 }
}

/// `--deps`, shared by the commands that give features their dependencies.
///
/// ```sh
/// lunar run examples/dogs --deps record
/// ```
struct DependencyOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Dependencies: offline (recorded answers in the feature's fixtures/http), record (real requests, answers recorded) or live (real requests).",
      valueName: "mode"))
  var deps: DependencyMode = .offline
}

/// `--watch`, shared by the commands that keep features running.
///
/// ```sh
/// lunar run examples/counter --watch
/// ```
struct WatchOption: ParsableArguments {
  @Flag(help: "Reload a feature, keeping its state, when its Lua files change (lunar host: also load and unload plugin folders as they are added and removed).")
  var watch = false
}
