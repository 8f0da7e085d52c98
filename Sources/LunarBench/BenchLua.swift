/// The benchmarks' Lua files (`Lua/bench/`), embedded at build time, for the executables that run
/// them.
///
/// ```swift
/// try BenchLua.reduxCounter.write(to: script, atomically: true, encoding: .utf8)
/// ```
public enum BenchLua {
  /// `bench/redux_counter.lua`: a Redux-style counter store in plain Lua that times itself, run by
  /// the system's `lua5.4` (`lua5.4 redux_counter.lua [iterations [repetitions]]`).
  public static var reduxCounter: String { EmbeddedLua.benchReduxCounter.source }
}
