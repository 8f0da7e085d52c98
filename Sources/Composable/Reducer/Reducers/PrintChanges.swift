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
  let print: @Sendable (_ action: Action, _ oldState: State, _ newState: State) -> Void

  /// A printer that calls `print` with the action and the states before and after it.
  public init(print: @escaping @Sendable (_ action: Action, _ oldState: State, _ newState: State) -> Void) {
    self.print = print
  }

  /// Writes the action and a diff of the state to standard output.
  public static var customDump: Self {
    Self { action, oldState, newState in
      var output = "received action:\n"
      CustomDump.customDump(action, to: &output, indent: 2)
      output.append("\n")
      if let difference = diff(oldState, newState) {
        output.append(difference.replacingOccurrences(of: "\n", with: "\n  ").prepending("  "))
      } else {
        output.append("  (No state changes)")
      }
      Swift.print(output)
    }
  }

  /// Writes only the action's name, without state.
  public static var actionLabels: Self {
    Self { action, _, _ in
      var output = "received action: "
      CustomDump.customDump(action, to: &output, maxDepth: 1)
      Swift.print(output)
    }
  }
}

/// The reducer built by ``Reducer/_printChanges(_:)``.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: _ReducerPrinter<Base.State, Base.Action>

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldState = state
    let effect = base.reduce(into: &state, action: action)
    printer.print(action, oldState, state)
    return effect
  }
}

extension String {
  fileprivate func prepending(_ prefix: String) -> String { prefix + self }
}
