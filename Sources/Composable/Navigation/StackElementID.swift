import ConcurrencyExtras
import CustomDump
import Dependencies

/// The identity of an element of a ``StackState``: a generational integer, never reused.
///
/// Ids come from the `stackElementID` dependency when an element is appended. In tests they start at
/// `0` for each test, so a test can address elements by literal: `.path(.element(id: 0, action: …))`.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible, CustomDumpStringConvertible, Codable
{
  /// The generation number.
  public let rawValue: Int

  /// Creates an id from its generation number.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// An id written as a number: `.popFrom(id: 0)`.
  public init(integerLiteral value: Int) {
    self.rawValue = value
  }

  /// Older ids come first.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `#3`.
  public var description: String { "#\(rawValue)" }

  /// How test failures show the id: `#3`.
  public var customDumpDescription: String { description }

  /// Decodes the value as it was encoded.
  public init(from decoder: any Decoder) throws {
    self.rawValue = try Int(from: decoder)
  }

  /// Encodes the value alone (the wrapper leaves no trace in the encoding).
  public func encode(to encoder: any Encoder) throws {
    try rawValue.encode(to: encoder)
  }
}

/// Hands out ``StackElementID``s: the next generation each time it is called.
///
/// ```swift
/// withDependencies { $0.stackElementID = .incrementing } operation: { … }
/// ```
///
/// A test store gives its assertion closures a copy of the feature's generator as it was before the
/// action, so `$0.path.append(…)` in an assertion makes the id the feature made, and draws nothing
/// from the feature's own generator.
public struct StackElementIDGenerator: Sendable {
  private let _next: @Sendable () -> StackElementID
  private let _peek: @Sendable () -> StackElementID

  /// A generator calling `next` for each id, and `peek` to see the next one without taking it.
  public init(
    next: @escaping @Sendable () -> StackElementID,
    peek: @escaping @Sendable () -> StackElementID
  ) {
    self._next = next
    self._peek = peek
  }

  /// The next id; the generator moves on.
  public func next() -> StackElementID { _next() }

  /// The next id, without moving on.
  public func peek() -> StackElementID { _peek() }

  /// The next id; the generator moves on.
  public func callAsFunction() -> StackElementID { _next() }

  /// A new generator counting from 0.
  public static var incrementing: Self { incrementing(from: 0) }

  /// A new generator counting from `start`.
  static func incrementing(from start: Int) -> Self {
    let counter = LockIsolated(start)
    return Self(
      next: {
        counter.withValue { value in
          defer { value += 1 }
          return StackElementID(rawValue: value)
        }
      },
      peek: { StackElementID(rawValue: counter.value) }
    )
  }

  /// A new incrementing generator that starts where this one is now; this one is left alone.
  public func incrementingCopy() -> Self {
    .incrementing(from: peek().rawValue)
  }
}

extension StackElementIDGenerator: DependencyKey {
  /// The default for this dependency.
  public static var liveValue: Self { .incrementing }
  /// The default for this dependency.
  public static var testValue: Self { .incrementing }
}

extension DependencyValues {
  /// Where new ``StackState`` elements get their ids.
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGenerator.self] }
    set { self[StackElementIDGenerator.self] = newValue }
  }
}
