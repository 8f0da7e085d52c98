import Foundation
import Testing

/// `examples/dogs` end to end through `lunar run … --json`, offline (the default): its
/// `dogsClient` (Lua, over `deps.http`) answers from dog.ceo's recorded answers in
/// `examples/dogs/fixtures/http/`.
@Suite struct DogsExampleTests {
  static let fixtures = Lunar.packageRoot.appendingPathComponent("examples/dogs/fixtures/http")

  static let appear = #"{ type = "dogs", action = { type = "onAppear" } }"#
  static func tap(_ breed: String) -> String { #"{ type = "dogs", action = { type = "breedTapped", breed = "\#(breed)" } }"# }

  /// The `message` of dog.ceo's recorded answer whose file name starts with `prefix`.
  static func recordedMessage(_ prefix: String) throws -> Any {
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: fixtures.path).first { $0.hasPrefix(prefix) })
    let recording = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(name)))
    let body = try #require(((recording as? [String: Any])?["response"] as? [String: Any])?["body"] as? String)
    let answer = try JSONSerialization.jsonObject(with: Data(body.utf8))
    return try #require((answer as? [String: Any])?["message"])
  }

  static func recordedBreeds() throws -> [String: [String]] {
    try #require(try recordedMessage("GET-dog.ceo-api-breeds-list-all-") as? [String: [String]])
  }

  static func recordedImage(_ breed: String) throws -> String {
    try #require(try recordedMessage("GET-dog.ceo-api-breed-\(breed)-images-random-") as? String)
  }

  /// The `breeds` of the `breedsLoaded` action in `output`, as `name: subBreeds` in order.
  static func loadedBreeds(_ output: Lunar.Output) -> [(String, [String])]? {
    let loaded = output.events.named("action").first { event in
      ((event["action"] as? [String: Any])?["action"] as? [String: Any])?["type"] as? String == "breedsLoaded"
    }
    let breeds = ((loaded?["action"] as? [String: Any])?["action"] as? [String: Any])?["breeds"] as? [[String: Any]]
    return breeds?.map { ($0["name"] as? String ?? "?", $0["subBreeds"] as? [String] ?? []) }
  }

  /// The screens shown, in order.
  static func views(_ output: Lunar.Output) -> [String] {
    output.events.named("state").compactMap { $0.string("view") }
  }

  @Test func offlineTheListIsDogCeosRecordedBreedsSortedByName() async throws {
    let output = try await Lunar.run(["run", "examples/dogs", "--view"], input: Self.appear + "\n")

    #expect(output.status == 0, "\(output)")
    let breeds = try #require(Self.loadedBreeds(output), "\(output)")
    let recorded = try Self.recordedBreeds()
    #expect(breeds.map(\.0) == recorded.keys.sorted())
    #expect(breeds.first { $0.0 == "hound" }?.1 == recorded["hound"])
    #expect(breeds.count == 37)
  }

  @Test func offlineTheAppFiltersOpensABreedWithItsRecordedPictureAndGoesBack() async throws {
    let input = [
      Self.appear, ":wait",
      #"{ type = "dogs", action = { type = "queryChanged", query = "terr" } }"#,
      Self.tap("terrier"), ":wait",
      #"{ type = "detail", action = { type = "closeTapped" } }"#,
    ].joined(separator: "\n") + "\n"
    let output = try await Lunar.run(["run", "examples/dogs", "--view"], input: input)

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("error").isEmpty, "\(output)")
    let views = Self.views(output)
    #expect(views.contains("Dogs\n  filter: terr▏\n    Terrier ›"), "\(views)")
    let picture = try Self.recordedImage("terrier")
    #expect(views.contains { $0.hasPrefix("‹ Dogs\nTerrier\n  image: \(picture)\n  sub-breeds:\n") }, "\(views)")
    #expect(views.last == "Dogs\n  filter: terr▏\n    Terrier ›", "\(views)")
  }

  @Test func offlineABreedsRandomPictureIsTheSameEveryRun() async throws {
    let input = [Self.appear, ":wait", Self.tap("hound"), ":wait"].joined(separator: "\n") + "\n"
    let picture = try Self.recordedImage("hound")
    for _ in 1...2 {
      let output = try await Lunar.run(["run", "examples/dogs", "--view"], input: input)
      #expect(output.status == 0, "\(output)")
      #expect(Self.views(output).last?.hasPrefix("‹ Dogs\nHound\n  image: \(picture)\n  sub-breeds:\n    • Afghan") == true, "\(output)")
    }
  }
}
