import CasePathsCore
import Composable
import Dependencies
import Foundation
import IdentifiedCollections

/// Where the todos example keeps its list: the example dependency of the todos feature.
struct TodoStorageClient: Sendable {
  var save: @Sendable (_ todos: [Todo.State]) async throws -> Void
}

extension TodoStorageClient: DependencyKey {
  static let liveValue = TodoStorageClient { _ in }
}

extension DependencyValues {
  var todoStorage: TodoStorageClient {
    get { self[TodoStorageClient.self] }
    set { self[TodoStorageClient.self] = newValue }
  }
}

/// One row of the todos list.
struct Todo: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var title = ""
    var isComplete = false
  }

  enum Action: Equatable, Sendable {
    case titleChanged(String)
    case toggleCompleted
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .titleChanged(title):
      state.title = title
      return .none
    case .toggleCompleted:
      state.isComplete.toggle()
      return .none
    }
  }
}

/// A todos list: rows through `forEach`, a filter, and a save that waits for a second of quiet.
struct Todos: Reducer {
  enum Filter: Equatable, Sendable {
    case all, active, completed
  }

  struct State: Equatable {
    var todos: IdentifiedArrayOf<Todo.State> = []
    var filter = Filter.all
    var saveError: String?

    /// The rows the current filter shows.
    var filteredTodos: IdentifiedArrayOf<Todo.State> {
      switch filter {
      case .all: todos
      case .active: todos.filter { !$0.isComplete }
      case .completed: todos.filter(\.isComplete)
      }
    }
  }

  enum Action: Equatable, Sendable, CasePathable {
    case addTodoTapped
    case clearCompletedTapped
    case deleteTapped(id: UUID)
    case filterChanged(Filter)
    case saveFailed(String)
    case todos(IdentifiedActionOf<Todo>)

    struct AllCasePaths {
      var todos: AnyCasePath<Action, IdentifiedActionOf<Todo>> {
        AnyCasePath(embed: Action.todos) {
          guard case let .todos(action) = $0 else { return nil }
          return action
        }
      }
      var saveFailed: AnyCasePath<Action, String> {
        AnyCasePath(embed: Action.saveFailed) {
          guard case let .saveFailed(message) = $0 else { return nil }
          return message
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID { case save }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.todoStorage) var storage
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTodoTapped:
        state.todos.insert(Todo.State(id: uuid()), at: 0)
        return .none
      case .clearCompletedTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none
      case let .deleteTapped(id):
        state.todos.remove(id: id)
        return .none
      case let .filterChanged(filter):
        state.filter = filter
        return .none
      case let .saveFailed(message):
        state.saveError = message
        return .none
      case .todos:
        return .none
      }
    }
    .forEach(\.todos, action: \.todos) { Todo() }
    .onChange(of: \.todos) { _, todos in
      Reduce { state, _ in
        state.saveError = nil
        return .run { [storage] _ in
          try await storage.save(Array(todos))
        } catch: { error, send in
          await send(.saveFailed("\(error)"))
        }
        .debounce(id: CancelID.save, for: .seconds(1), clock: clock)
      }
    }
  }
}
