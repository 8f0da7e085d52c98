import Composable
import Dependencies
import IdentifiedCollections
import Testing

private struct Settings: Equatable, Codable, Sendable {
  var theme = "light"
  var fontSize = 12
}

private struct SharedTodo: Equatable, Identifiable, Sendable {
  let id: Int
  var title: String
  var isComplete = false
}

struct SharedTests {
  @Test func copiesReferToTheSameValue() {
    let count = Shared(0)
    let copy = count
    copy.withLock { $0 += 1 }
    #expect(count.value == 1)
    #expect(count.wrappedValue == 1)
  }

  @Test func sharedValuesAreEqualByValue() {
    #expect(Shared(1) == Shared(1))
    #expect(Shared(1) != Shared(2))
  }

  @Test func aDerivedFieldReadsAndWritesThroughItsParent() {
    let settings = Shared(Settings())
    let theme: Shared<String> = settings.theme
    theme.withLock { $0 = "dark" }
    #expect(settings.value.theme == "dark")
    settings.withLock { $0.theme = "sepia" }
    #expect(theme.value == "sepia")
    #expect(settings.field(\.fontSize).value == 12)
  }

  @Test func anElementByIDReadsAndWritesThroughTheArray() throws {
    let todos = Shared<IdentifiedArrayOf<SharedTodo>>([SharedTodo(id: 1, title: "Milk"), SharedTodo(id: 2, title: "Eggs")])
    let todo = try #require(Shared(todos[id: 2]))
    todo.withLock { $0.isComplete = true }
    #expect(todos.value[id: 2]?.isComplete == true)
    #expect(Shared(todos[id: 3]) == nil)
  }

  @Test func anUnwrappedElementKeepsAValueOfItsOwnOnceRemoved() throws {
    let todos = Shared<IdentifiedArrayOf<SharedTodo>>([SharedTodo(id: 1, title: "Milk")])
    let todo = try #require(Shared(todos[id: 1]))
    todos.withLock { $0.removeAll() }
    #expect(todo.value.title == "Milk")
    todo.withLock { $0.title = "Bread" }
    #expect(todos.value.isEmpty)
    #expect(todo.value.title == "Bread")
  }

  @Test func concurrentWithLockIncrementsAreNotLost() async {
    let count = Shared(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<200 {
        group.addTask { count.withLock { $0 += 1 } }
      }
    }
    #expect(count.value == 200)
  }

  @Test func valuesYieldEachChange() async {
    let settings = Shared(Settings())
    let themes = settings.theme.values
    settings.theme.withLock { $0 = "dark" }
    settings.withLock { $0.theme = "sepia" }
    var seen: [String] = []
    for await theme in themes {
      seen.append(theme)
      if seen.count == 2 { break }
    }
    #expect(seen == ["dark", "sepia"])
  }

  @Test func inMemoryKeysShareOneValuePerRegistry() {
    withDependencies {
      $0.sharedRegistry = SharedRegistry()
    } operation: {
      let a = Shared(wrappedValue: 0, .inMemory("count"))
      let b = Shared(wrappedValue: 99, .inMemory("count"))
      #expect(b.value == 0)
      a.withLock { $0 = 5 }
      #expect(b.value == 5)
    }
    withDependencies {
      $0.sharedRegistry = SharedRegistry()
    } operation: {
      #expect(Shared(wrappedValue: 0, .inMemory("count")).value == 0)
    }
  }
}
