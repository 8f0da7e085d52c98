import Clocks
import Composable
import ComposableTesting
import Dependencies
import Foundation
import LuaBridge

/// One test file loaded in its own host, and the state of the test in progress.
///
/// Every test runs in a fresh sandbox: the file is loaded again before each test but the first,
/// so that globals a script set, module-level values and `math.random`'s draws never carry over
/// from one test to the next, whatever their order and whether a filter picked a test alone.
@MainActor
final class LuaTestSession {
  struct Test {
    let name: String
    let declaredAt: String
    /// Its place among the file's tests, which finds it again when the file is loaded afresh.
    let index: Int
    let function: LuaFunction
  }

  /// A store created by `test.store`.
  final class StoreBox {
    let store: TestStore<LuaState, LuaValue>
    let clock: TestClock<Duration>
    /// The feature the store runs: its action gate checks what the test sends.
    let feature: LuaFeature

    init(store: TestStore<LuaState, LuaValue>, clock: TestClock<Duration>, feature: LuaFeature) {
      self.store = store
      self.clock = clock
      self.feature = feature
    }
  }

  let host: LuaFeatureHost
  private(set) var sandbox: LuaSandbox
  let collector: IssueCollector
  let file: URL
  private(set) var tests: [Test] = []
  /// Whether a test ran in the current sandbox (the next one needs a fresh load).
  private var used = false
  private var stores: [Int64: StoreBox] = [:]
  private var nextStore: Int64 = 1
  var vm: LuaVM { host.vm }
  var testing: LuaTable { host.prelude.testing }

  init(
    file: URL, dependencies: LuaDependencies, limits: LuaVM.Limits, collector: IssueCollector,
    output: @escaping (String) -> Void = { print($0) }
  ) throws {
    self.collector = collector
    self.file = file
    host = try LuaFeatureHost(limits: limits, dependencies: dependencies)
    host.vm.printHandler = output
    // NB: in memory from the start, before the test file loads its features: tests never read or
    //     write the user's files, and never claim their folder.
    host.shared.reset(fileStorage: .inMemory())
    host.onError = { [collector] error in
      collector.record(error.description, location: error.location)
    }
    // NB: a test fails on what `lunar run` only warns of (an effect built and not returned).
    host.onWarning = { [collector] warning in
      collector.record(warning.message, location: warning.location)
    }
    (sandbox, tests) = try Self.load(file, in: host)
  }

  /// A fresh sandbox with `file` loaded in it, and the tests it declared.
  private static func load(_ file: URL, in host: LuaFeatureHost) throws -> (LuaSandbox, [Test]) {
    do {
      let sandbox = try host.vm.makeSandbox(.init(root: file.deletingLastPathComponent(), randomSeed: testSeed))
      let chunk = try sandbox.loadFile(file.lastPathComponent)
      try host.vm.call(chunk)
      let testing = host.prelude.testing
      let declared = try host.vm.call(testing.get("take", as: LuaFunction.self), returning: LuaTable.self)
      var tests: [Test] = []
      for index in 1...max(declared.count, 1) where index <= declared.count {
        let entry = try declared.get(index, as: LuaTable.self)
        let handle = try entry.get("fn", as: Int64.self)
        tests.append(
          Test(
            name: try entry.get("name", as: String.self),
            declaredAt: try entry.get("at", as: String.self),
            index: index,
            function: try host.vm.call(testing.get("value", as: LuaFunction.self), handle, returning: LuaFunction.self)
          )
        )
      }
      return (sandbox, tests)
    } catch {
      throw LuaFeatureError(error, kind: .load, feature: file.lastPathComponent)
    }
  }

  /// The seed of `math.random` at the start of every test and every test store.
  static let testSeed: UInt64 = 0

  /// `test` as declared by a fresh load of the file, when a test already ran in this sandbox.
  private func fresh(_ test: Test) throws -> Test {
    guard used else { return test }
    (sandbox, tests) = try Self.load(file, in: host)
    guard test.index <= tests.count, tests[test.index - 1].name == test.name else {
      throw LuaTestMisuse(message: "the file declared other tests when loaded again for \"\(test.name)\": " +
        "declare tests the same way on every load (not from random draws or mutable state)")
    }
    return tests[test.index - 1]
  }

  /// Runs one test to its end, then releases its stores (which checks that nothing was left
  /// unasserted).
  func run(_ test: Test) async {
    collector.at(test.declaredAt)
    // NB: each test starts with fresh shared values, persisted in memory only.
    host.shared.reset(fileStorage: .inMemory())
    defer {
      collector.at(test.declaredAt)
      stores.removeAll()
      _ = try? vm.call(testing.get("clear", as: LuaFunction.self))
    }
    let thread: LuaThread
    do {
      let test = try fresh(test)
      used = true
      thread = try vm.newThread(test.function)
    } catch let misuse as LuaTestMisuse {
      collector.record(misuse.message)
      return
    } catch let error as LuaFeatureError {
      collector.record(error.message, location: error.location)
      return
    } catch {
      collector.record("\(error)")
      return
    }
    defer { thread.close() }
    var reply: Result<LuaValue, LuaTestMisuse>? = nil
    while true {
      let outcome: LuaThread.Outcome
      do {
        switch reply {
        case nil: outcome = try thread.resume()
        case let .success(value): outcome = try thread.resume(true, value)
        case let .failure(misuse): outcome = try thread.resume(false, misuse.message)
        }
      } catch {
        collector.record(error.message, location: error.location)
        return
      }
      guard case let .yielded(values) = outcome else { return }
      guard values.count >= 2, let operation = values[1].stringValue else {
        collector.record("the test yielded outside of a test store operation")
        return
      }
      let arguments = Array(values.dropFirst(2))
      // Every operation passes its caller's `file:line` last; issues reported while it runs point
      // there.
      collector.at(arguments.last?.stringValue)
      do {
        reply = await perform(try LuaTestOperation(name: operation, arguments: arguments))
      } catch {
        reply = .failure(error)
      }
    }
  }

  func value<R: LuaReadable>(_ handle: Int64, as type: R.Type) throws(LuaError) -> R {
    try vm.call(testing.get("value", as: LuaFunction.self), handle, returning: R.self)
  }

  func store(_ id: Int64) throws(LuaTestMisuse) -> StoreBox {
    guard let box = stores[id] else {
      throw LuaTestMisuse(message: "not a test store of this test")
    }
    return box
  }

  func add(_ box: StoreBox) -> Int64 {
    let id = nextStore
    nextStore += 1
    stores[id] = box
    return id
  }
}

/// A test used the API wrongly: raised in the test at the call.
struct LuaTestMisuse: Error {
  let message: String
}

extension LuaError {
  /// `file:line`, when known.
  var location: String? {
    guard let file else { return nil }
    return line.map { "\(file):\($0)" } ?? file
  }
}
