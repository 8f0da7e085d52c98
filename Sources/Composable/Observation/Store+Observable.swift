import Observation

/// A store is observable with Swift's Observation: each field read through it is tracked on its
/// own, so a SwiftUI view (or `withObservationTracking`) is told of an action only when it changed
/// something the view read.
///
/// ```swift
/// withObservationTracking {
///   _ = store.count                      // tracks `count` only
/// } onChange: {
///   print("count changed")
/// }
/// store.send(.toggleLoading)             // does not change count: onChange is not called
/// store.send(.increment)                 // "count changed"
/// ```
///
/// What a read tracks:
///
/// - `store.count` (and `store[dynamicMember: \.profile.city]`) tracks that key path. After an
///   action, it is reported changed when its value changed (`Equatable` values are compared;
///   others are reported after any action) or, for a state that knows what its actions changed
///   (``ObservableStateChanges``: a Lua feature's ``LuaState``), when the action changed it.
/// - ``Store/state`` tracks the whole state: the next action, whatever it changed, is reported.
/// - ``Store/withState(_:)`` tracks nothing, as in TCA.
/// - A scoped store (``Store/scope(state:action:)``) tracks the child's fields the same way.
///
/// A store nobody reads fields of pays nothing for this per action; a field read outside any
/// tracking is checked after the following actions until it changes once.
extension Store: Observable {}

extension Store {
  /// The key the observation registrar knows a field of the state by.
  nonisolated subscript(observedField field: AnyKeyPath) -> Void { () }

  /// Tracks `keyPath` as read from `state` (see ``Store``'s conformance to `Observable`).
  @usableFromInline
  func track<Value>(_ keyPath: KeyPath<State, Value>, in state: State) {
    let fields: ObservedFields<State, Action>
    if let observed { fields = observed } else {
      fields = ObservedFields()
      observed = fields
    }
    observationRegistrar.access(self, keyPath: fields.watch(keyPath, of: self, in: state))
  }
}
