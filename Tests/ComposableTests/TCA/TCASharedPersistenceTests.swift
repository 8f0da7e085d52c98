import Composable
import ComposableTesting
import CustomDump
import Dependencies
import Foundation
import Testing

/// Persisted shared values and the reducer operators that watch shared state, ported from
/// swift-sharing's `FileStorageTests` and `AppStorageTests`, and TCA's `OnChangeReducerTests` and
/// `DebugTests`.
struct TCASharedPersistenceTests {
  private struct User: Codable, Equatable, Sendable {
    var id: Int
    var name: String
  }

  private static let userURL = URL(fileURLWithPath: "/tmp/user.json")

  @Test func theSameFileInTwoInMemoryStoragesIsTwoValues() {
    let registry = SharedRegistry()
    let shared1 = withDependencies {
      $0.sharedRegistry = registry
      $0.defaultFileStorage = .inMemory()
    } operation: {
      Shared(wrappedValue: User(id: 1, name: "Blob"), .fileStorage(Self.userURL))
    }
    let shared2 = withDependencies {
      $0.sharedRegistry = registry
      $0.defaultFileStorage = .inMemory()
    } operation: {
      Shared(wrappedValue: User(id: 1, name: "Blob"), .fileStorage(Self.userURL))
    }
    shared1.withLock { $0.name = "Blob Jr" }
    #expect(shared1.wrappedValue.name == "Blob Jr")
    #expect(shared2.wrappedValue.name == "Blob")
    shared2.withLock { $0.name = "Blob Sr" }
    #expect(shared1.wrappedValue.name == "Blob Jr")
    #expect(shared2.wrappedValue.name == "Blob Sr")
  }

  @Test func theSameFileInOneStorageIsOneValue() {
    withFreshSharedValues {
      @Shared(.fileStorage(Self.userURL)) var user1 = User(id: 1, name: "Blob")
      @Shared(.fileStorage(Self.userURL)) var user2 = User(id: 2, name: "Other")
      $user1.withLock { $0.name = "Blob Jr" }
      #expect(user2 == User(id: 1, name: "Blob Jr"))
    }
  }

  @Test func anInMemoryKeyIsOneValueWhateverTheFileStorage() {
    let registry = SharedRegistry()
    let counts = [FileStorage.inMemory(), .inMemory()].map { storage in
      withDependencies {
        $0.sharedRegistry = registry
        $0.defaultFileStorage = storage
      } operation: {
        Shared(wrappedValue: 0, .inMemory("count"))
      }
    }
    counts[0].withLock { $0 = 7 }
    #expect(counts[1].wrappedValue == 7)
  }

  @Test func anAppStorageDefaultIsWrittenOnFirstLoad() throws {
    let storage = FileStorage.inMemory()
    let url = URL(fileURLWithPath: "/tmp/app-storage.json")
    try withDependencies {
      $0.sharedRegistry = SharedRegistry()
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.appStorage("int", url: url)) var int = 42
      @Shared(.appStorage("string", url: url)) var string = "Blob"
      let stored = try #require(try storage.load(url))
      let entries = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
      #expect(entries["int"] as? Int == 42)
      #expect(entries["string"] as? String == "Blob")
      #expect(int == 42 && string == "Blob")
    }
  }

  @Test func aStoredAppStorageValueIsNotReplacedByTheDefault() throws {
    let url = URL(fileURLWithPath: "/tmp/app-storage.json")
    let storage = FileStorage.inMemory([url.path: Data(#"{"int":1729}"#.utf8)])
    withDependencies {
      $0.sharedRegistry = SharedRegistry()
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.appStorage("int", url: url)) var int = 42
      #expect(int == 1729)
    }
    #expect(try storage.load(url).map { String(decoding: $0, as: UTF8.self) } == #"{"int":1729}"#)
  }

  @Test func anAppStorageDefaultOutlivesItsValue() {
    let storage = FileStorage.inMemory()
    let url = URL(fileURLWithPath: "/tmp/app-storage.json")
    for _ in 1...2 {
      // NB: A registry of its own each time: the value is loaded again from the storage.
      withDependencies {
        $0.sharedRegistry = SharedRegistry()
        $0.defaultFileStorage = storage
      } operation: {
        @Shared(.appStorage("isOn", url: url)) var isOn = true
        #expect(isOn == true)
      }
    }
    withDependencies {
      $0.sharedRegistry = SharedRegistry()
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.appStorage("isOn", url: url)) var isOn = false
      #expect(isOn == true)
    }
  }

  // MARK: - onChange

  private struct Count: Codable, Equatable, Sendable {
    var value = 0
  }

  private struct Described: Reducer {
    struct State: Equatable {
      @Shared(.fileStorage(URL(fileURLWithPath: "/file.json"))) var count = Count()
      var plain = Shared(value: 0)
      var description = ""
    }

    enum Action: Equatable, Sendable {
      case incrementButtonTapped
      case incrementPlainTapped
    }

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .incrementButtonTapped:
          state.$count.withLock { $0.value += 1 }
        case .incrementPlainTapped:
          state.plain.withLock { $0 += 1 }
        }
        return .none
      }
      .onChange(of: \.count) { oldValue, newValue in
        Reduce { state, _ in
          state.description = "old: \(oldValue.value), new: \(newValue.value)"
          return .none
        }
      }
      .onChange(of: \.plain) { oldValue, newValue in
        Reduce { state, _ in
          state.description = "plain old: \(oldValue.wrappedValue), new: \(newValue.wrappedValue)"
          return .none
        }
      }
    }
  }

  @MainActor @Test func onChangeOfASharedPropertyRuns() async {
    let store = TestStore(initialState: Described.State()) { Described() }
    await store.send(.incrementButtonTapped) {
      $0.$count.withLock { $0.value = 1 }
      $0.description = "old: 0, new: 1"
    }
    await store.send(.incrementButtonTapped) {
      $0.$count.withLock { $0.value = 2 }
      $0.description = "old: 1, new: 2"
    }
  }

  @MainActor @Test func onChangeOfASharedFieldRunsWithItsValueBefore() async {
    let store = TestStore(initialState: Described.State()) { Described() }
    await store.send(.incrementPlainTapped) {
      $0.plain.withLock { $0 = 1 }
      $0.description = "plain old: 0, new: 1"
    }
  }

  // MARK: - _printChanges

  private struct Counted: Equatable {
    @Shared var count: Int
  }

  @MainActor @Test func printChangesShowsASharedChange() async {
    let logs = LockIsolated<[String]>([])
    let store = Store(initialState: Counted(count: Shared(value: 0))) {
      Reduce<Counted, Bool> { state, action in
        state.$count.withLock { $0 += action ? 1 : -1 }
        return .none
      }
      ._printChanges(.customDump { output in logs.withValue { $0.append(output) } })
    }
    store.send(true)
    expectNoDifference(
      logs.value,
      [
        """
        received action:
          true
          - TCASharedPersistenceTests.Counted(_count: 0)
          + TCASharedPersistenceTests.Counted(_count: 1)
        """
      ]
    )
  }

  @MainActor @Test func aCustomPrinterDiffsSharedChangesWithDescribeChange() async {
    let logs = LockIsolated<[String]>([])
    let printer = _ReducerPrinter<Counted, Bool> { _, oldState, newState in
      logs.withValue {
        $0.append(_ReducerPrinter<Counted, Bool>.describeChange(from: oldState, to: newState) ?? "(No state changes)")
      }
    }
    let store = Store(initialState: Counted(count: Shared(value: 0))) {
      Reduce<Counted, Bool> { state, _ in
        state.$count.withLock { $0 += 1 }
        return .none
      }
      ._printChanges(printer)
    }
    store.send(true)
    #expect(
      logs.value == [
        "- TCASharedPersistenceTests.Counted(_count: 0)\n+ TCASharedPersistenceTests.Counted(_count: 1)"
      ]
    )
  }

  @MainActor @Test func printChangesSaysWhenNothingChanged() async {
    let logs = LockIsolated<[String]>([])
    let store = Store(initialState: Counted(count: Shared(value: 0))) {
      Reduce<Counted, Bool> { _, _ in .none }._printChanges(.customDump { output in logs.withValue { $0.append(output) } })
    }
    store.send(true)
    #expect(logs.value == ["received action:\n  true\n  (No state changes)"])
  }
}
