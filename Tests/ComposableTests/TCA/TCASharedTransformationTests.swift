import Composable
import Dependencies
import IdentifiedCollections
import Testing

/// Deriving shared values from shared values, ported from swift-sharing's `SharedTests`.
struct TCASharedTransformationTests {
  @Test func aCopyOfTheProjectionIsTheSameValue() {
    @Shared(value: 0) var count
    $count.withLock { $0 += 1 }
    #expect(count == 1)
    @Shared var copy: Int
    _copy = $count
    $copy.withLock { $0 += 1 }
    #expect(count == 2)
    #expect(copy == 2)
  }

  @Test func assigningTheProjectionLeavesEarlierCopiesAlone() {
    // swift-sharing points every copy at the new value; here only the property changes.
    withFreshSharedValues {
      @Shared(.inMemory("count")) var count = 0
      let copy = $count
      $count = Shared(wrappedValue: 42, .inMemory("anotherCount"))
      #expect(count == 42)
      #expect(copy.wrappedValue == 0)
    }
  }

  @Test func nestedKeyedValuesLoad() {
    struct C: Equatable {}
    struct B {
      @Shared(.inMemory("c")) var c = C()
    }
    struct A {
      @Shared(.inMemory("b")) var b = B()
    }
    withFreshSharedValues {
      let a = A()
      #expect(a.b.c == C())
    }
  }

  @Test func aFieldOfASharedValueReadsAndWritesThroughIt() {
    struct User {
      var name = ""
    }
    @Shared(value: User(name: "Blob")) var user
    @Shared var name: String
    _name = $user.name
    $name.withLock { $0 += ", Jr." }
    #expect(user.name == "Blob, Jr.")
    $user.name.withLock { $0 += " III" }
    #expect(name == "Blob, Jr. III")
  }

  @Test func aReadOnlyMemberIsAReaderThatFollowsItsValue() {
    struct User {
      let id: Int
    }
    @Shared(value: User(id: 1)) var user
    @SharedReader var id: Int
    _id = $user.id
    #expect(id == 1)
    $user.withLock { $0 = User(id: 42) }
    #expect(id == 42)
    $user = Shared(value: User(id: 1729))
    #expect(id == 42)
  }

  @Test func anUnwrappedOptionalFollowsItsValueAndKeepsItsLastOneWhileNil() throws {
    @Shared(value: nil) var wrappedCount: Int?
    #expect(Shared($wrappedCount) == nil)

    $wrappedCount.withLock { $0 = 0 }
    @Shared var count: Int
    _count = try #require(Shared($wrappedCount))
    #expect(count == 0)

    $count.withLock { $0 += 1 }
    #expect(wrappedCount == 1)
    $wrappedCount.withLock { $0? += 1 }
    #expect(count == 2)

    $wrappedCount.withLock { $0? += 1 }
    $wrappedCount.withLock { $0 = nil }
    #expect(count == 2)

    $wrappedCount.withLock { $0 = 4 }
    #expect(count == 4)
  }

  @Test func anArrayOfSharedElementsOutlivesARemovedElement() {
    @Shared(value: IdentifiedArray(uniqueElements: [1, 2, 3], id: \.self)) var counts
    let sharedCounts = Array($counts)
    @Shared var first: Int
    _first = sharedCounts[0]
    @Shared var second: Int
    _second = sharedCounts[1]
    @Shared var third: Int
    _third = sharedCounts[2]
    #expect([first, second, third] == [1, 2, 3])

    $counts.withLock { _ = $0.removeLast() }
    #expect(counts == IdentifiedArray(uniqueElements: [1, 2], id: \.self))
    #expect(third == 3)

    $third.withLock { $0 += 1 }
    #expect(third == 4)
    #expect(counts == IdentifiedArray(uniqueElements: [1, 2], id: \.self))
  }

  @Test func aTaskChangesTheValueThroughACapturedProjection() async {
    @Shared(value: 0) var count
    await Task { [$count] in $count.withLock { $0 = 1 } }.value
    #expect(count == 1)
  }

  @Test func aReaderOfAProjection() {
    @Shared(value: 0) var count
    @SharedReader var readOnlyCount: Int
    _readOnlyCount = SharedReader($count)
    $count.withLock { $0 = 1 }
    #expect(readOnlyCount == 1)
  }
}
