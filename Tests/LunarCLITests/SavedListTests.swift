import Foundation
import Testing

/// The examples' saved lists are JSON arrays that a Swift `Codable` reader of `[T]` reads, also
/// when they, or the lists inside their records, are empty.
@Suite struct SavedListTests {
  struct SyncUp: Decodable {
    struct Attendee: Decodable { var id: String; var name: String }
    struct Meeting: Decodable { var id: String }
    var id: String
    var title: String
    var attendees: [Attendee]
    var meetings: [Meeting]
  }

  @Test func syncUpsSavesEmptyMeetingsAndAnEmptiedListAsArrays() async throws {
    let data = try makeTemporaryFolder()
    defer { removeTemporaryFolder(data) }
    let environment = ["XDG_DATA_HOME": data.path]
    let file = try Lunar.featureDataFolder(for: Lunar.packageRoot.appendingPathComponent("examples/syncups"), in: data)
      .appendingPathComponent("shared/syncUps.json")

    let added = try await Lunar.run(
      ["run", "examples/syncups", "--timeout", "0", "--time-limit", "60"],
      input: """
        syncUpsList action={type="addSyncUpButtonTapped"}
        syncUpsList action={type="confirmAddSyncUpButtonTapped"}

        """,
      environment: environment)
    #expect(added.status == 0, "\(added)")
    let saved = try JSONDecoder().decode([SyncUp].self, from: Data(contentsOf: file))
    #expect(saved.count == 1)
    #expect(saved.first?.meetings.isEmpty == true)
    #expect(try String(contentsOf: file, encoding: .utf8).contains(#""meetings": []"#))

    let deleted = try await Lunar.run(
      ["run", "examples/syncups", "--timeout", "0", "--time-limit", "60"],
      input: "syncUpsList action={type=\"onDelete\", offsets={1}}\n", environment: environment)
    #expect(deleted.status == 0, "\(deleted)")
    #expect(try String(contentsOf: file, encoding: .utf8) == "[]\n")
    #expect(try JSONDecoder().decode([SyncUp].self, from: Data(contentsOf: file)).isEmpty)
  }
}
