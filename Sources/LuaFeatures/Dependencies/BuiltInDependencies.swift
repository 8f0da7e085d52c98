import Dependencies
import Foundation

extension LuaDependencies {
  /// The dependencies every feature has, backed by swift-dependencies so tests control them:
  ///
  /// | Lua | Swift dependency | |
  /// | --- | --- | --- |
  /// | `deps.uuid()` | `\.uuid` | a new UUID string (synchronous) |
  /// | `deps.now()` | `\.date` | seconds since 1970 as a float (synchronous) |
  /// | `deps.clock.sleep(seconds)` | `\.continuousClock` | waits (asynchronous, only in `fx.run`) |
  ///
  /// In tests, override `uuid`, `date` and `continuousClock` as for any Swift feature
  /// (`$0.continuousClock = TestClock()`).
  public static var builtIn: Self {
    var dependencies = LuaDependencies()
    dependencies.sync("uuid") { () -> String in
      @Dependency(\.uuid) var uuid
      return uuid().uuidString
    }
    dependencies.sync("now") { () -> Double in
      @Dependency(\.date) var date
      return date.now.timeIntervalSince1970
    }
    dependencies.async("clock.sleep") { (seconds: Double) async throws -> LuaNothing in
      let duration: Duration
      do {
        duration = try LuaSeconds.duration(seconds)
      } catch {
        throw LuaDependencyError(name: "clock.sleep", message: "cannot wait that long: \(error)")
      }
      @Dependency(\.continuousClock) var clock
      try await clock.sleep(for: duration)
      return LuaNothing()
    }
    return dependencies
  }
}
