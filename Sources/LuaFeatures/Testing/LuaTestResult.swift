import Foundation

/// The outcome of one Lua test (`test("name", function() … end)` in a `*_test.lua` file).
public struct LuaTestResult: Sendable, Equatable {
  /// The test's name.
  public var name: String
  /// The test file.
  public var file: String
  /// Where the test is declared (`counter_test.lua:12`).
  public var declaredAt: String
  /// Why it failed; empty when it passed.
  public var failures: [LuaTestFailure]
  /// How long it took.
  public var duration: Duration

  /// Whether it passed.
  public var passed: Bool { failures.isEmpty }
}

/// One failure of a Lua test: the message (with a diff for state mismatches) and where in the test
/// file it happened.
public struct LuaTestFailure: Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  /// `file:line` in the test (or feature) file, when known.
  public var location: String?

  /// A failure.
  public init(message: String, location: String?) {
    self.message = message
    self.location = location
  }

  public var description: String {
    guard let location else { return message }
    return "\(location): \(message)"
  }
}
