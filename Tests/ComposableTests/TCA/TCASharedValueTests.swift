import Composable
import ConcurrencyExtras
import CustomDump
import Dependencies
import Foundation
import IdentifiedCollections
import Testing

extension SharedKey where Self == AppStorageKey<Bool>.Default {
  static var isOn: Self { Self[.appStorage("isOn"), default: false] }

  static func isActive(default keyDefault: @escaping @Sendable () -> Bool) -> Self {
    Self[.appStorage("isActive"), default: keyDefault()]
  }
}

extension SharedKey where Self == InMemoryKey<Int>.Default {
  static var count1: Self { Self[.inMemory("count"), default: 1] }
  static var count2: Self { Self[.inMemory("count"), default: 2] }
}

/// Compiles only if a `@Shared` property with a key that has a default needs no value.
struct StateWithOptionalSharedAndDefault {
  @Shared(.optionalValueWithDefault) var optionalValueWithDefault
}

extension SharedKey where Self == AppStorageKey<Bool?>.Default {
  fileprivate static var optionalValueWithDefault: Self { Self[.appStorage("optionalValueWithDefault"), default: nil] }
}

extension LockIsolated<Bool> {
  /// Records that it was called, and returns `value`: a default that tells whether it was computed.
  func touched<Result>(returning value: Result) -> Result {
    setValue(true)
    return value
  }
}

/// Runs `body` with a registry and an in-memory file storage of its own, as a test store would.
func withFreshSharedValues<R>(_ body: () throws -> R) rethrows -> R {
  try withDependencies {
    $0.sharedRegistry = SharedRegistry()
    $0.defaultFileStorage = .inMemory()
  } operation: {
    try body()
  }
}

/// `Shared` values outside a store, ported from TCA's `SharedTests` and `SharedReaderTests` and
/// swift-sharing's `SharedTests`, `DefaultTests` and `SharedChangeTrackerTests`.
struct TCASharedValueTests {
  @Test func thePropertyReadsAndTheProjectionWrites() {
    @Shared(value: 0) var count
    $count.withLock { $0 += 1 }
    #expect(count == 1)
    let copy = $count
    copy.withLock { $0 += 1 }
    #expect(count == 2)
  }

  @Test func aPropertyWithAKeyAndADefault() {
    withFreshSharedValues {
      @Shared(.inMemory("count")) var count = 0
      @Shared(.inMemory("count")) var other = 10
      $count.withLock { $0 += 1 }
      #expect(other == 1)
    }
  }

  @Test func assigningTheProjectionPointsThePropertyAtAnotherValue() {
    @Shared(value: 0) var count
    let other = Shared(value: 5)
    $count = other
    other.withLock { $0 += 1 }
    #expect(count == 6)
  }

  @Test func aDumpShowsTheValueUnderThePropertysStorageName() {
    @Shared(value: SharedProfile(stats: Shared(value: SharedStats()))) var profile
    #expect(
      String(customDumping: profile) == """
        SharedProfile(
          _stats: SharedStats(count: 0)
        )
        """
    )
    #expect(String(customDumping: $profile.stats.count) == "0")
  }

  // MARK: - Change tracking

  @Test func aTrackedChangeIsComparedWithItsValueBeforeInsideAssert() {
    @Shared(value: 0) var count
    withSharedChangeTracking { tracker in
      $count.withLock { $0 += 1 }
      tracker.assert {
        #expect($count != $count)
        #expect(count == 0)
        $count.withLock { $0 = 1 }
        #expect($count == $count)
      }
      #expect($count == $count)
      #expect(tracker.hasChanges)
    }
    #expect(count == 1)
  }

  @Test func anIndependentSharedValueIsNotTracked() {
    @Shared(value: 0) var count1
    @Shared(value: 0) var count2
    #expect($count1 == $count2)
    withSharedChangeTracking { tracker in
      $count1.withLock { $0 += 1 }
      tracker.assert {
        #expect($count1 != $count1)
        #expect($count1 == $count2)
        #expect($count2 == $count2)
        $count1.withLock { $0 = 1 }
        #expect($count1 == $count1)
        #expect($count1 != $count2)
      }
    }
  }

  @Test func twoFieldsOfOneValueAreTrackedTogether() {
    struct Settings: Equatable {
      var isOn = false
      var hasSeen = false
    }
    withFreshSharedValues {
      @Shared(.inMemory("settings")) var settings = Settings()
      #expect($settings.isOn == $settings.hasSeen)
      withSharedChangeTracking { tracker in
        $settings.isOn.withLock { $0.toggle() }
        #expect($settings.isOn != $settings.hasSeen)
        tracker.assert {
          #expect(settings.isOn == settings.hasSeen)
          #expect($settings.isOn == $settings.hasSeen)
          $settings.hasSeen.withLock { $0.toggle() }
          #expect($settings.isOn != $settings.hasSeen)
          #expect($settings.hasSeen != $settings.isOn)
        }
      }
    }
  }

  @Test func anAssertionBeyondTheChangeIsStillEqualToItself() {
    let count = Shared(value: 0)
    withSharedChangeTracking { tracker in
      count.withLock { $0 += 1 }
      tracker.assert {
        count.withLock { $0 += 1 }
        #expect(count == count)
      }
      #expect(count == count)
    }
    #expect(count.wrappedValue == 1)
  }

  @Test func resettingForgetsTheChanges() {
    let count = Shared(value: 0)
    withSharedChangeTracking { tracker in
      count.withLock { $0 += 1 }
      tracker.reset()
      #expect(!tracker.hasChanges)
      tracker.assert { #expect(count == count) }
    }
  }

  // MARK: - Keys with defaults

  @Test func aKeysDefaultIsUsedWhenNothingIsStored() {
    withFreshSharedValues {
      @Shared(.isOn) var isOn
      #expect(isOn == false)
    }
  }

  @Test func aValueGivenWithTheKeyOverridesItsDefault() {
    withFreshSharedValues {
      @Shared(.isOn) var isOn = true
      #expect(isOn == true)
    }
  }

  @Test func theFirstToLoadDecidesTheDefaultAndAllShareIt() {
    withFreshSharedValues {
      @Shared(.isOn) var isOn1
      @Shared(.isOn) var isOn2 = true
      @Shared(.appStorage("isOn")) var isOn3 = true
      #expect([isOn1, isOn2, isOn3] == [false, false, false])
      $isOn2.withLock { $0 = true }
      #expect([isOn1, isOn2, isOn3] == [true, true, true])
      $isOn3.withLock { $0 = false }
      #expect([isOn1, isOn2, isOn3] == [false, false, false])
    }
  }

  @Test func aKeysDefaultIsComputedOnlyWhenUsed() {
    withFreshSharedValues {
      let accessed = LockIsolated(false)
      let logDefault: @Sendable () -> Bool = {
        accessed.setValue(true)
        return true
      }
      @Shared(.isActive(default: logDefault)) var isActive = false
      #expect(isActive == false)
      #expect(accessed.value == false)
    }
    withFreshSharedValues {
      let accessed = LockIsolated(false)
      @Shared(.isActive(default: { accessed.setValue(true); return true })) var isActive
      #expect(isActive == true)
      #expect(accessed.value == true)
    }
  }

  @Test func aLaterInitialValueIsNeverComputed() {
    withFreshSharedValues {
      let accessed = LockIsolated(false)
      let isOn1 = Shared(wrappedValue: false, .isOn)
      #expect(isOn1.wrappedValue == false)
      let isOn2 = Shared(wrappedValue: accessed.touched(returning: true), .isOn)
      #expect(isOn2.wrappedValue == false)
      #expect(accessed.value == false)
    }
  }

  @Test func aWriterAndAReaderWithDifferentDefaultsShareTheFirstOne() {
    withFreshSharedValues {
      @Shared(.count1) var count
      @SharedReader(.count2) var countReader
      $count.withLock { $0 += 1 }
      #expect(count == 2)
      #expect(countReader == 2)
    }
  }

  @Test func anOptionalWithADefaultCanBeSetToNil() {
    withFreshSharedValues {
      @Shared(.optionalValueWithDefault) var value
      #expect(value == nil)
      $value.withLock { $0 = true }
      #expect(value == true)
      $value.withLock { $0 = nil }
      #expect(value == nil)
    }
  }

  // MARK: - Readers

  @Test func aReaderSeesTheWritersChanges() {
    @Shared(value: 0) var count
    let countReader = $count.reader
    $count.withLock { $0 += 1 }
    #expect(count == 1)
    #expect(countReader.wrappedValue == 1)
  }

  @Test func readersWithAKeySeeWritersOfTheSameKey() {
    withFreshSharedValues {
      @Shared(.appStorage("isOn")) var isOn = false
      @SharedReader(.isOn) var isOn1
      @SharedReader(.isOn) var isOn2 = true
      @SharedReader(.appStorage("isOn")) var isOn3 = true
      #expect([isOn1, isOn2, isOn3] == [false, false, false])
      $isOn.withLock { $0 = true }
      #expect([isOn1, isOn2, isOn3] == [true, true, true])
    }
  }

  @Test func aReaderOfAReadOnlyMember() {
    @Shared(value: [1, 2, 3]) var numbers
    let count: SharedReader<Int> = $numbers.count
    $numbers.withLock { $0.append(4) }
    #expect(count.wrappedValue == 4)
  }

  // MARK: - Equality

  @Test func sharedValuesOfDifferentKeysAreEqualByValue() {
    withFreshSharedValues {
      let count = Shared(value: 0)
      @Shared(.appStorage("count")) var appStorageCount = 0
      @Shared(.fileStorage(URL(fileURLWithPath: "/tmp/count.json"))) var fileStorageCount = 0
      @Shared(.inMemory("count")) var inMemoryCount = 0
      #expect(count == $appStorageCount)
      #expect($appStorageCount == $fileStorageCount)
      #expect($fileStorageCount == $inMemoryCount)
      #expect($inMemoryCount == count)
    }
  }

  // MARK: - Elements

  @Test func elementsFollowTheirElementByID() {
    struct User: Equatable, Identifiable {
      let id: Int
      var name = ""
    }
    let users = Shared(value: [User(id: 1), User(id: 2)] as IdentifiedArrayOf<User>)
    let elements = users.elements
    let (first, second) = (elements[0], elements[1])
    first.withLock { $0.name = "Blob" }
    second.withLock { $0.name = "Blob Jr" }
    expectNoDifference(users.wrappedValue, [User(id: 1, name: "Blob"), User(id: 2, name: "Blob Jr")])

    users.withLock { $0.swapAt(0, 1) }
    #expect(first.wrappedValue == User(id: 1, name: "Blob"))
    first.withLock { $0.name += ", M.D." }
    second.withLock { $0.name += ", Esq." }
    expectNoDifference(
      users.wrappedValue, [User(id: 2, name: "Blob Jr, Esq."), User(id: 1, name: "Blob, M.D.")]
    )
    #expect(first.id == 1)
  }

  @Test func readersElementsFollowTheirElementByID() {
    struct Tag: Equatable, Identifiable {
      let id: String
      var uses = 0
    }
    let tags = Shared(value: [Tag(id: "a"), Tag(id: "b")] as IdentifiedArrayOf<Tag>)
    let readers = SharedReader(tags).elements
    tags.withLock {
      $0.swapAt(0, 1)
      $0[id: "a"]?.uses = 3
    }
    #expect(readers.map(\.wrappedValue) == [Tag(id: "a", uses: 3), Tag(id: "b")])
  }
}
