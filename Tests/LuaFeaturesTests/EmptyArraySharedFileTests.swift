import Composable
import ConcurrencyExtras
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// A persisted shared list writes `[]` when it is emptied, at any depth, so that a Swift
/// `Codable` reader of `[T]` reads the file; a keyed table stays `{}`.
@MainActor
@Suite struct EmptyArraySharedFileTests {
  static let source = #"""
    local lunar = require "lunar"
    return lunar.feature {
      name = "SyncUps",
      initial = {},
      shared = {
        syncUps = lunar.shared("syncUps", { default = lunar.array(), storage = "file" }),
        settings = lunar.shared("settings", { default = { recent = { "a" }, flags = { dark = true } }, storage = "file" }),
      },
      reduce = function(state, action)
        local t = action.type
        if t == "add" then
          table.insert(state.syncUps, {
            id = action.id, attendees = lunar.array(), meetings = lunar.array { { id = "m1" } },
          })
        elseif t == "clearMeetings" then
          table.remove(state.syncUps[1].meetings)
        elseif t == "removeAll" then
          while #state.syncUps > 0 do table.remove(state.syncUps) end
        elseif t == "replaceAll" then
          state.syncUps = {}
        elseif t == "clearSettings" then
          state.settings.recent = {}
          state.settings.flags = {}
        end
      end,
    }
    """#

  struct SyncUp: Codable, Equatable {
    struct Meeting: Codable, Equatable { var id: String }
    struct Attendee: Codable, Equatable { var id: String }
    var id: String
    var attendees: [Attendee]
    var meetings: [Meeting]
  }

  let files: LockIsolated<[String: Data]>
  let harness: FeatureHarness

  init() throws {
    let files = LockIsolated<[String: Data]>([:])
    self.files = files
    harness = try FeatureHarness()
    harness.host.shared.reset(fileStorage: FileStorage(
      load: { url in files[url.path] },
      save: { data, url in files.withValue { $0[url.path] = data } },
      moveAside: { url, _ in url }
    ))
  }

  func path(_ key: String) -> String {
    harness.host.shared.folder.appendingPathComponent("\(key).json").path
  }

  func text(_ key: String) throws -> String {
    String(decoding: try #require(files.value[path(key)]), as: UTF8.self)
  }

  func store() throws -> Store<LuaState, LuaValue> {
    let feature = try harness.load(Self.source, chunkName: "syncups.lua")
    return makeStore(feature.reducer(), state: feature.initialState)
  }

  func send(_ store: Store<LuaState, LuaValue>, _ type: String, id: String? = nil) throws {
    store.send(id.map { ["type": .text(type), "id": .text($0)] } ?? ["type": .text(type)])
    if let error = harness.takeErrors().first { throw error }
  }

  @Test func anEmptiedSharedListIsSavedAsAnArrayThatCodableReads() throws {
    let store = try store()
    try send(store, "add", id: "a")
    try send(store, "removeAll")
    #expect(try text("syncUps") == "[]\n")
    #expect(try JSONDecoder().decode([SyncUp].self, from: try #require(files.value[path("syncUps")])) == [])
  }

  @Test func aSharedListReplacedByAFreshEmptyTableIsSavedAsAnArray() throws {
    let store = try store()
    try send(store, "add", id: "a")
    try send(store, "replaceAll")
    #expect(try text("syncUps") == "[]\n")
    #expect(store.state.syncUps == .array([]))
  }

  @Test func nestedListsOfRecordsAreSavedAsArraysWhenEmpty() throws {
    let store = try store()
    try send(store, "add", id: "a")
    try send(store, "clearMeetings")
    #expect(try text("syncUps") == """
      [
        {
          "attendees": [],
          "id": "a",
          "meetings": []
        }
      ]

      """)
    #expect(try JSONDecoder().decode([SyncUp].self, from: try #require(files.value[path("syncUps")]))
      == [SyncUp(id: "a", attendees: [], meetings: [])])
  }

  @Test func aListLoadedFromTheFileAndEmptiedInPlaceIsSavedAsAnArray() throws {
    let saved = #"[{"attendees":[{"id":"x"}],"id":"a","meetings":[{"id":"m1"},{"id":"m2"}]}]"#
    let file = path("syncUps")
    files.withValue { $0[file] = Data(saved.utf8) }
    let store = try store()
    try send(store, "clearMeetings")
    try send(store, "clearMeetings")
    let written = try text("syncUps")
    #expect(written.contains(#""meetings": []"#))
    #expect(try JSONDecoder().decode([SyncUp].self, from: Data(written.utf8))
      == [SyncUp(id: "a", attendees: [.init(id: "x")], meetings: [])])
  }

  @Test func whereTheDefaultHasAListAnEmptyTableIsSavedAsAnArrayAndAMapAsAnObject() throws {
    let store = try store()
    try send(store, "clearSettings")
    #expect(try text("settings") == """
      {
        "flags": {},
        "recent": []
      }

      """)
  }

  @Test func aFileSavedWithAnObjectWhereTheDefaultHasAListReadsAsAnEmptyList() throws {
    let file = path("syncUps")
    files.withValue { $0[file] = Data("{}\n".utf8) }
    let store = try store()
    try send(store, "removeAll")
    #expect(store.state.syncUps == .array([]))
    try send(store, "add", id: "a")
    try send(store, "removeAll")
    #expect(try text("syncUps") == "[]\n")
  }
}
