import Clocks
import Composable
import ConcurrencyExtras
import ComposableTesting
import Dependencies
import Foundation
import LuaBridge

extension LuaTestSession {
  /// Carries out one store operation a test asked for, and says what to resume the test with.
  func perform(_ operation: LuaTestOperation) async -> Result<LuaValue, LuaTestMisuse> {
    do {
      switch operation {
      case let .store(feature, initial, initialBuilder, overrides, exhaustive, realClients, timeout):
        return .success(.integer(try makeStore(
          feature: feature, initial: initial, initialBuilder: initialBuilder, overrides: overrides, exhaustive: exhaustive,
          realClients: realClients, timeout: timeout
        )))
      case let .send(id, action, expect):
        let box = try store(id)
        // The gate every entry uses; the declarations half already ran in Lua, at the call.
        if let problem = box.feature.unwritable(action) { throw LuaTestMisuse(message: "store:send: \(problem)") }
        await box.store.send(action, assert: try expectation(expect, feature: box.feature))
      case let .receive(id, match, expect):
        let box = try store(id)
        let expect = try expectation(expect, feature: box.feature)
        let matcher: LuaReceiveExpectation.Matcher
        switch match {
        case let .type(type):
          matcher = .type(type)
        case let .action(action):
          matcher = .action(action)
        case let .predicate(handle):
          let matches = try testing.get("matches", as: LuaFunction.self)
          let function = try value(handle, as: LuaFunction.self)
          matcher = .predicate(
            at: function.sourceLocation.map { "\($0.file):\($0.line)" },
            matches: { [vm] action in (try? vm.call(matches, handle, action, returning: Bool.self)) ?? false }
          )
        }
        let expected = LuaReceiveExpectation(matcher: matcher)
        await box.store.receive(
          describing: expected.description, matching: expected.matches, arrived: expected.explain,
          advice: LuaReceiveExpectation.advice, assert: expect,
          at: EffectOrigin(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        )
      case let .advance(id, seconds):
        let box = try store(id)
        do {
          await box.clock.advance(by: try LuaSeconds.duration(seconds))
        } catch {
          throw LuaTestMisuse(message: "advance: \(error)")
        }
      case let .finish(id):
        try await store(id).store.finish()
      case let .skipReceived(id, print):
        let skipped = try await store(id).store.skipReceivedActions(strict: false)
        if print, !skipped.isEmpty {
          vm.printHandler(
            (["\(skipped.count) received action\(skipped.count == 1 ? " was" : "s were") skipped:"]
              + skipped.map { "  \($0)" }).joined(separator: "\n"))
        }
        return .success(.array(skipped))
      case let .skipInFlight(id):
        try await store(id).store.skipInFlightEffects(strict: false)
      case let .state(id):
        return .success(try store(id).store.state.value)
      case let .assert(id, expect):
        let box = try store(id)
        guard let expect = try expectation(expect, feature: box.feature) else {
          throw LuaTestMisuse(message: "store:assert needs a function")
        }
        box.store.assert(expect)
      case let .streamFed(stream):
        host.streams.signal(stream)
        // NB: the effect reads the value and sends what it makes of it before the test goes on.
        await Task.megaYield()
      case let .isDismissed(id):
        return .success(.boolean(try store(id).store.isDismissed))
      case let .exhaustivity(id, on, showSkipped):
        let store = try store(id).store
        let previous = store.exhaustivity
        store.exhaustivity = on ? .on : .off(showSkippedAssertions: showSkipped)
        return .success(.table([
          "mode": .text(previous == .on ? "on" : "off"),
          "showSkipped": .boolean(previous == .off(showSkippedAssertions: true)),
        ]))
      }
      return .success(.nil)
    } catch let misuse as LuaTestMisuse {
      return .failure(misuse)
    } catch {
      return .failure(LuaTestMisuse(message: "\(error)"))
    }
  }

  /// A test store for the feature table behind `feature`.
  private func makeStore(
    feature: LuaValue, initial: LuaValue, initialBuilder: Int64?, overrides: LuaValue, exhaustive: Bool,
    realClients: [String], timeout: Double?
  ) throws -> Int64 {
    guard let featureHandle = feature.integerValue else { throw LuaTestMisuse(message: "test.store needs a feature") }
    let table = try value(featureHandle, as: LuaTable.self)
    let loaded = try LuaFeature(host: host, sandbox: sandbox, table: table, location: nil)
    let mocks = try overrides.integerValue.map { handle throws(LuaError) in try value(handle, as: LuaTable.self) } ?? vm.newTable()
    try requireMocks(in: mocks)
    let reducer = loaded.reducer(dependencyOverrides: mocks, testing: true, realClients: realClients)
    // NB: every store draws from the start of the sequence, so a store's results do not depend
    //     on what the test or an earlier store drew.
    sandbox.seedRandom(Self.testSeed)
    let clock = TestClock()
    // NB: one generator for the initial state and the store: an `initial(deps)` drawing ids takes
    //     the first ones, and the reducer goes on from there.
    let uuid = UUIDGenerator.incrementing
    let dependencies: (inout DependencyValues) -> Void = {
      $0.continuousClock = clock
      $0.uuid = uuid
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    }
    let built: LuaValue
    if let initialBuilder {
      let build = try value(initialBuilder, as: LuaFunction.self)
      built = try withDependencies(dependencies) { try reducer.instance.initialValue(building: build) }
    } else {
      built = try initial.isNil ? withDependencies(dependencies) { try reducer.instance.initialValue() } : initial
    }
    let start = loaded.withSharedValues(built, seeding: !initial.isNil || initialBuilder != nil)
    let store = TestStore(initialState: LuaState(start)) {
      reducer
    } withDependencies: {
      dependencies(&$0)
      $0.luaRootDismissal = true
    }
    if !exhaustive { store.exhaustivity = .off }
    // NB: what a store with `showSkipped` skipped is printed, as the test's `print` prints.
    store.showSkipped = { [vm] message, _ in vm.printHandler(IssueCollector.inLuaTerms(message)) }
    if let timeout { store.timeout = try LuaSeconds.duration(timeout) }
    return add(StoreBox(store: store, clock: clock, feature: loaded))
  }

  /// Makes every asynchronous dependency without a mock fail when called: a test must never reach
  /// the network or the disk by accident. Two are left as they are: the clock, which the test
  /// controls, and `deps.http`, which answers from the feature's recordings unless the run asked for
  /// the network (`lunar test --deps live`).
  private func requireMocks(in mocks: LuaTable) throws(LuaError) {
    for name in host.dependencies.names where name != "clock.sleep" && !name.hasPrefix("http.") {
      guard case .async = host.dependencies.functions[name], try mocks.get(name, as: LuaRef?.self) == nil else { continue }
      let unmocked = try vm.function(named: "deps.\(name)") { [collector] arguments in
        // NB: recorded as a failure here too: the feature may catch the error (a `catch` that
        //     shows "failed to load"), and the test must fail all the same.
        let location = arguments.callerLocation(level: 1).map { "\($0.file):\($0.line)" }
        collector.record("deps.\(name) was called but is not mocked in this test", location: location)
        throw LuaDependencyError(
          name: name,
          message: "is not mocked in this test: pass test.store(feature, { deps = { \(name.split(separator: ".").first ?? "") = { … } } })"
        )
      }
      try mocks.set(name, unmocked)
    }
  }

  /// The state expectation behind a handle, as a `TestStore` assertion: what the test's function
  /// makes of the state, with the shared places it changed reaching the others (as they do in the
  /// store).
  private func expectation(_ handle: LuaValue, feature: LuaFeature) throws -> ((inout LuaState) throws -> Void)? {
    guard let handle = handle.integerValue else { return nil }
    let expect = try testing.get("expect", as: LuaFunction.self)
    let shared = feature.sharedFields
    return { [vm] state in
      let before = state.value
      let after = try vm.call(expect, handle, state.value, returning: LuaValue.self)
      state.value = shared.syncingExpectation(after, before: before)
    }
  }
}
