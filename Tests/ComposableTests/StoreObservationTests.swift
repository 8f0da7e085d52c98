import CasePathsCore
import Composable
import Observation
import Testing

/// A store observed with Swift's Observation: a read tracks the field it read, and only an action
/// that changes that field tells the observer.
@MainActor
struct StoreObservationTests {
  struct Profile: Reducer {
    struct Address: Equatable {
      var city = "Paris"
      var street = "Rue de Rivoli"
    }

    struct State: Equatable {
      var name = "Ada"
      var address = Address()
    }

    enum Action: Equatable, Sendable {
      case rename(String), move(city: String), renumber(street: String)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .rename(name): state.name = name
      case let .move(city): state.address.city = city
      case let .renumber(street): state.address.street = street
      }
      return .none
    }
  }

  struct Screen: Reducer {
    struct State: Equatable {
      var count = 0
      var isLoading = false
      var profile = Profile.State()
    }

    enum Action: Equatable, Sendable, CasePathable {
      case increment, toggleLoading, resetCount
      case profile(Profile.Action)

      struct AllCasePaths {
        var profile: AnyCasePath<Action, Profile.Action> {
          AnyCasePath(embed: Action.profile) {
            guard case let .profile(action) = $0 else { return nil }
            return action
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.profile, action: \.profile) { Profile() }
      Reduce { state, action in
        switch action {
        case .increment: state.count += 1
        case .toggleLoading: state.isLoading.toggle()
        case .resetCount: state.count = 0
        case .profile: break
        }
        return .none
      }
    }
  }

  /// Counts the calls of `onChange` for what `read` tracks.
  final class Changes: @unchecked Sendable {
    var count = 0
  }

  func track(_ read: @escaping () -> Void) -> Changes {
    let changes = Changes()
    withObservationTracking(read) { changes.count += 1 }
    return changes
  }

  @Test func anActionThatChangesAnotherFieldDoesNotTellTheObserverOfAField() {
    let store = Store(initialState: Screen.State()) { Screen() }
    let changes = track { _ = store.count }
    store.send(.toggleLoading)
    store.send(.profile(.rename("Grace")))
    #expect(changes.count == 0)
  }

  @Test func anActionThatChangesTheFieldTellsTheObserverOnce() {
    let store = Store(initialState: Screen.State()) { Screen() }
    let changes = track { _ = store.count }
    store.send(.increment)
    #expect(changes.count == 1)
    store.send(.increment)
    #expect(changes.count == 1, "Observation's tracking ends at the first change")
    #expect(store.count == 2)
  }

  @Test func anActionThatWritesTheSameValueDoesNotTellTheObserver() {
    let store = Store(initialState: Screen.State()) { Screen() }
    let changes = track { _ = store.count }
    store.send(.resetCount)
    #expect(changes.count == 0)
  }

  @Test func readingAgainAfterAChangeTracksTheFieldAgain() {
    let store = Store(initialState: Screen.State()) { Screen() }
    let first = track { _ = store.count }
    store.send(.increment)
    let second = track { #expect(store.count == 1) }
    store.send(.toggleLoading)
    #expect(second.count == 0)
    store.send(.increment)
    #expect(first.count == 1)
    #expect(second.count == 1)
  }

  @Test func aNestedKeyPathTracksItsEndOnly() {
    let store = Store(initialState: Screen.State()) { Screen() }
    let city = track { _ = store[dynamicMember: \.profile.address.city] }
    let profile = track { _ = store.profile }
    store.send(.profile(.renumber(street: "Rue Oberkampf")))
    #expect(city.count == 0)
    #expect(profile.count == 1)
    let again = track { _ = store[dynamicMember: \.profile.address.city] }
    store.send(.profile(.move(city: "Lyon")))
    #expect(again.count == 1)
  }

  @Test func readingTheWholeStateIsToldOfTheNextAction() {
    let store = Store(initialState: Screen.State()) { Screen() }
    let state = track { _ = store.state }
    store.send(.toggleLoading)
    #expect(state.count == 1)
  }

  @Test func readingThroughWithStateTracksNothing() {
    let store = Store(initialState: Screen.State()) { Screen() }
    let withState = track { _ = store.withState { $0.isLoading } }
    store.send(.toggleLoading)
    #expect(withState.count == 0)
  }

  @Test func aScopedStoreTracksTheChildsFields() {
    let store = Store(initialState: Screen.State()) { Screen() }
    let profileStore = store.scope(state: \.profile, action: \.profile)
    let name = track { _ = profileStore.name }
    profileStore.send(.move(city: "Lyon"))
    store.send(.increment)
    #expect(name.count == 0)
    profileStore.send(.rename("Grace"))
    #expect(name.count == 1)
    #expect(profileStore.name == "Grace")
  }

  @Test func anOptionalScopedStoreTracksTheChildsFields() {
    struct Parent: Reducer {
      struct State: Equatable {
        var profile: Profile.State? = Profile.State()
        var count = 0
      }

      enum Action: Equatable, Sendable, CasePathable {
        case profile(Profile.Action), increment

        struct AllCasePaths {
          var profile: AnyCasePath<Action, Profile.Action> {
            AnyCasePath(embed: Action.profile) {
              guard case let .profile(action) = $0 else { return nil }
              return action
            }
          }
        }
        static var allCasePaths: AllCasePaths { AllCasePaths() }
      }

      var body: some ReducerOf<Self> {
        Reduce { state, action in
          if case .increment = action { state.count += 1 }
          return .none
        }
        .ifLet(\.profile, action: \.profile) { Profile() }
      }
    }
    let store = Store(initialState: Parent.State()) { Parent() }
    let profileStore = store.scope(state: \.profile, action: \.profile)!
    let city = track { _ = profileStore[dynamicMember: \.address.city] }
    store.send(.increment)
    profileStore.send(.rename("Grace"))
    #expect(city.count == 0)
    profileStore.send(.move(city: "Lyon"))
    #expect(city.count == 1)
  }

  @Test func aNonEquatableFieldTellsItsObserverAfterAnyAction() {
    struct Clock: Reducer {
      struct Tick { var at = 0 }
      struct State { var tick = Tick(); var other = 0 }
      enum Action: Sendable { case other }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        state.other += 1
        return .none
      }
    }
    let store = Store(initialState: Clock.State()) { Clock() }
    let tick = track { _ = store.tick }
    store.send(.other)
    #expect(tick.count == 1, "a value that cannot be compared may have changed")
  }

  @Test func anObserverOfAStoreThatIsGoneIsNeverTold() {
    var store: StoreOf<Screen>? = Store(initialState: Screen.State()) { Screen() }
    weak let released = store
    let changes = track { _ = store!.count }
    store = nil
    #expect(released == nil, "watching a field does not keep the store alive")
    #expect(changes.count == 0)
  }
}
