import LuaBridge

/// The features a host loaded for ``LuaScriptReducer``s, by script location: each script is loaded
/// once, the first time a store or a test asks for it, and its instances are made from that one
/// loaded feature.
///
/// NB: a failed load is not kept: the next action tries again, so fixing the file is enough.
/// NB: a loaded feature holds its host, so a host that loaded scripts here lives on with them:
///     hosts are made once per app (or per test), and the process's own is never released anyway.
@MainActor
final class LuaScriptCache {
  private final class Entry {
    var feature: LuaFeature
    /// The instances made from the feature, to swap on a reload.
    var instances: [Weak] = []

    init(feature: LuaFeature) {
      self.feature = feature
    }
  }

  private struct Weak {
    weak var instance: LuaScriptInstance?
  }

  private unowned let host: LuaFeatureHost
  private var entries: [LuaScriptLocation: Entry] = [:]
  /// How many scripts this cache loaded (a reload included): one per script, however many states
  /// and stores run it.
  private(set) var loads = 0

  init(host: LuaFeatureHost) {
    self.host = host
  }

  /// The feature at `script`, loaded now if it was not; a load error goes through `locating`.
  func feature(
    of script: LuaScriptLocation, locating: (LuaFeatureError) -> LuaFeatureError
  ) throws(LuaFeatureError) -> LuaFeature {
    try entry(for: script, locating: locating).feature
  }

  /// A new instance of the feature at `script`, for one state.
  func instance(
    of script: LuaScriptLocation, locating: (LuaFeatureError) -> LuaFeatureError
  ) throws(LuaFeatureError) -> LuaScriptInstance {
    let entry = try entry(for: script, locating: locating)
    let instance = LuaScriptInstance(script: script, reducer: entry.feature.reducer())
    entry.instances.removeAll { $0.instance == nil }
    entry.instances.append(Weak(instance: instance))
    return instance
  }

  /// Loads the script at `script` again and swaps every live instance to it (see
  /// ``LuaReducer/swap(to:)``); instances whose `migrate` fails keep the old version, and the first
  /// such error is thrown after all were tried.
  func reload(
    _ script: LuaScriptLocation, locating: (LuaFeatureError) -> LuaFeatureError
  ) throws(LuaFeatureError) -> LuaFeature {
    guard let entry = entries[script] else { return try feature(of: script, locating: locating) }
    let newer: LuaFeature
    do {
      newer = try host.reload(entry.feature)
    } catch {
      throw locating(error)
    }
    loads += 1
    entry.feature = newer
    var failure: LuaFeatureError?
    entry.instances.removeAll { $0.instance == nil }
    for case let instance? in entry.instances.map(\.instance) {
      do {
        try instance.reducer.swap(to: newer)
      } catch {
        failure = failure ?? error
      }
    }
    if let failure { throw failure }
    return newer
  }

  private func entry(
    for script: LuaScriptLocation, locating: (LuaFeatureError) -> LuaFeatureError
  ) throws(LuaFeatureError) -> Entry {
    if let entry = entries[script] { return entry }
    let feature: LuaFeature
    do {
      let location = try FeatureLocation(resolving: script.resolvedPath)
      feature = try host.load(location)
    } catch let error as FeatureLocationError {
      throw locating(LuaFeatureError(kind: .load, feature: script.path, message: error.description))
    } catch {
      throw locating(error as! LuaFeatureError)
    }
    loads += 1
    let entry = Entry(feature: feature)
    entries[script] = entry
    return entry
  }
}

/// The running instance of a ``LuaScriptReducer``'s feature for one state (kept in the
/// ``LuaState``): its own resident state, `deps` and effects.
@MainActor
final class LuaScriptInstance {
  /// The script it runs: a state handed to another script's reducer starts an instance of that one.
  nonisolated let script: LuaScriptLocation
  let reducer: LuaReducer

  init(script: LuaScriptLocation, reducer: LuaReducer) {
    self.script = script
    self.reducer = reducer
  }
}
