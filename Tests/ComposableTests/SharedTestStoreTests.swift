import CasePathsCore
import Composable
import ComposableTesting
import Dependencies
import Foundation
import Testing

/// A counter whose count is shared: changed by the reducer or by an effect.
private struct SharedCounter: Reducer {
  struct State: Equatable {
    var count: Shared<Int>
  }

  enum Action: Equatable, Sendable {
    case increment
    case incrementInEffect
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count.withLock { $0 += 1 }
      return .none
    case .incrementInEffect:
      return .run { [count = state.count] _ in count.withLock { $0 += 1 } }
    }
  }
}

/// Two features that do not know each other, each declaring the same in-memory key.
private struct Dashboard: Reducer {
  struct State: Equatable {
    var left = SharedCounter.State(count: Shared(wrappedValue: 0, .inMemory("count")))
    var right = SharedCounter.State(count: Shared(wrappedValue: 0, .inMemory("count")))
  }

  enum Action: Equatable, Sendable, CasePathable {
    case left(SharedCounter.Action)
    case right(SharedCounter.Action)

    // NB: Case key paths written by hand: library targets use no macros.
    struct AllCasePaths {
      var left: AnyCasePath<Action, SharedCounter.Action> {
        AnyCasePath(embed: Action.left) {
          guard case let .left(action) = $0 else { return nil }
          return action
        }
      }
      var right: AnyCasePath<Action, SharedCounter.Action> {
        AnyCasePath(embed: Action.right) {
          guard case let .right(action) = $0 else { return nil }
          return action
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: \.left) { SharedCounter() }
    Scope(state: \.right, action: \.right) { SharedCounter() }
  }
}

@MainActor
struct SharedTestStoreTests {
  @Test func reducerChangesToSharedStateAreAssertedLikeState() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(0))) { SharedCounter() }
    await store.send(.increment) { $0.count.withLock { $0 = 1 } }
    await store.send(.increment) { $0.count.withLock { $0 += 1 } }
    #expect(store.state.count.value == 2)
  }

  @Test func aWrongSharedAssertionFailsWithADiff() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(0))) { SharedCounter() }
    await withKnownIssue {
      await store.send(.increment) { $0.count.withLock { $0 = 2 } }
    } matching: { issue in
      issue.description.contains("−") && issue.description.contains("count: 2")
        && issue.description.contains("+") && issue.description.contains("count: 1")
    }
  }

  @Test func anUnassertedReducerChangeFails() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(0))) { SharedCounter() }
    await withKnownIssue {
      await store.send(.increment)
    } matching: { issue in
      issue.description.contains("State was not expected to change")
    }
  }

  @Test func effectChangesAreAssertedWithAssert() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(0))) { SharedCounter() }
    await store.send(.incrementInEffect)
    await store.finish()
    store.assert { $0.count.withLock { $0 = 1 } }
  }

  @Test func anUnassertedEffectChangeFailsAtTheNextSend() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(0))) { SharedCounter() }
    await store.send(.incrementInEffect)
    await store.finish()
    await withKnownIssue {
      await store.send(.increment) { $0.count.withLock { $0 = 2 } }
    } matching: { issue in
      issue.description.contains("Shared state was changed but not asserted")
        && issue.description.contains("store.assert")
    }
  }

  @Test func anUnassertedEffectChangeFailsAtTheEndOfTheTest() async {
    await withKnownIssue {
      let store = TestStore(initialState: SharedCounter.State(count: Shared(0))) { SharedCounter() }
      await store.send(.incrementInEffect)
      await store.finish()
    } matching: { issue in
      issue.description.contains("Shared state was changed but not asserted")
    }
  }

  @Test func aNonExhaustiveStoreAcceptsUnassertedSharedChanges() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(0))) { SharedCounter() }
    store.exhaustivity = .off
    await store.send(.incrementInEffect)
    await store.finish()
    await store.send(.increment)
    await store.send(.increment) { $0.count.withLock { $0 = 3 } }
  }

  @Test func twoFeaturesSeeEachOthersChangesThroughTheSameKey() async {
    let store = TestStore(initialState: Dashboard.State()) { Dashboard() }
    await store.send(.left(.increment)) { $0.left.count.withLock { $0 = 1 } }
    #expect(store.state.right.count.value == 1)
    await store.send(.right(.increment)) { $0.right.count.withLock { $0 = 2 } }
    #expect(store.state.left.count.value == 2)
  }

  @Test func inMemoryValuesDoNotLeakBetweenTestStores() async {
    for _ in 1...2 {
      let store = TestStore(initialState: Dashboard.State()) { Dashboard() }
      await store.send(.left(.increment)) { $0.left.count.withLock { $0 = 1 } }
    }
  }

  @Test func testStoresPersistToMemoryNotToDisk() async {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("lunar-shared-\(UUID().uuidString)/count.json")
    let store = TestStore(
      initialState: SharedCounter.State(count: Shared(wrappedValue: 0, .fileStorage(url)))
    ) { SharedCounter() }
    await store.send(.increment) { $0.count.withLock { $0 = 1 } }
    #expect(!FileManager.default.fileExists(atPath: url.path))
    let saved = try? store.dependencies.defaultFileStorage.load(url)
    #expect(saved.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } == "1")
  }
}
