extension Shared where Value: Sendable {
  /// The value's changes, as an async sequence: each change made through any copy (or any `Shared`
  /// with the same key) yields the new value. The current value is not yielded first.
  ///
  /// ```swift
  /// case .onAppear:
  ///   return .run { [count = state.count] send in
  ///     for await value in count.values {
  ///       await send(.countChanged(value))
  ///     }
  ///   }
  /// ```
  ///
  /// > Important: Changing the same shared value in response to its own change loops forever. And a
  /// > `for await` over `values` never ends by itself: make the effect cancellable.
  public var values: AsyncStream<Value> {
    AsyncStream { continuation in
      let box = self.box
      let token = box.observe(keyPath) { (value: Value) in continuation.yield(value) }
      continuation.onTermination = { _ in box.stopObserving(token) }
    }
  }
}

extension Shared where Value: Sendable {
  /// Calls `onChange` with the new value after every change, synchronously on the writer's thread
  /// and under the value's lock; returns a function that stops observing. For hosts (the Lua
  /// features) that must know a value changed without an async sequence.
  ///
  /// > Important: `onChange` must not change the value or call into a store.
  package func observeSynchronously(_ onChange: @escaping @Sendable (Value) -> Void) -> @Sendable () -> Void {
    let box = self.box
    let token = box.observe(keyPath, onChange)
    return { box.stopObserving(token) }
  }
}

/// A shared reference that can be copied into a value of its own, unchanged by later writes: what
/// an operator comparing state before and after an action keeps as the value before.
protocol SharedFreezing {
  func frozen() -> Self
}

extension Shared: SharedFreezing {
  func frozen() -> Self { Shared(box: box.frozen(seenBy: nil), keyPath: keyPath) }
}

extension SharedReader: SharedFreezing {
  func frozen() -> Self { SharedReader(box: box.frozen(seenBy: nil), keyPath: keyPath) }
}

extension Optional: SharedFreezing where Wrapped: SharedFreezing {
  func frozen() -> Self { map { $0.frozen() } }
}
