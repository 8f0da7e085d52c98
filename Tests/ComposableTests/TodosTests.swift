import Clocks
import Composable
import ComposableTesting
import ConcurrencyExtras
import Dependencies
import Foundation
import IdentifiedCollections
import Testing

/// The todos example end to end: rows, filter, and the debounced save.
@MainActor
struct TodosTests {
  let clock = TestClock()
  let saved = LockIsolated<[[Todo.State]]>([])

  func makeStore(_ todos: [Todo.State] = []) -> TestStoreOf<Todos> {
    TestStore(initialState: Todos.State(todos: IdentifiedArray(uniqueElements: todos))) {
      Todos()
    } withDependencies: { [clock, saved] in
      $0.continuousClock = clock
      $0.uuid = .incrementing
      $0.todoStorage.save = { todos in saved.withValue { $0.append(todos) } }
    }
  }

  let milk = Todo.State(id: UUID(10), title: "Milk")
  let eggs = Todo.State(id: UUID(11), title: "Eggs", isComplete: true)

  @Test func addingATodoInsertsAnEmptyRowAtTheTop() async {
    let store = makeStore([milk])
    await store.send(.addTodoTapped) {
      $0.todos.insert(Todo.State(id: UUID(0)), at: 0)
    }
    await clock.advance(by: .seconds(1))
    #expect(saved.value == [[Todo.State(id: UUID(0)), milk]])
  }

  @Test func togglingATodoCompletesIt() async {
    let store = makeStore([milk])
    await store.send(.todos(.element(id: milk.id, action: .toggleCompleted))) {
      $0.todos[id: milk.id]?.isComplete = true
    }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func editingATitleChangesTheRow() async {
    let store = makeStore([milk])
    await store.send(.todos(.element(id: milk.id, action: .titleChanged("Oat milk")))) {
      $0.todos[id: milk.id]?.title = "Oat milk"
    }
    await clock.advance(by: .seconds(1))
    #expect(saved.value.last?.first?.title == "Oat milk")
  }

  @Test func deletingATodoRemovesIt() async {
    let store = makeStore([milk, eggs])
    await store.send(.deleteTapped(id: milk.id)) { $0.todos = [self.eggs] }
    await clock.advance(by: .seconds(1))
    #expect(saved.value == [[eggs]])
  }

  @Test func clearingCompletedTodosKeepsTheActiveOnes() async {
    let store = makeStore([milk, eggs])
    await store.send(.clearCompletedTapped) { $0.todos = [self.milk] }
    await clock.advance(by: .seconds(1))
    #expect(saved.value == [[milk]])
  }

  @Test func theFilterShowsMatchingTodosWithoutSaving() async {
    let store = makeStore([milk, eggs])
    await store.send(.filterChanged(.completed)) { $0.filter = .completed }
    #expect(store.state.filteredTodos == [eggs])
    await store.send(.filterChanged(.active)) { $0.filter = .active }
    #expect(store.state.filteredTodos == [milk])
    await clock.advance(by: .seconds(1))
    #expect(saved.value.isEmpty)
  }

  @Test func changesAreSavedOnceAfterASecondOfQuiet() async {
    let store = makeStore([milk])
    await store.send(.todos(.element(id: milk.id, action: .toggleCompleted))) {
      $0.todos[id: milk.id]?.isComplete = true
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(.todos(.element(id: milk.id, action: .titleChanged("Oat milk")))) {
      $0.todos[id: milk.id]?.title = "Oat milk"
    }
    await clock.advance(by: .milliseconds(500))
    #expect(saved.value.isEmpty)
    await clock.advance(by: .milliseconds(500))
    #expect(saved.value == [[Todo.State(id: milk.id, title: "Oat milk", isComplete: true)]])
    await store.finish()
  }

  @Test func aFailedSaveIsShownAndClearedByTheNextChange() async {
    struct DiskFull: Error, CustomStringConvertible {
      var description: String { "The disk is full." }
    }
    let store = makeStore([milk])
    store.dependencies.todoStorage.save = { _ in throw DiskFull() }
    await store.send(.todos(.element(id: milk.id, action: .toggleCompleted))) {
      $0.todos[id: milk.id]?.isComplete = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.saveFailed, "The disk is full.") { $0.saveError = "The disk is full." }
    store.dependencies.todoStorage.save = { _ in }
    await store.send(.todos(.element(id: milk.id, action: .toggleCompleted))) {
      $0.todos[id: milk.id]?.isComplete = false
      $0.saveError = nil
    }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func aSessionCheckedNonExhaustively() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.addTodoTapped)
    await store.send(.addTodoTapped)
    await store.send(.todos(.element(id: UUID(1), action: .titleChanged("Bread"))))
    await store.send(.todos(.element(id: UUID(0), action: .toggleCompleted)))
    await store.send(.clearCompletedTapped) {
      $0.todos = [Todo.State(id: UUID(1), title: "Bread")]
    }
    await clock.advance(by: .seconds(1))
    #expect(saved.value == [[Todo.State(id: UUID(1), title: "Bread")]])
  }
}
