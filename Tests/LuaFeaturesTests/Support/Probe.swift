import Foundation
import LuaFeatures

/// Counts calls made from Lua (through a synchronous dependency), from any thread.
final class Probe: @unchecked Sendable {
  private let lock = NSLock()
  private var _count = 0

  var count: Int { lock.withLock { _count } }

  func hit() { lock.withLock { _count += 1 } }
}

extension LuaDependencies {
  /// The built-in dependencies plus `numbers.fetch(n)` (async, "n is odd/even"), `numbers.fail(n)`
  /// (async, always throws) and `probe.hit()` (sync, counts on `probe`).
  static func testing(probe: Probe = Probe()) -> LuaDependencies {
    var dependencies = LuaDependencies.builtIn
    dependencies.async("numbers.fetch") { (n: Int) async throws -> String in
      "\(n) is \(n.isMultiple(of: 2) ? "even" : "odd")"
    }
    dependencies.async("numbers.fail") { (_: Int) async throws -> String in
      throw NumbersError()
    }
    dependencies.sync("probe.hit") { () -> Bool in
      probe.hit()
      return true
    }
    return dependencies
  }
}

struct NumbersError: Error, CustomStringConvertible {
  var description: String { "the numbers server is down" }
}
