import ArgumentParser
import LuaBridge

/// The limits a host puts on its features, shared by the commands that run them.
///
/// ```sh
/// lunar run examples/counter --time-limit 0.5 --wall-time-limit 10 --instruction-limit 10000000 --memory-limit 64
/// ```
///
/// The time limit is CPU time, which a loaded machine does not eat into: a million string keys
/// (`t["k" .. i] = i`) take about 2 s of it, and more than twice that of wall-clock time on a busy
/// machine. The wall-clock limit only guards against hangs.
struct HostLimitOptions: ParsableArguments {
  @Option(help: ArgumentHelp(
    "Seconds of CPU time one action, effect step, reload, input line or view may use before it is stopped.",
    valueName: "seconds"))
  var timeLimit: Double = 5

  @Option(help: ArgumentHelp(
    "Seconds of wall-clock time one action, effect step, reload, input line or view may last (a guard against hangs).",
    valueName: "seconds"))
  var wallTimeLimit: Double = 30

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
    guard wallTimeLimit.isFinite, wallTimeLimit > 0, wallTimeLimit <= 3600 else {
      throw ValidationError("--wall-time-limit must be a number of seconds above 0 and at most 3600, got \(wallTimeLimit)")
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
      // NB: the wall-clock guard never ends a call before its CPU time could.
      timePerCall: .nanoseconds(Int64(max(wallTimeLimit, timeLimit) * 1e9)),
      cpuTimePerCall: .nanoseconds(Int64(timeLimit * 1e9))
    )
  }
}
