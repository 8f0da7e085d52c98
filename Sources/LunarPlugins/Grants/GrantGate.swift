import ConcurrencyExtras
import Foundation
import LuaBridge
import LuaFeatures

/// Holds what one plugin asked for and was granted, and checks each call of a capability against
/// it. The plugin's `deps` functions go through it, so a reload that changes the grants applies
/// from the next call.
final class GrantGate: Sendable {
  private struct Current: Sendable {
    var manifest: PluginManifest
    var granted: PluginCapabilities
    var responseBytes: Int
  }

  let plugin: String
  private let current: LockIsolated<Current>
  private let denialHint: @Sendable (_ plugin: String, _ capability: String) -> String

  init(manifest: PluginManifest, granted: PluginGrants, policy: PluginPolicy) {
    self.plugin = manifest.name
    self.current = LockIsolated(
      Current(manifest: manifest, granted: granted.capabilities, responseBytes: granted.effectiveHTTPResponseBytes))
    self.denialHint = policy.denialHint
  }

  /// What the plugin may reach now.
  var granted: PluginCapabilities { current.value.granted }

  /// Replaces the manifest and grants (a reload).
  func update(manifest: PluginManifest, granted: PluginGrants) {
    current.setValue(
      Current(manifest: manifest, granted: granted.capabilities, responseBytes: granted.effectiveHTTPResponseBytes))
  }

  /// The names under `deps` that are every plugin's: `uuid`, `now`, `clock`.
  static let builtIn = Set(LuaDependencies.builtIn.names.map(capability(of:)))

  /// The capability a dotted dependency name belongs to: its first part.
  static func capability(of name: String) -> String {
    String(name.prefix { $0 != "." })
  }

  /// `offered`, each function of a capability checking this gate before it runs; the built-ins
  /// stay as they are.
  func guarding(_ offered: LuaDependencies) -> LuaDependencies {
    var guarded = LuaDependencies()
    for name in offered.names {
      let function = offered.functions[name]!
      let capability = Self.capability(of: name)
      if Self.builtIn.contains(capability) {
        guarded.register(name, function)
        continue
      }
      switch function {
      case let .sync(body):
        guarded.register(name, .sync { [self] arguments in
          try check(capability, function: name, arguments: arguments)
          return try body(arguments)
        })
      case let .async(body) where capability == "http":
        guarded.register(name, .async { [self] arguments in
          try check(capability, function: name, arguments: arguments)
          // NB: the plugin's quota reaches the request the capability makes, and its transport.
          return try await HTTPRequest.$responseLimit.withValue(current.value.responseBytes) {
            try await body(arguments)
          }
        })
      case let .async(body):
        guarded.register(name, .async { [self] arguments in
          try check(capability, function: name, arguments: arguments)
          return try await body(arguments)
        })
      }
    }
    return guarded
  }

  /// Throws unless the plugin may call `function` of `capability` with `arguments`: a
  /// ``PluginGrantError``, or for a URL Lunar does not read as one, the request error.
  func check(_ capability: String, function: String, arguments: [LuaValue]) throws {
    let current = self.current.value
    guard current.granted.contains(capability) else {
      throw PluginGrantError(plugin: plugin, capability: capability, remedy: remedy(for: capability, current))
    }
    guard capability == "http", current.granted.httpHosts != nil,
      let text = LuaCapability.httpURL(of: function, arguments: arguments)
    else { return }
    // NB: refused here too, not only by `deps.http`'s own functions: an app's function registered
    //     under `http.` may read URLs with a parser of its own.
    let url = try HTTPRequest.parse(text)
    guard current.granted.allows(url) else {
      throw PluginGrantError(plugin: plugin, capability: capability, host: url.authority, remedy: hostRemedy(url, current))
    }
  }

  private func remedy(for capability: String, _ current: Current) -> String {
    let manifest = current.manifest
    if manifest.capabilities.contains(capability) { return denialHint(plugin, capability) }
    let request = capability == "http" ? "http = { hosts = { \"…\" } }" : "\(capability) = true"
    guard manifest.hasManifestFile else {
      return """
        it has no plugin.lua, so it asks for nothing; give it one that asks with \
        capabilities = { \(request) } (see docs/plugins.md)
        """
    }
    return "its plugin.lua does not ask for it; add \(request) to its capabilities"
  }

  private func hostRemedy(_ url: HTTPURL, _ current: Current) -> String {
    let host = url.authority
    let asked = current.manifest.capabilities
    if asked.allows(url) {
      let allowed = current.granted.httpHosts?.joined(separator: ", ") ?? "no host"
      return "the host allows \(allowed) only (\(denialHint(plugin, "http")))"
    }
    let hosts = asked.httpHosts?.joined(separator: ", ") ?? "no host"
    return "its plugin.lua asks for \(hosts); add \"\(host)\" to capabilities.http.hosts"
  }
}
