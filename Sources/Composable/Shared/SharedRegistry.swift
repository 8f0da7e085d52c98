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
  private var boxes: [String: any SharedBoxProtocol] = [:]

  public init() {}

  func box<Value>(
    for id: String, as type: Value.Type, make: () -> SharedBox<Value>
  ) -> any SharedBoxProtocol {
    lock.lock()
    defer { lock.unlock() }
    if let existing = boxes[id] {
      if existing is SharedBox<Value> { return existing }
      reportIssue(
        """
        The shared key "\(id)" is used with two types; this use (\(Value.self)) gets a value of its own.

        Use a different key for each type.
        """
      )
      return make()
    }
    let box = make()
    boxes[id] = box
    return box
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
