import CustomDump

extension Reducer {
  /// Prints each action and the change it made to state, for debugging.
  ///
  /// ```swift
  /// Store(initialState: App.State()) {
  ///   App()._printChanges()
  /// }
  /// // received action:
  /// //   App.Action.increment
  /// //   App.State(
  /// // −   count: 0
  /// // +   count: 1
  /// //   )
  /// ```
  ///
  /// > Important: Printing diffs is slow on large state. Leave it out of release builds.
  public func _printChanges(_ printer: _ReducerPrinter<State, Action> = .customDump) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, printer: printer)
  }
}

/// How ``Reducer/_printChanges(_:)`` reports an action and the state around it.
public struct _ReducerPrinter<State, Action>: Sendable {
  let print: @Sendable (_ action: Action, _ oldState: State, _ newState: State, _ shared: SharedChangeTracker) -> Void

  /// A printer that calls `print` with the action and the states before and after it.
  ///
  /// > Important: `Shared` values are references: in `oldState` they read as they are now. To see
  /// > how they changed, diff with ``describeChange(from:to:)`` inside `print`.
  public init(print: @escaping @Sendable (_ action: Action, _ oldState: State, _ newState: State) -> Void) {
    self.print = { action, oldState, newState, _ in print(action, oldState, newState) }
  }

  init(
    printWithShared print: @escaping @Sendable (Action, State, State, SharedChangeTracker) -> Void
  ) {
    self.print = print
  }

  /// Writes the action and a diff of the state to standard output.
  public static var customDump: Self {
    customDump { Swift.print($0) }
  }

  /// Writes the action and a diff of the state, shared values included, to `write`.
  ///
  /// ```swift
  /// App()._printChanges(.customDump { logger.debug("\($0)") })
  /// ```
  public static func customDump(_ write: @escaping @Sendable (String) -> Void) -> Self {
    Self(printWithShared: { action, oldState, newState, shared in
      var output = "received action:\n"
      CustomDump.customDump(action, to: &output, indent: 2)
      output.append("\n")
      if let difference = describe(from: oldState, to: newState, shared: shared) {
        output.append(difference.indent(by: 2))
      } else {
        output.append("  (No state changes)")
      }
      write(output)
    })
  }

  /// Writes only the action's name, without state.
  public static var actionLabels: Self {
    Self { action, _, _ in
      var output = "received action: "
      CustomDump.customDump(action, to: &output, maxDepth: 1)
      Swift.print(output)
    }
  }

  /// A diff of `oldState` and `newState` (`-` before, `+` after), `nil` when nothing changed;
  /// `Shared` values changed by the action read as they were before it in `oldState`.
  ///
  /// Call it inside a custom printer's `print`: outside, shared values read as they are now on both
  /// sides.
  public static func describeChange(from oldState: State, to newState: State) -> String? {
    describe(from: oldState, to: newState, shared: SharedChangeTracker.printing)
  }

  static func describe(from oldState: State, to newState: State, shared: SharedChangeTracker?) -> String? {
    guard let shared, shared.hasChanges else { return diff(oldState, newState) }
    // NB: Shared values are references: the old side is dumped with them reading the values the
    //     tracker saw before the action, and the two dumps are compared line by line.
    let before = SharedChangeTracker.$mode.withValue(.dumpingExpected(shared)) {
      String(customDumping: oldState)
    }
    let after = SharedChangeTracker.$mode.withValue(.live) { String(customDumping: newState) }
    guard before != after else { return nil }
    // NB: The marks of custom-dump's default format, so both kinds of diff read alike.
    return lineDiff(before, after, removed: "- ", added: "+ ", unchanged: "  ")
  }
}

/// The reducer built by ``Reducer/_printChanges(_:)``.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: _ReducerPrinter<Base.State, Base.Action>

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldState = state
    // NB: A tracker of its own records the shared values the action changes, with their values
    //     before it, so the printer can show them changing.
    let shared = SharedChangeTracker()
    let effect = shared.track { base.reduce(into: &state, action: action) }
    SharedChangeTracker.$printing.withValue(shared) {
      printer.print(action, oldState, state, shared)
    }
    return effect
  }
}

extension String {
  fileprivate func indent(by spaces: Int) -> String {
    let padding = String(repeating: " ", count: spaces)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : padding + $0 }
      .joined(separator: "\n")
  }
}
