import Dependencies

extension LuaFeatureHost {
  /// The process's own host, made by the first ``LuaScriptReducer`` that needs a host when the
  /// dependencies name none.
  private static var madeForProcess: LuaFeatureHost?

  static func processDefault() throws(LuaFeatureError) -> LuaFeatureHost {
    if let host = madeForProcess { return host }
    let host = try LuaFeatureHost()
    madeForProcess = host
    return host
  }

  /// Loads the script of `script` again (``reload(_:)``) and swaps every state's instance of it to
  /// the new version, as ``LuaReducer/swap(to:)`` does.
  ///
  /// ```swift
  /// let editor = LuaScriptReducer("Editor", in: .module)
  /// try host.reload(editor)      // every store running Editor reduces its next action with the new `reduce`
  /// ```
  ///
  /// - Throws: ``LuaFeatureError``: of kind `.load` when the new text does not load (nothing was
  ///   swapped), or `.migration` when the new `migrate` failed for a state (that state keeps the old
  ///   version; the others were swapped).
  @discardableResult
  public func reload(_ script: LuaScriptReducer) throws(LuaFeatureError) -> LuaFeature {
    try scripts.reload(script.script, locating: script.located)
  }
}

extension DependencyValues {
  /// The host that ``LuaScriptReducer``s load their scripts in and run them, when a state gets its
  /// instance; `nil` (the default) for a host made once for the whole process.
  ///
  /// A host keeps the scripts it loaded for these reducers as long as it lives, and they keep it:
  /// make one per app (or per test), not one per store.
  ///
  /// ```swift
  /// let host = try LuaFeatureHost()
  /// let store = TestStore(initialState: Notes.State(editor: try editor.initialState(in: host))) {
  ///   Notes()
  /// } withDependencies: {
  ///   $0.luaFeatureHost = host
  /// }
  /// ```
  public var luaFeatureHost: LuaFeatureHost? {
    get { self[LuaFeatureHostKey.self] }
    set { self[LuaFeatureHostKey.self] = newValue }
  }
}

private enum LuaFeatureHostKey: DependencyKey {
  static let liveValue: LuaFeatureHost? = nil
  static let testValue: LuaFeatureHost? = nil
}
