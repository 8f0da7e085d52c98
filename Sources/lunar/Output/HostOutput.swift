import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport
import LunarPlugins

/// How `lunar host` shows what happens to its plugins: their lifecycle, their list, and (through
/// a ``SessionOutput`` per plugin) their actions, states, effects and errors.
@MainActor
protocol HostOutput: AnyObject {
  /// The output of one plugin's events.
  func output(for plugin: String) -> SessionOutput
  func loaded(_ plugin: Plugin, view: String?)
  func reloaded(_ plugin: Plugin)
  func unloaded(_ name: String)
  func failed(_ error: PluginError, reloading: Bool)
  func list(_ plugins: [Plugin])
  /// The output of issues that belong to no plugin.
  var hostOutput: SessionOutput { get }
  /// The outputs of the plugins seen so far.
  var pluginOutputs: [SessionOutput] { get }
}

extension HostOutput {
  func inputError(_ message: String, line: String) {
    hostOutput.inputError(message, line: line)
  }

  func note(_ text: String) {
    hostOutput.note(text)
  }

  /// How many errors of the host itself its outputs showed: events that could not be written,
  /// files that could not be read (for the exit status).
  var errorsShown: Int {
    hostOutput.hostErrors + pluginOutputs.reduce(0) { $0 + $1.hostErrors }
  }
}

/// What a plugin is and costs, as `lunar host` shows it.
@MainActor
enum PluginSummary {
  static func figures(_ plugin: Plugin) -> HostEvent.PluginFigures {
    let cost = plugin.accounting
    var timePerAction: (p50: Int64, p99: Int64)?
    if let p50 = cost.p50, let p99 = cost.p99 { timePerAction = (nanoseconds(p50), nanoseconds(p99)) }
    return HostEvent.PluginFigures(
      status: plugin.status.rawValue, version: plugin.manifest.version, api: plugin.manifest.api,
      requested: plugin.manifest.capabilities.luaValue, granted: plugin.grants.capabilities.luaValue,
      actions: cost.actions, effects: cost.effectsRunning, memory: cost.memoryInUse, errors: cost.errors,
      timePerAction: timePerAction)
  }

  static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
  }

  /// `2.1 µs`, `1.3 ms`.
  static func time(_ duration: Duration?) -> String {
    guard let duration else { return "—" }
    let ns = Double(nanoseconds(duration))
    if ns < 1_000 { return "\(Int(ns)) ns" }
    if ns < 1_000_000 { return String(format: "%.1f µs", ns / 1_000) }
    return String(format: "%.1f ms", ns / 1_000_000)
  }

  /// `212 KiB`, `3.4 MiB`.
  static func bytes(_ count: Int) -> String {
    count < 1 << 20 ? "\(count >> 10) KiB" : String(format: "%.1f MiB", Double(count) / Double(1 << 20))
  }
}

/// One JSON object per line; each plugin's events carry `"plugin"`.
@MainActor
final class JSONHostOutput: HostOutput {
  private let json = JSONSessionOutput()
  var hostOutput: SessionOutput { json }
  private var outputs: [String: JSONSessionOutput] = [:]

  func output(for plugin: String) -> SessionOutput { jsonOutput(for: plugin) }

  private func jsonOutput(for plugin: String) -> JSONSessionOutput {
    if let output = outputs[plugin] { return output }
    let output = JSONSessionOutput(plugin: plugin)
    outputs[plugin] = output
    return output
  }

  private func emit(_ plugin: String, _ event: HostEvent) {
    jsonOutput(for: plugin).emit(event)
  }

  func loaded(_ plugin: Plugin, view: String?) {
    emit(plugin.name, .loaded(PluginSummary.figures(plugin), feature: plugin.feature.name, state: plugin.state.value, view: view))
  }

  func reloaded(_ plugin: Plugin) {
    emit(plugin.name, .reloaded(version: plugin.manifest.version, granted: plugin.grants.capabilities.luaValue))
  }

  func unloaded(_ name: String) {
    emit(name, .unloaded)
  }

  func failed(_ error: PluginError, reloading: Bool) {
    emit(error.plugin, .failed(
      kind: error.kind.rawValue, message: error.message, file: error.file, line: error.line, reloading: reloading,
      folder: error.folder.path))
  }

  func list(_ plugins: [Plugin]) {
    json.emit(.plugins(plugins.map { ($0.name, PluginSummary.figures($0)) }))
  }

  var pluginOutputs: [SessionOutput] { Array(outputs.values) }
}

/// Text for a person at the shell.
@MainActor
final class TextHostOutput: HostOutput {
  let hostOutput: SessionOutput = TextSessionOutput()
  private var outputs: [String: TextSessionOutput] = [:]
  let terminal = Terminal.standardOutput

  func output(for plugin: String) -> SessionOutput {
    if let output = outputs[plugin] { return output }
    let output = TextSessionOutput(plugin: plugin)
    outputs[plugin] = output
    return output
  }

  func loaded(_ plugin: Plugin, view: String?) {
    let manifest = plugin.manifest
    var line = terminal.green("✔ ") + terminal.bold(plugin.name) + " \(manifest.version)  " + terminal.dim(plugin.feature.name)
    line += terminal.dim("  asks for \(manifest.capabilities)")
    if plugin.grants.capabilities != manifest.capabilities {
      line += terminal.yellow("  granted \(plugin.grants.capabilities)")
    }
    print(line)
  }

  func reloaded(_ plugin: Plugin) {
    print(terminal.green("↻ ") + terminal.bold(plugin.name) + " \(plugin.manifest.version) reloaded")
  }

  func unloaded(_ name: String) {
    print(terminal.dim("⏏ \(name) unloaded"))
  }

  func failed(_ error: PluginError, reloading: Bool) {
    let what = reloading ? "did not reload (the running version keeps serving)" : "did not load"
    printError(Terminal.standardError.red("✘ \(error.plugin) \(what): ") + error.description)
  }

  func list(_ plugins: [Plugin]) {
    let header = ["plugin", "status", "version", "grants", "actions", "p50", "p99", "effects", "memory", "errors"]
    let rows = plugins.map { plugin -> [String] in
      let cost = plugin.accounting
      return [
        plugin.name, plugin.status.rawValue, plugin.manifest.version, plugin.grants.capabilities.description,
        "\(cost.actions)", PluginSummary.time(cost.p50), PluginSummary.time(cost.p99), "\(cost.effectsRunning)",
        PluginSummary.bytes(cost.memoryInUse), "\(cost.errors)",
      ]
    }
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
        .joined(separator: "  ")
    }
    print(terminal.dim(line(header)))
    for row in rows { print(line(row)) }
    if plugins.isEmpty { print(terminal.dim("(no plugin loaded)")) }
  }

  var pluginOutputs: [SessionOutput] { Array(outputs.values) }
}
