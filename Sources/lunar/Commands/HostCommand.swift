import ArgumentParser
import Foundation
import IssueReporting
import LuaFeatures
import LunarDevtools
import LunarHostSupport
import LunarPlugins

/// `lunar host [DIR]`: every plugin of a folder in one process, each in its own VM.
struct HostCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "host",
    abstract: "Run every plugin of a folder in one host, each in a VM of its own.",
    discussion: """
      DIR holds plugin folders: each has a plugin.lua (its name, version, Lua API version, entry \
      feature and the capabilities it asks for) or just a feature.lua (a plugin asking for \
      nothing). Each plugin runs in its own VM, with its own limits, and reaches only the \
      capabilities it was granted: what it asks for, minus what --deny takes away. A plugin that \
      fails to load is reported and the others run.

      At a terminal, a shell: :plugins lists the plugins (status, version, grants, actions, time \
      per action, effects, memory, errors), :use NAME picks the one your actions go to, and \
      actions are typed as in lunar run (increment, add title=milk, { type = "x" }). :help lists \
      the commands. The prompt edits lines and keeps their history as lunar run's does (one \
      history per plugins folder), and :quit or ctrl-D leaves at once.

      With --json, or when standard input is not a terminal, each input line is a JSON object:
        {"plugin": "counter", "action": {"type": "increment"}}
        {"plugin": "counter", "action": "add title=milk"}    (typed as at the shell)
        {"command": "list"}   {"command": "wait"}
        {"command": "reload", "plugin": "counter"}
        {"command": "unload", "plugin": "counter"}
        {"command": "load", "path": "plugins/dogs"}
      and every event is one JSON object per line, naming its plugin:
        {"event":"loaded","plugin":"dogs","version":"1.2.0","granted":…,"state":…}
        {"event":"action","plugin":"dogs",…} {"event":"state","plugin":"dogs",…}
        {"event":"effect",…} {"event":"error",…}
        {"event":"failed","plugin":"x","kind":"api","file":"plugin.lua","line":4,…}
        {"event":"reloaded",…} {"event":"unloaded",…}
        {"event":"plugins","plugins":[…]}
      The host keeps serving after any error; at the end of input it waits for running effects \
      (at most --timeout seconds) and exits 0, or 1 if an error occurred.

      With --watch, a plugin folder added to DIR is loaded, one removed is unloaded, and one whose \
      Lua files change is reloaded: the new version serves with the state the old one had, and a \
      version that does not load is reported while the old one keeps serving.

      Examples:
        lunar host                                  the plugins in examples/
        lunar host plugins --deny http --deny dogs:storage
        printf '{"plugin":"counter","action":"increment"}\\n' | lunar host examples
      """
  )

  @Argument(help: "A folder of plugin folders.")
  var folder: String = "examples"

  @OptionGroup var format: JSONOption

  @OptionGroup var watching: WatchOption

  @Option(
    name: .customLong("deny"),
    help: ArgumentHelp(
      "Deny a capability to every plugin (http), or to one (dogs:http). Repeat for more.",
      valueName: "[plugin:]capability"))
  var denied: [String] = []

  @OptionGroup var dependencies: DependencyOption

  @OptionGroup var waiting: TimeoutOption

  @OptionGroup var random: SeedOption

  @OptionGroup(title: "Data")
  var data: DataLimitOptions

  @OptionGroup(title: "Devtools")
  var devtools: DevtoolsOptions

  @OptionGroup(title: "Limits of each plugin's VM")
  var limits: HostLimitOptions

  @OptionGroup(title: "Output")
  var colors: ColorOptions

  func validate() throws {
    for entry in denied {
      let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
      guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else {
        throw ValidationError("--deny takes a capability (http) or a plugin and a capability (dogs:http), got '\(entry)'")
      }
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw ValidationError("no folder at \(folder): give a folder of plugin folders")
    }
  }

  /// The policy `--deny` describes: what each plugin asks for, minus what is denied.
  var policy: PluginPolicy {
    var everyone: Set<String> = []
    var byPlugin: [String: Set<String>] = [:]
    for entry in denied {
      let parts = entry.split(separator: ":").map(String.init)
      if parts.count == 2 { byPlugin[parts[0], default: []].insert(parts[1]) } else { everyone.insert(parts[0]) }
    }
    let shared = everyone
    return .denying(everyone, byPlugin: byPlugin) { plugin, capability in
      let option = shared.contains(capability) ? "--deny \(capability)" : "--deny \(plugin):\(capability)"
      return "lunar host was started with \(option); start it without to grant it"
    }
  }

  @MainActor
  func run() async throws {
    let scripted = format.json || !StandardInput.isTerminal
    let output: HostOutput = scripted ? JSONHostOutput() : TextHostOutput()
    let issues = RunIssueReporter(output: output.hostOutput)
    IssueReporters.current = [issues]
    let mode = dependencies.deps
    let host = PluginHost(policy: policy, limits: limits.limits, randomSeed: random.seed) { manifest in
      var dependencies = HostDependencies.dependencies(mode: mode, root: manifest.folder)
      // NB: a plugin's data is its own, whatever `$LUNAR_STORAGE` says for `lunar run`: the host
      //     offers `storage` in the plugin's data folder, within its quota.
      for name in dependencies.names where name.hasPrefix("storage.") { dependencies.remove(name) }
      return dependencies
    }
    host.dataLimit = data.bytes
    let root = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
    let session = HostSession(host: host, folder: root, output: output, scripted: scripted)
    let server = try await serveDevtools(session)
    defer { if let server { Task { await server.stop() } } }
    // NB: opened before the plugins load, so that all they print goes above the line being typed.
    let prompt = scripted ? nil : Prompt.start(prompt: "> ", historyFile: PromptHistory.file(for: root))
    session.start()
    if watching.watch { session.watch = host.watch(root) }
    if !scripted {
      output.list(host.all)
      output.note("type an action for the plugin in use, :use NAME to switch, :help for commands")
    }
    let left: Bool
    if let prompt {
      prompt.setPrompt(Self.prompt(session))
      left = await serve(session, lines: prompt.lines, prompt: prompt)
    } else {
      left = await serve(session, lines: StandardInput.lines(), prompt: nil)
    }
    // NB: a person leaving (:quit, ctrl-D) does not wait for effects: they end with the process.
    if !left {
      let stillRunning = await session.settle(timeout: .seconds(waiting.timeout))
      if stillRunning > 0 { output.note("\(stillRunning) effect(s) still running after \(waiting.timeout)s; stopping") }
    }
    session.watch?.cancel()
    prompt?.close()
    if session.hadErrors { throw ExitCode(1) }
  }

  /// Feeds the session lines until they end or `:quit`; returns whether a person left (`:quit`, or
  /// the end of input at a terminal).
  @MainActor
  private func serve(
    _ session: HostSession, lines: some AsyncSequence<StandardInput.Line, Never>, prompt: Prompt?
  ) async -> Bool {
    let scripted = session.scripted
    let printsPrompt = !scripted && prompt == nil
    if printsPrompt { printPrompt(session) }
    for await input in lines {
      guard case let .text(line) = input else {
        if let problem = input.problem { session.inputError(problem, line: "") }
        continue
      }
      guard await session.handle(line) else { return true }
      prompt?.setPrompt(Self.prompt(session))
      if printsPrompt {
        // NB: Give effects a moment so that what they do shows before the next prompt.
        _ = await session.settle(timeout: .milliseconds(50))
        printPrompt(session)
      }
    }
    return !scripted
  }

  /// Serves the plugins' devtools pages when `--devtools` asks for it, saying where on standard error.
  @MainActor
  private func serveDevtools(_ session: HostSession) async throws -> DevtoolsServer? {
    guard let port = devtools.port else { return nil }
    let pages = HostDevtools(historyLimit: devtools.history, seed: random.seed)
    pages.current = { [weak session] in session?.current }
    session.devtools = pages
    do {
      let server = try await DevtoolsServer.start(port: UInt16(port)) { name in pages.hub(named: name) }
      printError(Terminal.standardError.dim("devtools: \(server.url)"))
      return server
    } catch {
      throw ValidationError("\(error)")
    }
  }

  /// The shell's prompt: the plugin in use, then `> `.
  @MainActor
  private static func prompt(_ session: HostSession) -> String {
    "\(session.current ?? "")> "
  }

  @MainActor
  private func printPrompt(_ session: HostSession) {
    print(Self.prompt(session), terminator: "")
    flushStandardOutput()
  }
}
