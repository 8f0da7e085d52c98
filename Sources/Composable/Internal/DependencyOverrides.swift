import Dependencies

extension DependencyValues {
  /// Whether any dependency is overridden in these values (by `withDependencies`, a store's
  /// `prepareDependencies`, a test trait). `true` when it cannot tell.
  ///
  /// NB: Read from the values' storage by reflection, once per store: a store made where nothing is
  ///     overridden runs its reducer without binding its dependencies, which costs a task-local push
  ///     on every action (several times the cost of sending an action to a small reducer).
  @usableFromInline
  var mayHaveOverrides: Bool {
    for child in Mirror(reflecting: self).children where child.label == "storage" {
      if let storage = child.value as? [ObjectIdentifier: any Sendable] { return !storage.isEmpty }
    }
    return true
  }
}
