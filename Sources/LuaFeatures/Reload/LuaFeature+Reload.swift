import Foundation
import LuaBridge

extension LuaFeatureHost {
  /// Loads `feature` again from its files, in a fresh sandbox: the script and every module it
  /// `require`s are read and compiled anew (no module is served from an old cache).
  ///
  /// ```swift
  /// let newer = try host.reload(counter)          // the script as it is on disk now
  /// try reducer.swap(to: newer)                   // the next action runs the new `reduce`
  /// ```
  ///
  /// The feature passed in is not changed: it keeps serving whoever runs it until they swap. The
  /// new version's `initial` state is read only if something asks for it (``LuaFeature/initialValue``):
  /// a reload that keeps the running state does not pay for it.
  ///
  /// - Throws: ``LuaFeatureError`` of kind `.load` with `file:line` when the new text does not
  ///   compile, raises while loading, or does not return `lunar.feature { … }`; or when `feature`
  ///   was loaded from source text rather than a file (load the new text with
  ///   ``load(source:chunkName:root:)`` instead).
  public func reload(_ feature: LuaFeature) throws(LuaFeatureError) -> LuaFeature {
    guard let location = feature.location else {
      throw LuaFeatureError(
        kind: .load, feature: feature.name,
        message: "\(feature.name) was loaded from source text, not a file: load the new text with "
          + "host.load(source:chunkName:root:) and swap to it"
      )
    }
    return try load(location, lazyInitial: true)
  }
}

extension LuaFeature {
  /// This feature loaded again from its files, in a fresh sandbox (see ``LuaFeatureHost/reload(_:)``).
  public func reload() throws(LuaFeatureError) -> LuaFeature {
    try host.reload(self)
  }

  /// Whether the script defines `migrate(state)`, run once on the kept state when a running
  /// reducer swaps to this version (see ``LuaReducer/swap(to:)``).
  public var hasMigration: Bool { migrate != nil }
}
