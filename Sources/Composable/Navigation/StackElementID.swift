import ConcurrencyExtras
import Dependencies

/// The identity of an element of a ``StackState``: a generational integer, never reused.
///
/// Ids come from the `stackElementID` dependency when an element is appended. In tests they start at
/// `0` for each test, so a test can address elements by literal: `.path(.element(id: 0, action: …))`.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible, Codable
{
  /// The generation number.
  public let rawValue: Int

  /// Creates an id from its generation number.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  public init(integerLiteral value: Int) {
    self.rawValue = value
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }

  public init(from decoder: any Decoder) throws {
    self.rawValue = try Int(from: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    try rawValue.encode(to: encoder)
  }
}

/// Hands out ``StackElementID``s: the next generation each time it is called.
///
/// ```swift
/// withDependencies { $0.stackElementID = .incrementing } operation: { … }
/// ```
public struct StackElementIDGenerator: Sendable {
  private let next: @Sendable () -> StackElementID

  /// A generator calling `next` for each id.
  public init(_ next: @escaping @Sendable () -> StackElementID) {
    self.next = next
  }

  /// The next id.
  public func callAsFunction() -> StackElementID { next() }

  /// A new generator counting from 0.
  public static var incrementing: Self {
    let counter = LockIsolated(0)
    return Self {
      counter.withValue { value in
        defer { value += 1 }
        return StackElementID(rawValue: value)
      }
    }
  }
}

extension StackElementIDGenerator: DependencyKey {
  public static var liveValue: Self { .incrementing }
  public static var testValue: Self { .incrementing }
}

extension DependencyValues {
  /// Where new ``StackState`` elements get their ids.
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGenerator.self] }
    set { self[StackElementIDGenerator.self] = newValue }
  }
}
