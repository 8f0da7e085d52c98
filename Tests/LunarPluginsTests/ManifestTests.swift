import Foundation
import LuaFeatures
import LunarPlugins
import Testing

/// `plugin.lua`: what a plugin is and asks for, checked field by field with the field's line.
@MainActor
struct ManifestTests {
  let folders: PluginFolders
  let host: LuaFeatureHost

  init() throws {
    folders = try PluginFolders()
    host = try LuaFeatureHost()
  }

  func read(_ name: String, _ files: [String: String]) throws -> PluginManifest {
    try PluginManifest.read(folder: try folders.plugin(name, files), in: host)
  }

  func failure(_ name: String, _ files: [String: String]) throws -> PluginError {
    do {
      let manifest = try read(name, files)
      Issue.record("expected an error, read \(manifest)")
      throw CancellationError()
    } catch let error as PluginError {
      return error
    }
  }

  @Test func aManifestNamesThePluginItsVersionAPIFeatureAndCapabilities() throws {
    let manifest = try read("dogs", [
      "plugin.lua": manifest("dogs", version: "1.2.0", """
          feature = "app",
          capabilities = { http = { hosts = { "dog.ceo" } }, storage = true, files = false },
        """),
      "app.lua": counterFeature,
    ])
    #expect(manifest.name == "dogs")
    #expect(manifest.version == "1.2.0")
    #expect(manifest.api == 1)
    #expect(manifest.feature == "app")
    #expect(manifest.entry.lastPathComponent == "app.lua")
    #expect(manifest.capabilities == PluginCapabilities(["http", "storage"], httpHosts: ["dog.ceo"]))
    #expect(manifest.capabilities.description == "http (dog.ceo), storage")
    #expect(manifest.hasManifestFile)
  }

  @Test func aFolderWithOnlyAFeatureIsAPluginAskingForNothing() throws {
    let manifest = try read("counter", ["feature.lua": counterFeature])
    #expect(manifest.name == "counter")
    #expect(manifest.version == "0.0.0")
    #expect(manifest.api == PluginManifest.currentAPI)
    #expect(manifest.capabilities == .none)
    #expect(manifest.entry.lastPathComponent == "feature.lua")
    #expect(!manifest.hasManifestFile)
  }

  @Test func anUnsupportedAPIIsRefusedSayingWhichTheHostOffers() throws {
    let error = try failure("future", ["plugin.lua": manifest("future", api: 2), "feature.lua": counterFeature])
    #expect(error.kind == .api)
    #expect(error.file == "plugin.lua")
    #expect(error.line == 5)
    #expect(error.description.hasPrefix("plugin future: plugin.lua:5: api = 2 is a version of the Lua API this host does not offer (it offers api = 1)"))
  }

  @Test func aWrongFieldIsAnErrorAtItsLine() throws {
    let version = try failure("v", ["plugin.lua": manifest("v", version: "one"), "feature.lua": counterFeature])
    #expect(version.kind == .manifest)
    #expect(version.description == "plugin v: plugin.lua:4: `version` must be a version string like \"1.2.0\", got \"one\"")

    let typo = try failure("t", ["plugin.lua": manifest("t", "  capabilites = {},"), "feature.lua": counterFeature])
    #expect(typo.description == "plugin t: plugin.lua:6: lunar.plugin has no field `capabilites` (fields: name, version, api, feature, capabilities)")

    let hosts = try failure("h", [
      "plugin.lua": manifest("h", """
          capabilities = {
            http = { hosts = { "https://dog.ceo/api" } },
          },
        """),
      "feature.lua": counterFeature,
    ])
    #expect(hosts.line == 7)
    #expect(hosts.message == """
      capabilities.http.hosts: "https://dog.ceo/api" is not a host like "dog.ceo", "127.0.0.1" or "[::1]", with an \
      optional port ("localhost:8080"): a grant is a host and an optional port, without a scheme, user or path
      """)

    let name = try failure("n", ["plugin.lua": manifest("9lives"), "feature.lua": counterFeature])
    #expect(name.line == 3)
    #expect(name.message.hasPrefix("`name` must be a plugin name"))
  }

  @Test func aMissingEntryFeatureIsNamed() throws {
    let error = try failure("m", ["plugin.lua": manifest("m", "  feature = \"app.main\",")])
    #expect(error.description == "plugin m: plugin.lua:6: feature = \"app.main\", but the folder has no app/main.lua (nor app/main/init.lua)")
  }

  @Test func aManifestThatDoesNotLoadIsAnErrorWithItsLine() throws {
    let syntax = try failure("s", ["plugin.lua": "local lunar = require \"lunar\"\nreturn lunar.plugin {\n  name = \n}\n"])
    #expect(syntax.kind == .manifest)
    #expect(syntax.line == 4)
    #expect(syntax.message.contains("unexpected symbol"), "\(syntax)")

    let notAManifest = try failure("f", ["plugin.lua": "return { name = \"f\" }", "feature.lua": counterFeature])
    #expect(notAManifest.message == "plugin.lua must return lunar.plugin { name = …, version = …, api = … }, but returned table")

    let function = try failure("g", ["plugin.lua": manifest("g", "  feature = function() end,")])
    #expect(function.line == 6)
    #expect(function.message.contains("feature must be data"), "\(function)")
  }

  @Test func aFolderWithoutPluginIsNotFound() throws {
    let error = try failure("empty", ["notes.txt": "nothing"])
    #expect(error.kind == .notFound)
  }

  @Test func pluginFoldersAreTheSubfoldersHoldingAPluginSorted() throws {
    try folders.plugin("b", ["feature.lua": counterFeature])
    try folders.plugin("a", ["plugin.lua": manifest("a")])
    try folders.plugin("c", ["readme.txt": ""])
    #expect(PluginManifest.pluginFolders(in: folders.root).map(\.lastPathComponent) == ["a", "b"])
  }

  @Test(arguments: [
    ("1", "its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"),
    ("0.0.1", "its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"),
    ("0x7f.1", "its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"),
    ("::1", "its host is not a name of letters, digits and '-' between dots like dog.ceo"),
    ("dog.ceo:0", "its port is not a number from 1 to 65535"),
    ("user@dog.ceo", "a grant is a host and an optional port, without a scheme, user or path"),
    ("%64og.ceo", "its host is percent-encoded"),
    ("dog .ceo", "it holds a space, a control character or a non-ASCII character (percent-encode them)"),
  ])
  func aMalformedHostGrantIsRefusedWhenTheManifestIsRead(_ grant: String, _ reason: String) throws {
    let error = try failure("g", [
      "plugin.lua": manifest("g", "  capabilities = { http = { hosts = { \"\(grant)\" } } },"),
      "feature.lua": counterFeature,
    ])
    #expect(error.kind == .manifest)
    #expect(error.message == """
      capabilities.http.hosts: "\(grant)" is not a host like "dog.ceo", "127.0.0.1" or "[::1]", with an optional \
      port ("localhost:8080"): \(reason)
      """)
  }

  @Test func hostGrantsAreReadNormalised() throws {
    let manifest = try read("n", [
      "plugin.lua": manifest("n", #"  capabilities = { http = { hosts = { "Dog.CEO.", "127.0.0.1:8080", "[0::1]" } } },"#),
      "feature.lua": counterFeature,
    ])
    #expect(manifest.capabilities.httpHosts == ["127.0.0.1:8080", "[::1]", "dog.ceo"])
  }
}
