import Dependencies
import Foundation
import IssueReporting

/// The values of keyed ``Shared`` values (``SharedKey``), one per key id.
///
/// It is the `sharedRegistry` dependency: one for the whole process in a live app, and a fresh one for
/// each ``TestStore``, so in-memory values never leak from one test to another. Outside a test store,
/// give a test its own:
///
/// ```swift
/// withDependencies {
///   $0.sharedRegistry = SharedRegistry()
/// } operation: {
///   let count = Shared(wrappedValue: 0, .inMemory("count"))
///   …
/// }
/// ```
///
/// > Important: Values live as long as their registry: a keyed value is loaded once, then kept.
public final class SharedRegistry: @unchecked Sendable {
  private let lock = NSLock()
  private var boxes: [ID: any SharedBoxProtocol] = [:]

  /// A key's identity in the registry: its ``SharedKey/id`` and, for a key that keeps its value in
  /// the file storage, which storage. The same file in two storages is two values.
  struct ID: Hashable {
    let key: String
    let storage: ObjectIdentifier?

    init(_ key: some SharedKey, in storage: FileStorage) {
      self.key = key.id
      // NB: the box's save closure keeps the storage (and so its identity) alive as long as the
      //     box is registered: an identifier is never reused for another storage meanwhile.
      self.storage = key.isPersisted ? ObjectIdentifier(storage.identity) : nil
    }
  }

  public init() {}

  func box<Value>(
    for id: ID, as type: Value.Type, make: () -> SharedBox<Value>
  ) -> any SharedBoxProtocol {
    if let existing = lock.withLock({ boxes[id] }) { return checked(existing, id: id, make: make) }
    // NB: Made outside the lock: loading may create other keyed values (a default holding a
    //     `@Shared` of its own) or resolve dependencies, which must not wait on this lock. Two
    //     threads loading one key at once both load it; the first to finish is kept.
    let made = make()
    let kept = lock.withLock {
      if let existing = boxes[id] { return existing }
      boxes[id] = made
      return made
    }
    return kept === made ? made : checked(kept, id: id, make: make)
  }

  private func checked<Value>(
    _ existing: any SharedBoxProtocol, id: ID, make: () -> SharedBox<Value>
  ) -> any SharedBoxProtocol {
    if existing is SharedBox<Value> { return existing }
    reportIssue(
      """
      The shared key "\(id.key)" is used with two types; this use (\(Value.self)) gets a value of its own.

      Use a different key for each type.
      """
    )
    return make()
  }
}

private enum SharedRegistryKey: DependencyKey {
  static let liveValue = SharedRegistry()
  static var testValue: SharedRegistry { SharedRegistry() }
}

extension DependencyValues {
  /// Where keyed shared values live. See ``SharedRegistry``.
  public var sharedRegistry: SharedRegistry {
    get { self[SharedRegistryKey.self] }
    set { self[SharedRegistryKey.self] = newValue }
  }
}
