// lunar-embed: a small Swift app made scriptable by Lua plugins, the way an app embeds Lunar.
//
//     swift run lunar-embed [PLUGINS]      (PLUGINS: a folder of plugin folders, examples/ by default)
//
// It offers the plugins Lunar's capabilities (HTTP answered from each plugin's recordings, its own
// files, an in-memory storage), grants each what it asks for within limits of its own, runs the
// counter plugin four ways (its main session, a session of its own, inside a Swift feature, with
// Swift types and one field observed), prints what each plugin cost, and unloads them all,
// checking that their VMs are freed.
import Foundation
import LunarPlugins

/// A plugin's VM, held weakly: to check that unloading freed it.
struct FreedCheck {
  let name: String
  weak var vm: LuaVM?
}

@MainActor
func main() async -> (status: Int32, vms: [FreedCheck]) {
  let folder = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "examples", isDirectory: true)

  // What the app offers each plugin. A plugin reaches only what it was granted of it.
  let policy = PluginPolicy { _, proposed in
    var grants = proposed
    grants.limits.memoryBytes = 64 << 20          // each plugin's VM has its own ceiling
    // CPU time, not the wall clock: a busy machine must not fail a plugin's legitimate work.
    grants.limits.cpuTimePerCall = .milliseconds(500)
    return grants
  }
  let host = PluginHost(policy: policy) { manifest in
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(.fixtures(in: manifest.folder.appendingPathComponent("fixtures/http"), within: manifest.folder)))
    dependencies.offer(.files(in: manifest.folder))
    dependencies.offer(.storage(file: URL(fileURLWithPath: "/\(manifest.name).json"), fileStorage: .inMemory()))
    return dependencies
  }
  host.dataFolder = nil
  var failures = 0
  host.onEvent = { event in
    switch event {
    case let .loaded(plugin):
      print("loaded \(plugin.name) \(plugin.manifest.version): asks for \(plugin.manifest.capabilities), granted \(plugin.grants.capabilities)")
    case let .failed(error, _):
      failures += 1
      print("failed: \(error)")
    case let .error(plugin, error):
      print("error in \(plugin): \(error.message)")
    case let .unloaded(name):
      print("unloaded \(name)")
    case .reloaded, .printed, .warning:
      break
    }
  }

  host.loadAll(in: folder)
  guard let counter = host["counter"] else {
    print("no counter plugin in \(folder.path)")
    return (1, [])
  }

  // 1. The plugin's main session.
  for _ in 1...3 { counter.send(["type": "increment"]) }
  print("counter: count = \(counter.state.count), view: \(counter.render()?.split(separator: "\n").first ?? "")")

  // 2. A session of its own: another store in the same VM, with its own state.
  let session = counter.makeSession()
  session.send(["type": "increment"])
  print("a second session: count = \(session.state.count) (the main session still has \(counter.state.count))")

  // 3. Inside a Swift feature: the plugin's reducer scoped into the app's own.
  let dashboard = Store(initialState: Dashboard.State(counter: counter.feature.initialState)) {
    Dashboard(plugin: counter.reducer())
  }
  dashboard.send(.tapped)
  dashboard.send(.tapped)
  print("a Swift dashboard: taps = \(dashboard.state.taps), its counter's count = \(dashboard.state.counter.count)")

  // 4. Typed and observed: the plugin's feature with Swift types (TypedCounter.swift), and a label
  //    that renders again only when the count changes.
  let initial: TypedCounter
  do {
    initial = try counter.feature.initialState(as: TypedCounter.self)
  } catch {
    print("the counter's state is not a TypedCounter: \(error)")
    return (1, [])
  }
  let typed = Store(initialState: initial) {
    counter.feature.typedReducer(of: TypedCounter.self, TypedCounterAction.self)
  }
  let label = CountLabel(store: typed)
  await typed.send(.factTapped).finish()        // a fact arrives as `.factLoaded(fact:)`; count unchanged
  label.update()                                // nothing to render
  print("typed counter: fact = \(typed.fact ?? "none"), loading = \(typed.loading)")
  typed.send(.increment)
  label.update()                                // the count changed: renders again

  // What each plugin cost.
  for plugin in host.all {
    let cost = plugin.accounting
    let p50 = cost.p50.map { String(format: "%.1f µs", Double($0.components.attoseconds) / 1e12) } ?? "—"
    print("cost of \(plugin.name): \(cost.actions) actions, p50 \(p50), \(cost.memoryInUse >> 10) KiB, \(cost.errors) errors")
  }

  // Unload everything; each VM is freed once nothing holds its plugin (checked below).
  let vms = host.all.map { FreedCheck(name: $0.name, vm: $0.luaHost.vm) }
  for name in host.all.map(\.name) { await host.unload(name) }
  return (failures == 0 ? 0 : 1, vms)
}

// NB: checked after `main` returned: its plugins, sessions and stores are gone with it.
let (status, vms) = await main()
let kept = vms.filter { $0.vm != nil }.map(\.name)
print(kept.isEmpty ? "every plugin's VM was freed" : "VMs still held: \(kept.joined(separator: ", "))")
exit(kept.isEmpty ? status : 1)
