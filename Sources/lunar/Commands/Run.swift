import ArgumentParser
import Foundation
import IssueReporting
import LuaBridge
import LuaFeatures
import LunarDevtools
import LunarHostSupport
import LunarPlugins

/// `lunar run PATH`: runs a feature in a store, fed by actions typed (or piped) in.
struct Run: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run a feature: type actions, watch the state change.",
    discussion: """
      PATH is a feature script (a .lua file), or a folder holding feature.lua (or, failing that, \
      main.lua). Modules it requires are looked up in the same folder.

      At a terminal, type an action per line:
        increment                          a bare type
        add title=milk tags={ "a" }        a type and fields
        { type = "add", title = "milk" }   a Lua table literal
        {"type": "add", "title": "milk"}   a JSON object
      A line starting with { is JSON when its first key is a quoted string followed by a colon \
      (which Lua never writes), and a Lua table literal otherwise. In key=value, a value is read \
      as a Lua literal (2, 0x10, 2.5, true, nil, "two words", 'x', { "a", "b" }), and is a string \
      otherwise (title=milk). Lua text runs in a scratch sandbox of its own, under the limits.

      You see the action, the state's diff, effects starting and finishing, and errors with \
      file:line. :help lists the commands (:state, :history, :deps, :wait, :quit …).

      Actions show as you would type them. A child's action is typed and shown as a path from \
      the root: dogs.breedTapped breed=hound, todos[1].toggle (the element of id 1), \
      path[0].load. Tab completes action names, paths, fields and : commands.

      Output stays within limits: tables deeper than --depth show as {…}, a state, diff or view \
      longer than --lines is cut, and :expand shows the last one whole. --output compact prints \
      one line per action with what it changed (⇠ tick  count = 3); the default, auto, does so \
      for an action that effects send again within a second (a fast timer). :mute TYPE hides an \
      action type (or a child's actions: :mute dogs) and :unmute TYPE shows it again. :reset \
      goes back to the initial state, cancelling running effects (piped input takes it too). \
      ctrl-C clears the line; twice on an empty line, it leaves.

      The prompt edits the line as a shell does (arrows, ctrl-A/E/K/W, ctrl-L clears the screen; \
      ~/.editrc applies) and keeps a history per feature folder, in your home: up and down recall \
      earlier lines, across runs too. It is kept in $XDG_STATE_HOME/lunar/history/ \
      (~/.local/state/lunar/history/), in a file named after the folder's path with each / as %. \
      What effects print while you type shows above the line, which is drawn again below it. \
      :quit or ctrl-D leaves at once, cancelling the effects still running.

      With --json, or when standard input is not a terminal, each input line is an action in any \
      of these forms, and every event is one JSON object per line on standard output:
        {"event":"ready","state":…} {"event":"action",…} {"event":"effect",…}
        {"event":"state","patch":[{"op":"set","path":["count"],"value":1}],…}
        {"event":"error","message":…,"file":…,"line":…}
        {"event":"warning","message":…}
      The ready event carries the whole state, and each state event what changed, in order: \
      "set" puts value at path (keys from the root; array positions count from 1, and count + 1 \
      appends), "remove" removes the key at path. --full-state puts the whole state in each state \
      event instead; --view adds the feature's view when it changed.

      At the end of input, lunar waits for running effects (at most --timeout seconds) and exits \
      0, or 1 if an error occurred; a :quit line leaves at once, cancelling them. Without \
      --keep-going it stops at the first error. A value \
      JSON cannot hold (NaN, text that is not UTF-8) is an error event of kind "output", and the \
      run goes on.

      With --watch, saving the script or a module it requires reloads the feature while it runs: \
      the state is kept (the script's migrate(state), if any, adapts it; a warning names the \
      fields initial gained or lost that the kept state lacks or has), the next action uses the \
      new reducer, and effects already running finish with the old code. A version that does not \
      load is reported with file:line and the running one keeps serving:
        {"event":"reload","ok":true,"ms":4.2,"files":["feature.lua"]}
        {"event":"reload","ok":false,"kind":"load","file":"feature.lua","line":12,…}
      A feature that does not load when --watch starts is reported, and waited for: saving a Lua \
      file of its folder tries again, and the run starts once it loads.

      Examples:
        lunar run examples/counter
        printf 'increment\\nincrement\\n' | lunar run examples/counter --json
      """
  )

  @Argument(help: "A feature script, or a folder with feature.lua or main.lua.")
  var path: String

  @OptionGroup var format: JSONOption

  @OptionGroup var dependencies: DependencyOption

  @OptionGroup var waiting: TimeoutOption

  @Flag(help: "In JSON events, carry the whole state after each action instead of what changed.")
  var fullState = false

  @Flag(help: "In JSON events, carry the feature's view when it changed (rendered on every change).")
  var view = false

  @Flag(help: "Go on after an error (input, reducer or effect) instead of stopping.")
  var keepGoing = false

  @Option(help: ArgumentHelp("Record the session (actions, dependency results, states) as JSON lines in this file.", valueName: "file"))
  var record: String?

  @OptionGroup var random: SeedOption

  @OptionGroup var watching: WatchOption

  @Option(help: ArgumentHelp("Input actions :history keeps (the oldest are forgotten first).", valueName: "count"))
  var history = 1000

  @OptionGroup(title: "Devtools")
  var devtools: DevtoolsOptions

  @OptionGroup(title: "Limits")
  var limits: HostLimitOptions

  @OptionGroup(title: "Data")
  var data: DataLimitOptions

  @OptionGroup(title: "Output")
  var colors: ColorOptions

  @OptionGroup(title: "Output")
  var display: OutputOptions

  func validate() throws {
    guard history >= 0 else { throw ValidationError("--history must be 0 or more, got \(history)") }
  }

  @MainActor
  func run() async throws {
    let location: FeatureLocation
    do {
      location = try FeatureLocation(resolving: path)
    } catch {
      throw ValidationError("\(error)")
    }
    let recorder = try record.map { try Recorder(path: $0) }
    let scripted = format.json || !StandardInput.isTerminal
    let output: SessionOutput = scripted ? JSONSessionOutput(fullState: fullState, showsView: view) : TextSessionOutput(display: display.display)
    // NB: what the core reports (a shared file renamed aside or not readable) is part of the run.
    let issues = RunIssueReporter(output: output)
    IssueReporters.current = [issues]
    // NB: the feature's storage document and shared files live in a folder tied to its folder,
    //     within one quota, as a plugin's do.
    let featureData = HostDependencies.data(for: location.root, limit: data.bytes)
    HostDependencies.noteEarlierData(of: location.root, now: featureData)
    let tap = devtools.enabled ? DevtoolsDependencyTap() : nil
    let mode = self.dependencies.deps
    // NB: run is a host of one plugin, the user's own feature: what it reaches is offered here,
    //     recorded (--record) and shown to the devtools (--devtools) on its way.
    // NB: with --seed, deps.uuid() draws from it too; without, ids stay random across runs.
    let uuids = random.given.map(SeededUUIDs.init(seed:))
    let host = PluginHost(limits: limits.limits, randomSeed: random.seed) { _ in
      var dependencies = HostDependencies.dependencies(mode: mode, root: location.root, data: featureData)
      if let uuids { dependencies.drawUUIDs(from: uuids) }
      if let recorder { dependencies = recorder.recording(dependencies) }
      if let tap { dependencies = tap.tapping(dependencies) }
      return dependencies
    }
    // NB: until the session shows the plugin: why it did not load, and what its script printed
    //     while loading (an event like the others, so that it does not break the JSON stream).
    host.onEvent = { event in
      switch event {
      case let .failed(error, _): output.error(error.loadError(of: location))
      case let .printed(_, text): output.printed(text)
      case let .error(_, error): output.error(error)
      case let .warning(_, warning): output.warning(warning)
      case .loaded, .reloaded, .unloaded: break
      }
    }
    let plugin: Plugin
    do {
      plugin = try host.load(feature: location, data: featureData)
    } catch {
      // NB: with --watch, a feature broken at start is one being written: wait for it.
      guard watching.watch, let fixed = await BrokenFeatureWait.load(location, data: featureData, host: host, output: output)
      else { throw ExitCode(1) }
      plugin = fixed
    }
    if let text = output as? TextSessionOutput {
      // NB: the banner suggests the feature's own actions, when it declares them.
      // NB: a feature that only composes suggests the actions of its children there from the start.
      let initial = plugin.luaHost.initialState(of: plugin.feature).value
      let paths = plugin.feature.actionPaths.filter { entry in
        let first = entry.path.prefix { $0 != "." }
        return !entry.path.contains("[") && (first.count == entry.path.count || !initial[LuaString(String(first))].isNil)
      }
      let own = paths.contains { !$0.path.contains(".") } ? paths.filter { !$0.path.contains(".") } : paths
      let bare = own.first { $0.fields.isEmpty }.map(\.path)
      let withFields = own.first { !$0.fields.isEmpty }.map { "\($0.path) \($0.fields[0])=…" }
      text.examples = [bare, withFields].compactMap { $0 }
    }
    let session = RunSession(
      host: host, plugin: plugin, output: output, keepGoing: keepGoing, recorder: recorder, historyLimit: history,
      issues: issues
    )
    recorder?.begin(
      feature: location.script.path, seed: random.seed, clients: Recorder.clients(of: plugin.feature), state: session.store.state,
      storage: Recorder.storageContents(at: HostDependencies.storageFile(of: featureData))
    )
    // NB: opened before anything is printed, so that all output goes above the line being typed.
    let prompt = scripted ? nil : Prompt.start(prompt: "> ", historyFile: PromptHistory.file(for: location.root))
    if let prompt {
      prompt.setCompletion(session.completion)
      session.onReload = { [weak session, weak prompt] in
        if let session { prompt?.setCompletion(session.completion) }
      }
    }
    // NB: the files are watched before `ready` is shown: a save made as soon as it shows is seen.
    if watching.watch { session.startWatching() }
    session.start()
    let server: DevtoolsServer?
    do {
      server = try await serveDevtools(session, feature: location.script.path, tap: tap)
    } catch {
      prompt?.close()
      throw error
    }
    defer { if let server { Task { await server.stop() } } }
    let stillRunning: Int
    if let prompt {
      stillRunning = await session.serve(prompt.lines, scripted: false, printsPrompt: false, timeout: waiting.timeout)
      prompt.close()
    } else {
      stillRunning = await session.serve(StandardInput.lines(), scripted: scripted, printsPrompt: !scripted, timeout: waiting.timeout)
    }
    recorder?.end(running: stillRunning)
    if session.hadErrors { throw ExitCode(1) }
  }

  /// Serves the devtools page when `--devtools` asks for it, saying where on standard error.
  @MainActor
  private func serveDevtools(_ session: RunSession, feature: String, tap: DevtoolsDependencyTap?) async throws -> DevtoolsServer? {
    guard let port = devtools.port else { return nil }
    let hub = DevtoolsHub(feature: feature, name: session.feature.name, seed: random.seed, historyLimit: devtools.history)
    // NB: the session inspects, and the tap reports dependency calls, only while a page looks.
    session.devtools = DevtoolsBinding(subject: session, hub: hub, onObserve: { [weak session] binding, hub in
      session?.inspector = hub == nil ? nil : binding
      tap?.watch(hub)
    })
    do {
      let server = try await DevtoolsServer.start(hub: hub, port: UInt16(port))
      printError(Terminal.standardError.dim("devtools: \(server.url)"))
      return server
    } catch {
      throw ValidationError("\(error)")
    }
  }
}
