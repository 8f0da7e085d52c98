import LuaBridge
import LuaFeatures

/// What a host gives one plugin: the capabilities it may reach, the limits of its VM, and the quotas
/// of what it makes the host hold (its data files, a response's body).
public struct PluginGrants: Sendable, Equatable {
  /// The capabilities the plugin may reach; calls to any other fail, naming the plugin.
  public var capabilities: PluginCapabilities
  /// The limits of the plugin's own VM: instructions and time per call, memory.
  public var limits: LuaVM.Limits
  /// The bytes its `deps.storage` document and `lunar.shared` files may take together (`nil`: no
  /// limit); ``PluginHost/defaultDataLimit`` unless the host or its policy says otherwise.
  public var dataLimit: Int?
  /// The most bytes of one response's body `http` brings in for the plugin (a recording's too);
  /// `nil` for ``defaultHTTPResponseBytes(for:)``. The host stops reading an answer past it.
  public var httpResponseBytes: Int?

  /// Grants from their parts.
  public init(
    capabilities: PluginCapabilities, limits: LuaVM.Limits = .default,
    dataLimit: Int? = PluginHost.defaultDataLimit, httpResponseBytes: Int? = nil
  ) {
    self.capabilities = capabilities
    self.limits = limits
    self.dataLimit = dataLimit
    self.httpResponseBytes = httpResponseBytes
  }

  /// The limit of a response's body that applies: ``httpResponseBytes``, else
  /// ``defaultHTTPResponseBytes(for:)`` of ``limits``.
  public var effectiveHTTPResponseBytes: Int {
    httpResponseBytes ?? Self.defaultHTTPResponseBytes(for: limits)
  }

  /// A plugin's limit of a response's body when its grants set none: its VM's memory limit
  /// (a body it cannot hold is not worth reading), and at most 64 MiB.
  public static func defaultHTTPResponseBytes(for limits: LuaVM.Limits) -> Int {
    min(limits.memoryBytes ?? .max, HTTPRequest.defaultMaximumResponseBytes)
  }
}

/// How a host decides what each plugin gets, when it loads (or reloads) it.
///
/// The host proposes what the plugin's manifest asks for, with the host's default limits; the
/// policy returns what the plugin gets:
///
/// ```swift
/// let policy = PluginPolicy { manifest, proposed in
///   var grants = proposed
///   if manifest.name != "trusted" { grants.capabilities = grants.capabilities.removing(["http"]) }
///   grants.limits.memoryBytes = 64 << 20
///   grants.dataLimit = 1 << 20             // 1 MiB of storage and shared files
///   return grants
/// }
/// ```
///
/// Grants are per plugin: a plugin calling a capability it was not granted gets an error naming
/// the plugin, the capability and how to grant it. When it asked for it and the policy took it
/// away, ``denialHint`` ends that message (`lunar host` says which `--deny` did it).
public struct PluginPolicy: Sendable {
  /// Decides a plugin's grants from its manifest and what the host proposes.
  public var decide: @Sendable (_ manifest: PluginManifest, _ proposed: PluginGrants) -> PluginGrants
  /// How to grant `capability` to `plugin` when the policy denied it: the end of the error a
  /// call gets (`"the host's policy denies it"` by default).
  public var denialHint: @Sendable (_ plugin: String, _ capability: String) -> String

  /// A policy deciding with `decide`.
  public init(
    denialHint: @escaping @Sendable (_ plugin: String, _ capability: String) -> String = { _, _ in
      "the host's policy denies it"
    },
    decide: @escaping @Sendable (_ manifest: PluginManifest, _ proposed: PluginGrants) -> PluginGrants
  ) {
    self.decide = decide
    self.denialHint = denialHint
  }

  /// Grants every plugin what its manifest asks for.
  public static let grantRequested = PluginPolicy { _, proposed in proposed }

  /// Grants no plugin any capability (the built-ins `uuid`, `now` and `clock` stay).
  public static let grantNothing = PluginPolicy(denialHint: { _, _ in "the host grants no capability" }) { _, proposed in
    PluginGrants(capabilities: .none, limits: proposed.limits, dataLimit: proposed.dataLimit)
  }

  /// Grants what each plugin asks for, except `capabilities` to every plugin and `byPlugin[name]`
  /// to the plugin `name`.
  ///
  /// ```swift
  /// PluginPolicy.denying(["http"], byPlugin: ["dogs": ["storage"]])
  /// ```
  public static func denying(
    _ capabilities: Set<String>, byPlugin: [String: Set<String>] = [:],
    denialHint: @escaping @Sendable (_ plugin: String, _ capability: String) -> String = { _, _ in
      "the host's policy denies it"
    }
  ) -> PluginPolicy {
    PluginPolicy(denialHint: denialHint) { manifest, proposed in
      var grants = proposed
      grants.capabilities = proposed.capabilities.removing(capabilities.union(byPlugin[manifest.name] ?? []))
      return grants
    }
  }
}
