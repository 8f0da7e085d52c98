import Foundation
import LuaBridge
import LuaFeatures

extension PluginManifest {
  /// Reads the plugin in `folder`: runs its `plugin.lua` in `host` and checks every field, or,
  /// without one, describes the feature alone (named after the folder, asking for nothing).
  ///
  /// ```swift
  /// let manifest = try PluginManifest.read(folder: examples.appending(path: "dogs"), in: host)
  /// manifest.capabilities   // http (dog.ceo), storage
  /// ```
  ///
  /// - Throws: ``PluginError`` of kind `.notFound` (no plugin in the folder), `.manifest` (with
  ///   `plugin.lua` and the line of the field at fault) or `.api` (a Lua API this build does not
  ///   offer: the message says which it offers).
  @MainActor
  public static func read(folder: URL, in host: LuaFeatureHost) throws(PluginError) -> PluginManifest {
    let folder = folder.standardizedFileURL
    let folderName = folder.lastPathComponent
    let file = folder.appendingPathComponent(fileName)
    guard FileManager.default.fileExists(atPath: file.path) else { return try featureOnly(folder) }
    let text = try? String(contentsOf: file, encoding: .utf8)
    let source = ManifestSource(text)
    let value: LuaValue
    do {
      value = try host.loadPluginManifest(file)
    } catch {
      var message = error.message
      var line = error.file == fileName ? error.line : source.pluginLine
      // NB: `lunar.plugin: capabilities.http must be data…` names a field: point at its line.
      if let range = message.range(of: "lunar.plugin: ") {
        let path = message[range.upperBound...].prefix { !$0.isWhitespace }
        let keys = path.split(separator: ".").map { String($0.prefix { $0 != "[" }) }
        if let first = keys.first, PluginManifest.fields.contains(first) { line = source.line(of: keys) }
      }
      // NB: Lua's message starts with `plugin.lua:3: ` already: keep the location in its fields.
      if let prefix = error.location.map({ $0 + ": " }), message.hasPrefix(prefix) { message.removeFirst(prefix.count) }
      throw PluginError(.manifest, plugin: folderName, folder: folder, message: message, file: fileName, line: line)
    }
    var reader = ManifestReader(folder: folder, source: source, plugin: folderName)
    return try reader.read(value)
  }

  /// The manifest of a folder holding only a feature.
  private static func featureOnly(_ folder: URL) throws(PluginError) -> PluginManifest {
    let name = folder.lastPathComponent
    guard let entry = FeatureLocation.entryNames.first(where: {
      FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
    }) else {
      throw PluginError(
        .notFound, plugin: name, folder: folder,
        message: "\(folder.path) holds no plugin (looked for \(([fileName] + FeatureLocation.entryNames).joined(separator: ", ")))")
    }
    guard isValidName(name) else {
      throw PluginError(
        .manifest, plugin: name, folder: folder,
        message: """
          a plugin without plugin.lua is named after its folder, and "\(name)" is not a plugin name (a letter, \
          then letters, digits, - and _): rename the folder, or give it a plugin.lua with a name
          """)
    }
    return PluginManifest(
      name: name, version: "0.0.0", api: currentAPI, feature: String(entry.dropLast(4)), capabilities: .none,
      folder: folder, hasManifestFile: false)
  }
}

/// Checks the fields of a `lunar.plugin { … }` table, one by one, pointing each mistake at its line.
struct ManifestReader {
  let folder: URL
  let source: ManifestSource
  var plugin: String

  private func fail(_ path: [String], _ message: String, kind: PluginError.Kind = .manifest) -> PluginError {
    PluginError(kind, plugin: plugin, folder: folder, message: message, file: PluginManifest.fileName,
      line: source.line(of: path))
  }

  mutating func read(_ value: LuaValue) throws(PluginError) -> PluginManifest {
    let fields = value.tableValue ?? [:]
    for key in fields.keys.map(\.description).sorted() where !PluginManifest.fields.contains(key) {
      throw fail([key], "lunar.plugin has no field `\(key)` (fields: \(PluginManifest.fields.joined(separator: ", ")))")
    }
    let name = try readName(fields["name"] ?? .nil)
    plugin = name
    let version = try readVersion(fields["version"] ?? .nil)
    let api = try readAPI(fields["api"] ?? .nil)
    let feature = try readFeature(fields["feature"] ?? .nil)
    let capabilities = try readCapabilities(fields["capabilities"] ?? .nil)
    return PluginManifest(
      name: name, version: version, api: api, feature: feature, capabilities: capabilities, folder: folder)
  }

  private func readName(_ value: LuaValue) throws(PluginError) -> String {
    guard let name = value.stringValue, PluginManifest.isValidName(name) else {
      let got = value.isNil ? "none" : "\(value)"
      throw fail(["name"], "`name` must be a plugin name like \"dogs\" (a letter, then letters, digits, - and _), got \(got)")
    }
    return name
  }

  private func readVersion(_ value: LuaValue) throws(PluginError) -> String {
    guard let version = value.stringValue, version.wholeMatch(of: /[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.+-]+)?/) != nil else {
      let got = value.isNil ? "none" : "\(value)"
      throw fail(["version"], "`version` must be a version string like \"1.2.0\", got \(got)")
    }
    return version
  }

  private func readAPI(_ value: LuaValue) throws(PluginError) -> Int {
    let offered = PluginManifest.supportedAPIs
    let offers = offered.count == 1 ? "api = \(offered.lowerBound)" : "api = \(offered.lowerBound) to \(offered.upperBound)"
    guard let api = value.integerValue else {
      let got = value.isNil ? "none" : "\(value)"
      throw fail(["api"], "`api` must be the version of the Lua API the plugin was written for (this host offers \(offers)), got \(got)")
    }
    guard let version = Int(exactly: api), offered.contains(version) else {
      throw fail(["api"], """
        api = \(api) is a version of the Lua API this host does not offer (it offers \(offers)): \
        run the plugin with a Lunar that offers api = \(api), or port it to \(offers)
        """, kind: .api)
    }
    return version
  }

  private func readFeature(_ value: LuaValue) throws(PluginError) -> String {
    if value.isNil { return "feature" }
    guard let module = value.stringValue, module.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/) != nil else {
      throw fail(["feature"], "`feature` must be a module name like \"feature\" or \"app.main\", got \(value)")
    }
    let manifest = PluginManifest(name: plugin, version: "0", feature: module, folder: folder)
    guard FileManager.default.fileExists(atPath: manifest.entry.path) else {
      let path = module.replacingOccurrences(of: ".", with: "/")
      throw fail(["feature"], "feature = \"\(module)\", but the folder has no \(path).lua (nor \(path)/init.lua)")
    }
    return module
  }

  private func readCapabilities(_ value: LuaValue) throws(PluginError) -> PluginCapabilities {
    let entries: [LuaString: LuaValue]
    switch value {
    case .nil, .array([]): return .none
    case let .table(table): entries = table
    default:
      throw fail(["capabilities"], "`capabilities` must be a table like { http = { hosts = { \"dog.ceo\" } }, storage = true }, got \(value)")
    }
    var names: Set<String> = []
    var hosts: [String]?
    for (key, request) in entries.sorted(by: { $0.key.description < $1.key.description }) {
      let name = key.description
      guard name.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_]*/) != nil else {
        throw fail(["capabilities"], "capabilities.\(name): a capability's name is a word like http or storage")
      }
      switch request {
      case .boolean(false): continue
      case .boolean(true): names.insert(name)
      case let .table(options) where name == "http":
        hosts = try readHosts(options)
        names.insert(name)
      default:
        let example = name == "http" ? "true (any host) or { hosts = { \"dog.ceo\" } }" : "true"
        throw fail(["capabilities", name], "capabilities.\(name) must be \(example), got \(request)")
      }
    }
    return PluginCapabilities(names, httpHosts: hosts)
  }

  private func readHosts(_ options: [LuaString: LuaValue]) throws(PluginError) -> [String] {
    let path = ["capabilities", "http", "hosts"]
    if let other = options.keys.map(\.description).sorted().first(where: { $0 != "hosts" }) {
      throw fail(["capabilities", "http", other], "capabilities.http has no field `\(other)` (it takes hosts = { \"dog.ceo\" })")
    }
    guard let list = options["hosts"]?.arrayValue, !list.isEmpty else {
      throw fail(path, "capabilities.http.hosts must list host names like { \"dog.ceo\" } (or write http = true for any host)")
    }
    return try list.map { entry throws(PluginError) in
      let example = "is not a host like \"dog.ceo\", \"127.0.0.1\" or \"[::1]\", with an optional port (\"localhost:8080\")"
      guard let host = entry.stringValue else { throw fail(path, "capabilities.http.hosts: \(entry) \(example)") }
      do {
        return try HTTPHostGrant(parsing: host).description
      } catch {
        throw fail(path, "capabilities.http.hosts: \"\(HTTPURL.printable(host))\" \(example): \(error)")
      }
    }
  }
}
