import Clocks
import Composable
import ComposableTesting
import ConcurrencyExtras
import Dependencies
import Foundation
import Testing

/// Dependencies in reducers and effects: test overrides, `dependency(_:_:)`, `transformDependency`, and
/// the built-in clock, uuid and date.
@MainActor
struct DependencyTests {
  @Test func aDependencyModifierReachesTheEffectsTheReducerStarts() async {
    let store = TestStore(initialState: Counter.State(count: 2)) {
      Counter()
        .dependency(\.numberFact, NumberFactClient { "\($0) from the modifier" })
    }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(.factResponse("2 from the modifier")) {
      $0.isLoading = false
      $0.fact = "2 from the modifier"
    }
  }

  @Test func transformDependencyChangesTheValueTheStoreProvides() async {
    let store = TestStore(initialState: Counter.State(count: 2)) {
      Counter()
        .transformDependency(\.numberFact) { client in
          let fetch = client.fetch
          client.fetch = { "wrapped: \(try await fetch($0))" }
        }
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is even" }
    }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(.factResponse("wrapped: 2 is even")) {
      $0.isLoading = false
      $0.fact = "wrapped: 2 is even"
    }
  }

  struct IDs: Equatable {
    var modified: UUID?
    var sibling: UUID?
  }

  @Test func anOverrideAppliesToTheModifiedReducerOnly() async {
    let store = TestStore(initialState: IDs()) {
      Reduce<IDs, Void> { state, _ in
        @Dependency(\.uuid) var uuid
        state.modified = uuid()
        return .none
      }
      .dependency(\.uuid, .constant(UUID(0)))
      Reduce<IDs, Void> { state, _ in
        @Dependency(\.uuid) var uuid
        state.sibling = uuid()
        return .none
      }
    } withDependencies: {
      $0.uuid = .constant(UUID(1))
    }
    await store.send(()) {
      $0.modified = UUID(0)
      $0.sibling = UUID(1)
    }
  }

  struct Stamps: Equatable {
    var id: UUID?
    var createdAt: Date?
    var ticks = 0
  }

  enum StampAction: Equatable, Sendable {
    case create
    case wait
    case tick
  }

  func stamper() -> Reduce<Stamps, StampAction> {
    Reduce { state, action in
      @Dependency(\.uuid) var uuid
      @Dependency(\.date.now) var now
      switch action {
      case .create:
        state.id = uuid()
        state.createdAt = now
        return .none
      case .wait:
        return .run { send in
          @Dependency(\.continuousClock) var clock
          try await clock.sleep(for: .seconds(5))
          await send(.tick)
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  @Test func builtInDependenciesAreOverriddenInTests() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stamps()) {
      stamper()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date.now = Date(timeIntervalSince1970: 1_000)
      $0.continuousClock = clock
    }
    await store.send(.create) {
      $0.id = UUID(0)
      $0.createdAt = Date(timeIntervalSince1970: 1_000)
    }
    await store.send(.create) { $0.id = UUID(1) }
    await store.send(.wait)
    await clock.advance(by: .seconds(5))
    await store.receive(.tick) { $0.ticks = 1 }
  }

  @Test func anEffectUsesTheDependenciesOfWhenItWasCreated() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stamps()) {
      stamper()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.wait)
    store.dependencies.continuousClock = ImmediateClock()
    await clock.advance(by: .seconds(5))
    await store.receive(.tick) { $0.ticks = 1 }
  }

  @Test func dependenciesChangedMidTestReachLaterActions() async {
    let store = TestStore(initialState: Counter.State(count: 1)) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) first" }
    }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(.factResponse("1 first")) {
      $0.isLoading = false
      $0.fact = "1 first"
    }
    store.dependencies.numberFact.fetch = { "\($0) second" }
    await store.send(.factButtonTapped) {
      $0.fact = nil
      $0.isLoading = true
    }
    await store.receive(.factResponse("1 second")) {
      $0.isLoading = false
      $0.fact = "1 second"
    }
  }

  // NB: swift-dependencies reports a live value reached from a test in debug builds only, as TCA
  //     does; a release build uses the live value without a word (the next test holds that).
  #if DEBUG
  @Test func aFeatureDependencyWithoutOverrideFailsTheTest() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await withKnownIssue {
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.skipReceivedActions(strict: false)
    } matching: { issue in
      issue.description.contains("@Dependency(\\.numberFact)")
        && issue.description.contains("has no test implementation")
    }
  }

  @Test func builtInDependenciesWithoutOverrideFailTheTest() async {
    let store = TestStore(initialState: Stamps()) { stamper() }
    // NB: Live values are random; only the failures about them matter here.
    store.exhaustivity = .off
    await withKnownIssue {
      await store.send(.create)
    } matching: { issue in
      issue.description.contains("@Dependency(\\.uuid) has no test implementation")
        || issue.description.contains("@Dependency(\\.date) has no test implementation")
    }
  }
  #else
  @Test func aDependencyWithoutOverrideUsesItsLiveValueInReleaseBuilds() async {
    let store = TestStore(initialState: Stamps()) { stamper() }
    store.exhaustivity = .off
    await store.send(.create)
    #expect(store.state.id != nil && store.state.createdAt != nil)
  }
  #endif

  @Test func storeDependenciesReachTheEffectsOfTheStore() async {
    let store = Store(initialState: Counter.State(count: 4)) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) from the store" }
    }
    await store.send(.factButtonTapped).finish()
    #expect(store.state.fact == "4 from the store")
  }
}
