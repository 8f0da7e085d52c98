import LuaBridge
import LuaFeatures
import LunarDevtools
import LunarHostSupport

/// Dependencies that tell the devtools hub each call and its result while it observes the session
/// (from the start), so an exported session replays (and becomes a test) with the answers it got.
///
/// NB: installed only with `--devtools`.
final class DevtoolsDependencyTap: Sendable {
  private let hub = Locked<DevtoolsHub?>(nil)

  /// Starts (a hub) or stops (`nil`) telling calls.
  func watch(_ hub: DevtoolsHub?) {
    self.hub.withLock { $0 = hub }
  }

  /// `dependencies`, each function telling its calls here.
  func tapping(_ dependencies: LuaDependencies) -> LuaDependencies {
    var tapped = LuaDependencies()
    for name in dependencies.names {
      switch dependencies.functions[name]! {
      case let .sync(function):
        tapped.register(name, .sync { [self] arguments in
          do {
            let value = try function(arguments)
            tell(name, arguments, result: value, error: nil, cancelled: false)
            return value
          } catch {
            tell(name, arguments, result: nil, error: "\(error)", cancelled: false)
            throw error
          }
        })
      case let .async(function):
        tapped.register(name, .async { [self] arguments in
          do {
            let value = try await function(arguments)
            tell(name, arguments, result: value, error: nil, cancelled: false)
            return value
          } catch {
            let cancelled = error is CancellationError || Task.isCancelled
            tell(name, arguments, result: nil, error: "\(error)", cancelled: cancelled)
            throw error
          }
        })
      }
    }
    return tapped
  }

  private func tell(_ name: String, _ arguments: [LuaValue], result: LuaValue?, error: String?, cancelled: Bool) {
    guard let hub = hub.withLock({ $0 }) else { return }
    Task { @MainActor in
      hub.recordDependency(name, arguments: arguments, result: result, error: error, cancelled: cancelled)
    }
  }
}
