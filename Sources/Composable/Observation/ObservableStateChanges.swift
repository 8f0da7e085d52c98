/// A state that can say which of its fields changed since an earlier value of it, so that a store
/// observing its fields need not compare their values.
///
/// A ``Store`` observed through Swift's Observation (see ``Store``) checks, after each action, the
/// fields that were read through it. For most states it compares each field's value with the one
/// read. A state that already knows what an action changed (a Lua feature's ``LuaState``, from its
/// transaction's change report) conforms to this protocol and answers instead: fields it says
/// did not change cost nothing, whatever their size.
///
/// ```swift
/// extension Document: ObservableStateChanges {
///   func changed(_ field: AnyKeyPath, since earlier: Document) -> Bool? {
///     guard revision == earlier.revision + 1 else { return nil }   // unknown: compare values
///     return field == \Document.title ? titleEdited : nil
///   }
/// }
/// ```
public protocol ObservableStateChanges {
  /// Whether the value `field` reads may differ between `earlier` and `self`.
  ///
  /// - Parameters:
  ///   - field: A key path from this type, as a store reads it (`\State.count` for `store.count`).
  ///   - earlier: A value of the state the same store had before.
  /// - Returns: `true` when it changed (the observers of `field` are told), `false` when it did not,
  ///   `nil` when the state cannot tell (the store compares the values, as for any state).
  @MainActor func changed(_ field: AnyKeyPath, since earlier: Self) -> Bool?
}
