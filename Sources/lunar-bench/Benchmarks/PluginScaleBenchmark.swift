import CLuaBench
import Composable
import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport
import LunarPlugins

/// `lunar-bench plugins [PATH]`: what plugins cost at scale. Memory per plugin VM and per idle
/// store (from the allocator's own count, ``lunar_bench_heap_bytes``), what comes back when
/// plugins are unloaded, and ns/action through one store, spread over many stores of one plugin,
/// and spread over many plugins (one VM each).
@MainActor
struct PluginScaleBenchmark {
  let folder: URL
  let stores: Int
  let vms: Int
  let actions: Int
  let repetitions: Int
  /// Idle stores to make at the end, to check that they fit (0: skip).
  let manyStores: Int

  struct Result {
    var feature: String
    var stores: Int, vms: Int
    var perVM: Double, perVMLua: Double, returned: Double
    var perIdleStore: Double, perUsedStore: Double, perUsedStoreLua: Double
    var bareStore: Double, oneStore: Double, spreadStores: Double, spreadVMs: Double
    var manyStores: Int, manyStoresBytes: Double

    var text: String {
      func kib(_ bytes: Double) -> String { String(format: "%.1f KiB", bytes / 1024) }
      func row(_ label: String, _ value: String) -> String {
        "  " + label.padding(toLength: 62, withPad: " ", startingAt: 0) + value
      }
      var lines = [
        "\(feature) as a plugin (best of each; compare ratios):",
        row("memory per plugin (VM, prelude, feature, main store)", "\(kib(perVM))  (Lua's share \(kib(perVMLua)))"),
        row("memory back after unloading them", String(format: "%.0f%%", returned * 100)),
        row("memory per idle store (a session, no action yet)", kib(perIdleStore)),
        row("memory per store after one action (state in the VM)", "\(kib(perUsedStore))  (Lua's share \(kib(perUsedStoreLua)))"),
        row("ns/action, a bare Store of the feature (no plugin)", formatted(bareStore)),
        row("ns/action, one store of the plugin", "\(formatted(oneStore))  (\(formatted(oneStore / bareStore))x bare)"),
        row("ns/action, spread over \(stores) stores of the plugin", "\(formatted(spreadStores))  (\(formatted(spreadStores / oneStore))x one store)"),
        row("ns/action, spread over \(vms) plugins, a VM each", "\(formatted(spreadVMs))  (\(formatted(spreadVMs / oneStore))x one store)"),
      ]
      if manyStores > 0 {
        lines.append(row("\(manyStores) stores after one action each", String(format: "%.0f MiB", manyStoresBytes / 1_048_576)))
      }
      return lines.joined(separator: "\n")
    }

    var json: String {
      BenchJSON.encode([
        "benchmark": "plugins", "feature": feature, "stores": stores, "vms": vms, "bytesPerVM": perVM, "luaBytesPerVM": perVMLua,
        "returnedAfterUnload": returned, "bytesPerIdleStore": perIdleStore, "bytesPerUsedStore": perUsedStore,
        "luaBytesPerUsedStore": perUsedStoreLua, "nsBareStore": bareStore, "nsOneStore": oneStore,
        "nsSpreadStores": spreadStores, "nsSpreadVMs": spreadVMs, "manyStores": manyStores, "manyStoresBytes": manyStoresBytes,
      ])
    }
  }

  static let increment: LuaValue = ["type": "increment"]

  /// A host loading the plugin of `folder`, offering what `lunar host` offers offline, its data
  /// in memory: a benchmark never writes the user's files.
  func makeHost() -> PluginHost {
    let host = PluginHost(limits: .init(timePerCall: nil)) { manifest in
      var dependencies = HostDependencies.dependencies(mode: .offline, root: manifest.folder)
      dependencies.offer(.storage(file: URL(fileURLWithPath: "/storage.json"), fileStorage: .inMemory()))
      return dependencies
    }
    host.dataFolder = nil
    return host
  }

  func run() async throws -> Result {
    var result = Result(
      feature: folder.lastPathComponent, stores: stores, vms: vms, perVM: 0, perVMLua: 0, returned: 0, perIdleStore: 0, perUsedStore: 0,
      perUsedStoreLua: 0, bareStore: 0, oneStore: 0, spreadStores: 0, spreadVMs: 0, manyStores: manyStores,
      manyStoresBytes: 0)

    // Plugins, a VM each: their memory, their ns/action, and what comes back when unloaded.
    let before = heapBytes()
    var hosts: [PluginHost] = []
    var plugins: [Plugin] = []
    for _ in 0..<vms {
      let host = makeHost()
      plugins.append(try host.load(folder))
      hosts.append(host)
    }
    let loaded = heapBytes()
    result.perVM = Double(loaded - before) / Double(vms)
    result.perVMLua = Double(plugins.reduce(0) { $0 + $1.luaHost.vm.memoryInUse }) / Double(vms)
    result.spreadVMs = bestNanosecondsPerOperation(operations: actions, repetitions: repetitions) {
      for index in 0..<actions { plugins[index % vms].send(Self.increment) }
    }
    plugins = []
    for host in hosts { await host.unload(folder.lastPathComponent) }
    hosts = []
    result.returned = Double(loaded - heapBytes()) / Double(loaded - before)

    // Stores of one plugin, sharing its VM.
    let host = makeHost()
    let plugin = try host.load(folder)
    result.feature = plugin.feature.name
    let bare = Store(initialState: plugin.feature.initialState) { plugin.feature.reducer() }
    result.bareStore = bestNanosecondsPerOperation(operations: actions, repetitions: repetitions) {
      for _ in 0..<actions { bare.send(Self.increment) }
    }
    result.oneStore = bestNanosecondsPerOperation(operations: actions, repetitions: repetitions) {
      for _ in 0..<actions { plugin.send(Self.increment) }
    }
    let idle = heapBytes()
    let luaIdle = plugin.luaHost.vm.memoryInUse
    var sessions = (0..<stores).map { _ in plugin.makeSession() }
    let made = heapBytes()
    result.perIdleStore = Double(made - idle) / Double(stores)
    for session in sessions { session.send(Self.increment) }
    plugin.luaHost.vm.collectGarbage()
    result.perUsedStore = Double(heapBytes() - idle) / Double(stores)
    result.perUsedStoreLua = Double(plugin.luaHost.vm.memoryInUse - luaIdle) / Double(stores)
    result.spreadStores = bestNanosecondsPerOperation(operations: actions, repetitions: repetitions) {
      for index in 0..<actions { sessions[index % stores].send(Self.increment) }
    }
    sessions = []

    if manyStores > 0 {
      let start = heapBytes()
      var many: [PluginSession] = []
      many.reserveCapacity(manyStores)
      for _ in 0..<manyStores {
        let session = plugin.makeSession()
        session.send(Self.increment)
        many.append(session)
      }
      result.manyStoresBytes = Double(heapBytes() - start)
      blackHole(many)
    }
    return result
  }

  private func heapBytes() -> Int64 {
    Int64(lunar_bench_heap_bytes())
  }
}
