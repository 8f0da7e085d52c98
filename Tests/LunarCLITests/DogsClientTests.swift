import Foundation
import Testing

/// The `dogs` client of `examples/dogs`, through `lunar run … --json`: offline from the bundled
/// data, live against a small HTTP server on 127.0.0.1 that serves the same data in the layout of
/// dog.ceo's API — never the internet.
@Suite struct DogsClientTests {
  static let data = Lunar.packageRoot.appendingPathComponent("examples/dogs/data")

  static let appear = #"{ type = "dogs", action = { type = "onAppear" } }"#
  /// A list with one breed, typed in, then a tap on it: the breed's screen loads its picture.
  static let openHound = """
    { type = "dogs", action = { type = "breedsLoaded", breeds = { { name = "hound", subBreeds = { "afghan" } } } } }
    { type = "dogs", action = { type = "breedTapped", breed = "hound" } }

    """

  static func bundledBreeds() throws -> [String: [String]] {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("breeds.json")))
    return try #require((object as? [String: Any])?["message"] as? [String: [String]])
  }

  static func bundledImages(_ breed: String) throws -> [String] {
    let file = data.appendingPathComponent("images/\(breed).json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
    return try #require((object as? [String: Any])?["message"] as? [String])
  }

  /// The `breeds` of the `breedsLoaded` action in `output`, as `name: subBreeds` in order.
  static func loadedBreeds(_ output: Lunar.Output) -> [(String, [String])]? {
    let loaded = output.events.named("action").first { event in
      ((event["action"] as? [String: Any])?["action"] as? [String: Any])?["type"] as? String == "breedsLoaded"
    }
    let breeds = ((loaded?["action"] as? [String: Any])?["action"] as? [String: Any])?["breeds"] as? [[String: Any]]
    return breeds?.map { ($0["name"] as? String ?? "?", $0["subBreeds"] as? [String] ?? []) }
  }

  /// The `type` and the payload of the last action the breed's screen received.
  static func detailActions(_ output: Lunar.Output) -> [[String: Any]] {
    output.events.named("action").compactMap { event in
      guard let action = event["action"] as? [String: Any], action["type"] as? String == "detail" else { return nil }
      return action["action"] as? [String: Any]
    }
  }

  // MARK: - Offline

  @Test func offlineTheListIsTheBundledBreedsSortedByName() async throws {
    let output = try await Lunar.run(["run", "examples/dogs", "--json"], input: Self.appear + "\n")

    #expect(output.status == 0, "\(output)")
    let breeds = try #require(Self.loadedBreeds(output), "\(output)")
    let bundled = try Self.bundledBreeds()
    #expect(breeds.map(\.0) == bundled.keys.sorted())
    #expect(breeds.first { $0.0 == "hound" }?.1 == bundled["hound"])
    #expect(breeds.count >= 30)
  }

  @Test func offlineABreedsPicturesAreHandedOutInTurnTheSameEveryRun() async throws {
    let images = try Self.bundledImages("hound")
    let output = try await Lunar.run(["run", "examples/dogs", "--json"], input: Self.openHound)
    let again = try await Lunar.run(["run", "examples/dogs", "--json"], input: Self.openHound)

    #expect(output.status == 0, "\(output)")
    let loaded = Self.detailActions(output).first { $0["type"] as? String == "imageLoaded" }
    #expect(loaded?["url"] as? String == images[0], "\(output)")
    #expect(Self.detailActions(again).first { $0["type"] as? String == "imageLoaded" }?["url"] as? String == images[0])
    let screen = output.events.named("state").last?.string("view") ?? ""
    #expect(screen == "‹ Dogs\nHound\n  image: \(images[0])\n  sub-breeds:\n    • Afghan", "\(output)")
  }

  // MARK: - Live, against a local server

  @Test(.enabled(if: LocalDogAPI.available)) func liveTheListComesFromTheAPI() async throws {
    let server = try LocalDogAPI(data: Self.data)
    defer { server.stop() }
    let output = try await Self.runLive(Self.appear + "\n", api: server.url)

    #expect(output.status == 0, "\(output)")
    let breeds = try #require(Self.loadedBreeds(output), "\(output)")
    #expect(breeds.map(\.0) == (try Self.bundledBreeds()).keys.sorted())
    #expect(server.requests().contains("/api/breeds/list/all"), "\(server.requests())")
  }

  @Test(.enabled(if: LocalDogAPI.available)) func liveARandomPictureComesFromTheAPI() async throws {
    let server = try LocalDogAPI(data: Self.data)
    defer { server.stop() }
    let output = try await Self.runLive(Self.openHound, api: server.url)

    #expect(output.status == 0, "\(output)")
    let loaded = Self.detailActions(output).first { $0["type"] as? String == "imageLoaded" }
    #expect(loaded?["url"] as? String == (try Self.bundledImages("hound")).last, "\(output)")
    #expect(server.requests().contains("/api/breed/hound/images/random"), "\(server.requests())")
  }

  @Test func liveAnUnreachableAPIIsAVisibleErrorWithTheRetryButton() async throws {
    // NB: Port 1 on the loopback interface: nothing listens there, so the connection is refused.
    let output = try await Self.runLive(Self.appear + "\n", api: "http://127.0.0.1:1")

    #expect(output.status == 0, "\(output)")
    let failed = output.events.named("action").compactMap { ($0["action"] as? [String: Any])?["action"] as? [String: Any] }
      .first { $0["type"] as? String == "breedsFailed" }
    let message = try #require(failed?["message"] as? String, "\(output)")
    #expect(message.contains("deps.dogs.breeds failed: cannot reach http://127.0.0.1:1"), "\(message)")
    #expect(message.contains("--deps offline"), "\(message)")
    let screen = output.events.named("state").last?.string("view") ?? ""
    #expect(screen.contains("⚠ could not load the breeds: ") && screen.contains("[ retry ]"), "\(screen)")
  }

  @Test func liveAnAPIURLThatIsNotHTTPIsRefused() async throws {
    let output = try await Self.runLive(Self.appear + "\n", api: "file:///etc")

    let failed = output.events.named("action").compactMap { ($0["action"] as? [String: Any])?["action"] as? [String: Any] }
      .first { $0["type"] as? String == "breedsFailed" }
    #expect((failed?["message"] as? String)?.contains("is not an http(s) URL (check LUNAR_DOGS_API)") == true, "\(output)")
  }

  /// `lunar run examples/dogs --deps live --json` with `LUNAR_DOGS_API` set to `api`.
  static func runLive(_ input: String, api: String) async throws -> Lunar.Output {
    let binary = try await Lunar.binary()
    return try await withCheckedThrowingContinuation { continuation in
      // NB: Waiting on a process blocks a thread: do it off Swift concurrency's cooperative pool.
      Thread.detachNewThread {
        continuation.resume(with: Result {
          let process = Process()
          process.executableURL = binary
          process.arguments = ["run", "examples/dogs", "--deps", "live", "--json", "--timeout", "15"]
          process.currentDirectoryURL = Lunar.packageRoot
          var environment = ProcessInfo.processInfo.environment
          environment["LUNAR_DOGS_API"] = api
          environment["NO_COLOR"] = "1"
          process.environment = environment
          let stdin = Pipe()
          let stdout = Pipe()
          let stderr = Pipe()
          process.standardInput = stdin
          process.standardOutput = stdout
          process.standardError = stderr
          try process.run()
          try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
          try stdin.fileHandleForWriting.close()
          let errors = ErrorOutput()
          let group = DispatchGroup()
          group.enter()
          Thread.detachNewThread {
            errors.data = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
          }
          let out = stdout.fileHandleForReading.readDataToEndOfFile()
          group.wait()
          process.waitUntilExit()
          return Lunar.Output(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errors.data, as: UTF8.self), timedOut: false
          )
        })
      }
    }
  }

  private final class ErrorOutput: @unchecked Sendable {
    var data = Data()
  }
}
