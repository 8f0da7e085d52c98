import LunarPlugins

/// A stand-in for a SwiftUI view showing the count: it renders again only when Observation says
/// the count changed, as SwiftUI re-renders a view only when something its `body` read changed.
@MainActor
final class CountLabel {
  let store: Store<TypedCounter, TypedCounterAction>
  private var isStale = false

  init(store: Store<TypedCounter, TypedCounterAction>) {
    self.store = store
    render()
  }

  /// What SwiftUI does before a frame: render again what went stale.
  func update() {
    guard isStale else { return }
    isStale = false
    render()
  }

  private func render() {
    withObservationTracking {
      print("count label: \(store.count)")     // reads `count`: the only field this label tracks
    } onChange: { [weak self] in
      // NB: Observation calls this on the thread making the change: the store's, the main actor.
      MainActor.assumeIsolated { self?.isStale = true }
    }
  }
}
