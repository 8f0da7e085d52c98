import ConcurrencyExtras
import Dependencies

/// The root of a store: owns the state, the reducer and the effect runtime.
@MainActor
@usableFromInline
final class RootCore<R: Reducer>: EffectsInFlightCounting {
  // NB: Dynamic exclusivity checks on these cost more than the whole reducer call of a small
  //     feature. Access is already exclusive by construction: everything runs on the main actor, and
  //     `isSending` queues re-entrant sends instead of nesting them.
  @exclusivity(unchecked) @usableFromInline var state: R.State
  @usableFromInline let reducer: R
  /// The dependencies the store was made with: in effect for its reducer and its effects.
  @usableFromInline let dependencies: DependencyValues
  /// Whether each action binds ``dependencies``. Not when none was overridden where the store was
  /// made: a send from the app reads the defaults anyway, and binding costs a task-local push per
  /// action. Actions sent by effects are bound either way (see ``send(_:from:)``).
  @usableFromInline let bindsEveryAction: Bool
  @exclusivity(unchecked) @usableFromInline var isSending = false
  /// Actions sent while reducing, with the tree of effects they belong to (`nil`: the current send's).
  @exclusivity(unchecked) @usableFromInline var buffer: [(action: R.Action, group: EffectGroup?)] = []
  // NB: Holds each observation's flag, not the observation: a released observation must end.
  @usableFromInline var observers: [(isCancelled: LockIsolated<Bool>, onChange: @MainActor () -> Void)] = []
  @usableFromInline lazy var runtime = EffectRuntime<R.Action> { [weak self] action, group in
    self?.send(action, from: group)
  }

  @usableFromInline
  init(state: R.State, reducer: R, dependencies: DependencyValues, bindsEveryAction: Bool) {
    self.state = state
    self.reducer = reducer
    self.dependencies = dependencies
    self.bindsEveryAction = bindsEveryAction
  }

  isolated deinit {
    // NB: A store that goes away takes its effects with it.
    runtime.cancelAll()
  }

  @inlinable
  func send(_ action: R.Action) -> StoreTask {
    // NB: Re-entrant sends (a `.send` effect, an observer sending) are queued so that each action is
    //     reduced to completion before the next starts.
    guard !isSending else {
      buffer.append((action, nil))
      return StoreTask(group: nil)
    }
    var group: EffectGroup?
    process(action, group: &group)
    return StoreTask(group: group)
  }

  /// An action sent by an effect of `group`: its effects join the same tree.
  @usableFromInline
  func send(_ action: R.Action, from group: EffectGroup) {
    guard !isSending else {
      buffer.append((action, group))
      return
    }
    var group: EffectGroup? = group
    guard bindsEveryAction else {
      // NB: The effect's task carries the dependencies its effect was given (overrides made for it
      //     with `withDependencies`); the reducer must see the store's own.
      return DependencyValues.$_current.withValue(dependencies) { process(action, group: &group) }
    }
    process(action, group: &group)
  }

  @inlinable
  func process(_ action: R.Action, group: inout EffectGroup?) {
    isSending = true
    reduceAndStart(action, group: &group)
    var index = 0
    while index < buffer.count {
      let next = buffer[index]
      index += 1
      if let nextGroup = next.group {
        var bound: EffectGroup? = nextGroup
        reduceAndStart(next.action, group: &bound)
      } else {
        reduceAndStart(next.action, group: &group)
      }
    }
    if index > 0 { buffer.removeAll(keepingCapacity: true) }
    isSending = false
    if !observers.isEmpty { notifyObservers() }
  }

  @inlinable
  func reduceAndStart(_ action: R.Action, group: inout EffectGroup?) {
    let effect: Effect<R.Action>
    if bindsEveryAction {
      effect = DependencyValues.$_current.withValue(dependencies) {
        reducer.reduce(into: &state, action: action)
      }
    } else {
      effect = reducer.reduce(into: &state, action: action)
    }
    if case .none = effect.operation { return }
    start(effect, cause: action, group: &group)
  }

  @usableFromInline
  func start(_ effect: Effect<R.Action>, cause: R.Action, group: inout EffectGroup?) {
    let tree = group ?? EffectGroup()
    group = tree
    runtime.start(effect, group: tree, cause: cause)
  }

  /// Effect tasks running now.
  var effectsInFlight: Int { runtime.runningCount }

  @usableFromInline
  func notifyObservers() {
    observers.removeAll { $0.isCancelled.value }
    for observer in observers { observer.onChange() }
  }

  @usableFromInline
  func observe(_ onChange: @escaping @MainActor () -> Void) -> StoreObservation {
    let observation = StoreObservation()
    observers.append((observation.isCancelled, onChange))
    return observation
  }
}

/// A store root that can tell how many of its effects are running.
@MainActor
protocol EffectsInFlightCounting: AnyObject {
  var effectsInFlight: Int { get }
}
