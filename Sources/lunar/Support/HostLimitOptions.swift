import ArgumentParser
import LuaBridge

/// The limits a host puts on its features, shared by the commands that run them.
///
/// ```sh
/// lunar run examples/counter --time-limit 0.5 --instruction-limit 10000000 --memory-limit 64
/// ```
struct HostLimitOptions: ParsableArguments {
  @Option(help: ArgumentHelp(
    "Seconds one action, effect step, reload, input line or view may run before it is stopped.",
    valueName: "seconds"))
  var timeLimit: Double = 1

  @Option(help: ArgumentHelp(
    "Lua instructions one action, effect step, reload, input line or view may run (0: no limit).",
    valueName: "count"))
  var instructionLimit: Int = 100_000_000

  @Option(help: ArgumentHelp("Megabytes of memory the features' Lua VM may hold (0: no limit).", valueName: "MB"))
  var memoryLimit: Int = 512

  func validate() throws {
    guard timeLimit.isFinite, timeLimit > 0, timeLimit <= 3600 else {
      throw ValidationError("--time-limit must be a number of seconds above 0 and at most 3600, got \(timeLimit)")
    }
    guard instructionLimit >= 0 else { throw ValidationError("--instruction-limit must be 0 or more, got \(instructionLimit)") }
    guard memoryLimit >= 0, memoryLimit <= 1 << 30 else {
      throw ValidationError("--memory-limit must be from 0 to \(1 << 30) megabytes, got \(memoryLimit)")
    }
  }

  /// The VM limits these options describe.
  var limits: LuaVM.Limits {
    LuaVM.Limits(
      instructionsPerCall: instructionLimit == 0 ? nil : instructionLimit,
      memoryBytes: memoryLimit == 0 ? nil : memoryLimit << 20,
      timePerCall: .nanoseconds(Int64(timeLimit * 1e9))
    )
  }
}
