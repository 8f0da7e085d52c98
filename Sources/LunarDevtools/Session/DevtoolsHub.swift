import Foundation
import LuaBridge

/// The devtools of one session: the bounded history of what happened, the pages connected to it,
/// and what they ask for.
///
/// A host reports each action with ``record(_:action:state:view:note:)`` while it is observed. A
/// hub told ``observeFromStart()`` observes its host from then on, so a page that connects late
/// sees the session from its start (as far as the history bound keeps it); otherwise the hub calls
/// its host's ``DevtoolsHost/observe(_:)`` with itself when the first page connects and with `nil`
/// when the last one leaves, so an unwatched session pays nothing, and the page sees the session
/// from the moment it connected.
///
/// Entries are sent to pages as a summary (source, action, errors); the state, the view and the
/// diff are sent only for the entry a page selects, so a big state costs nothing until looked at.
@MainActor
public final class DevtoolsHub {
  /// The feature's script, written in exported recordings.
  public let feature: String
  /// The feature's name, which the page shows.
  public let name: String
  /// The session's name among those of a host (a plugin's), or `nil` when it is the only one.
  public let session: String?
  /// Seed of `math.random`, written in exported recordings.
  public let seed: UInt64
  /// The feature's Lua clients (`factClient`), written in exported recordings.
  public var luaClients: [String] = []
  /// The app whose session this is.
  public weak var host: (any DevtoolsHost)?
  private(set) var history: DevtoolsHistory
  private(set) var effects: [DevtoolsEffectEvent] = []
  private var clients: [Int: AsyncStream<String>.Continuation] = [:]
  /// Messages for every page, sent together at most every ``batchInterval``: a fast stream of
  /// actions costs one WebSocket message per batch, not per action.
  private var outbox: [String] = []
  private var flushScheduled = false
  /// Batches a page may fall behind by; past it, the page is disconnected (it reconnects and
  /// catches up from the log) rather than holding ever more memory.
  nonisolated static let backlogLimit = 1000
  /// How long messages wait to be sent with the next ones: shorter than a person notices.
  static let batchInterval: Duration = .milliseconds(20)
  private var nextClient = 1
  private var nextEntry = 1
  private var nextEffect = 1
  /// Effects started and not yet ended.
  private var running: Set<Int> = []
  /// Dependency calls while the host was observed, each after the entry that was the latest then.
  private(set) var dependencyCalls: [(after: Int, line: LuaValue)] = []
  private let started = ContinuousClock.now
  /// Whether the host is observed from the session's start, pages connected or not.
  private(set) var observesFromStart = false

  /// - Parameters:
  ///   - feature: The feature's script, as recordings name it.
  ///   - name: The feature's name, shown by the page (its script when `nil`).
  ///   - session: Its name among the sessions of a host (a plugin's name).
  ///   - historyLimit: Entries kept; the oldest are forgotten first.
  public init(
    feature: String, name: String? = nil, session: String? = nil, seed: UInt64 = 0, historyLimit: Int = 1000
  ) {
    self.feature = feature
    self.session = session
    self.name = name ?? feature
    self.seed = seed
    self.history = DevtoolsHistory(limit: historyLimit)
  }

  /// Whether the host reports to the hub: from the start (``observeFromStart()``), or while a page
  /// is connected.
  public var isObserved: Bool { observesFromStart || !clients.isEmpty }

  /// Observes the host from now on, pages connected or not: the log starts with the state now (a
  /// `started` entry), and a page that connects later sees every action since, as far as the
  /// history bound keeps them.
  ///
  /// Called again (a new host took the session over), it tells the new host to report.
  public func observeFromStart() {
    guard let host else { return }
    // NB: pages connected already had the host report, and their log has its `connected` entry.
    let watchedAlready = !observesFromStart && !clients.isEmpty
    observesFromStart = true
    host.observe(self)
    guard !watchedAlready, history.last == nil else { return }
    let (state, view) = host.snapshot()
    record(.started, action: nil, state: state, view: view, note: "the session started")
  }

  /// The entries kept, oldest first.
  public var entries: [DevtoolsEntry] { Array(history.entries) }

  // MARK: - What the host reports

  /// Adds an entry: an action and the state after it, or (with `action` nil) a step such as a reload.
  ///
  /// - Parameter view: The view after it; `nil` keeps the previous entry's when the state is unchanged.
  @discardableResult
  public func record(
    _ source: DevtoolsSource, action: LuaValue?, state: LuaValue, view: String?, note: String? = nil
  ) -> Int {
    let id = nextEntry
    nextEntry += 1
    let view = view ?? (history.last?.state == state ? history.last?.view : nil)
    let entry = DevtoolsEntry(
      id: id, source: source, action: action, note: note, state: state, view: view, errors: [],
      time: now)
    if let dropped = history.append(entry) { broadcast(DevtoolsMessage.forgotten(through: dropped.id)) }
    broadcast(DevtoolsMessage.entry(entry))
    if source == .effect, let action {
      addEffectEvent(effect: 0, status: .sent, entry: id, actionType: action.typeName, origin: nil)
    }
    return id
  }

  /// Shows `error` at the latest entry (the action during which it happened).
  public func recordError(_ error: DevtoolsError) {
    guard let id = history.last?.id else { return }
    history.addError(error, toEntry: id)
    broadcast(DevtoolsMessage.error(error, entry: id))
  }

  /// Notes a dependency call and its result (`result`, or `error`, or `cancelled`), for exported
  /// recordings: they answer replays and the mocks of exported tests.
  public func recordDependency(_ name: String, arguments: [LuaValue], result: LuaValue?, error: String?, cancelled: Bool) {
    guard isObserved, let after = history.last?.id else { return }
    var line: [LuaString: LuaValue] = [
      "kind": "dependency", "name": .text(name), "arguments": .array(arguments), "t": .number((now * 1000).rounded() / 1e6),
    ]
    if cancelled {
      line["cancelled"] = true
    } else if let error {
      line["error"] = .text(error)
    } else {
      line["result"] = result ?? .nil
    }
    dependencyCalls.append((after, .table(line)))
    // NB: calls of forgotten entries are forgotten with them.
    if let first = history.entries.first?.id, let oldest = dependencyCalls.first?.after, oldest < first,
      dependencyCalls.count > history.limit
    {
      dependencyCalls.removeAll { $0.after < first }
    }
  }

  /// How many effects started and have not ended.
  var effectsRunning: Int { running.count }

  /// Notes that the action of entry `entry` started effects; returns the number to finish them with.
  public func effectStarted(entry: Int?, actionType: String, origin: String? = nil) -> Int {
    let id = nextEffect
    nextEffect += 1
    running.insert(id)
    addEffectEvent(effect: id, status: .started, entry: entry, actionType: actionType, origin: origin)
    return id
  }

  /// Notes that the effects numbered `effect` ended.
  public func effectEnded(_ effect: Int, cancelled: Bool) {
    running.remove(effect)
    let started = effects.last { $0.effect == effect && $0.status == .started }
    addEffectEvent(
      effect: effect, status: cancelled ? .cancelled : .finished, entry: started?.entry,
      actionType: started?.actionType ?? "?", origin: started?.origin)
  }

  private func addEffectEvent(effect: Int, status: DevtoolsEffectStatus, entry: Int?, actionType: String, origin: String?) {
    let event = DevtoolsEffectEvent(
      effect: effect, status: status, entry: entry, actionType: actionType, origin: origin, time: now)
    // NB: the timeline is bounded like the log: a long run keeps a flat memory.
    if effects.count >= history.limit * 2 { effects.removeFirst(effects.count - history.limit) }
    effects.append(event)
    broadcast(DevtoolsMessage.effect(event))
  }

  /// Milliseconds since the devtools started.
  var now: Double {
    let elapsed = ContinuousClock.now - started
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
  }

  // MARK: - Pages

  /// Registers a page; returns its number and the messages to send it, starting with the session so far.
  public func connect() -> (client: Int, messages: AsyncStream<String>) {
    let id = nextClient
    nextClient += 1
    // NB: what is waiting for the pages already connected is in the log this one gets below.
    flush()
    let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(Self.backlogLimit))
    continuation.yield(DevtoolsMessage.hello(
      feature: name, session: session, sessions: host?.sessions ?? [], historyLimit: history.limit,
      forgotten: history.forgotten))
    for entry in history.entries { continuation.yield(DevtoolsMessage.entry(entry)) }
    for event in effects { continuation.yield(DevtoolsMessage.effect(event)) }
    let first = clients.isEmpty
    clients[id] = continuation
    if first, !observesFromStart, let host {
      // NB: the hook goes in only now; what happened while no page watched is summed up by the state.
      host.observe(self)
      let (state, view) = host.snapshot()
      let note = history.last == nil ? "the page connected" : "a page connected again (actions meanwhile are not shown)"
      record(.connected, action: nil, state: state, view: view, note: note)
    }
    return (id, stream)
  }

  /// Forgets a page; when it was the last, the host stops reporting.
  public func disconnect(_ client: Int) {
    clients.removeValue(forKey: client)?.finish()
    if clients.isEmpty, !observesFromStart { host?.observe(nil) }
  }

  private func broadcast(_ message: String) {
    guard !clients.isEmpty else { return }
    outbox.append(message)
    guard !flushScheduled else { return }
    flushScheduled = true
    Task { @MainActor [weak self] in
      try? await Task.sleep(for: Self.batchInterval)
      self?.flush()
    }
  }

  /// Sends what is waiting to every page, as one message: a JSON array.
  private func flush() {
    flushScheduled = false
    guard !outbox.isEmpty else { return }
    let batch = "[" + outbox.joined(separator: ",") + "]"
    outbox.removeAll(keepingCapacity: true)
    for (client, continuation) in clients {
      if case .dropped = continuation.yield(batch) { disconnect(client) }
    }
  }

  private func send(_ message: String, to client: Int) {
    // NB: after what was broadcast before it, so the page sees things in the order they happened.
    flush()
    clients[client]?.yield(message)
  }

  // MARK: - What pages ask

  /// Handles one message of a page (`{"type":"select","id":3}`, `{"type":"dispatch","action":"increment"}`…).
  public func receive(_ text: String, from client: Int) {
    let request: DevtoolsRequest
    do {
      request = try DevtoolsRequest(text)
    } catch {
      send(DevtoolsMessage.notice("not understood: \(error)", isError: true), to: client)
      return
    }
    switch request {
    case let .select(id):
      send(detail(of: id), to: client)
    case let .dispatch(text):
      do {
        try host?.dispatch(text)
      } catch {
        send(DevtoolsMessage.notice("\(error)", isError: true), to: client)
      }
    case let .resume(id):
      guard let entry = history[id: id] else {
        send(DevtoolsMessage.notice("entry #\(id) is no longer kept", isError: true), to: client)
        return
      }
      do {
        try host?.resume(entry.state)
      } catch {
        send(DevtoolsMessage.notice("\(error)", isError: true), to: client)
      }
    case let .skip(id, skipped):
      do {
        try skip(id, skipped)
      } catch {
        send(DevtoolsMessage.notice("cannot \(skipped ? "skip" : "unskip") #\(id): \(error)", isError: true), to: client)
      }
    case .exportRecording:
      send(DevtoolsMessage.export(format: "record", text: DevtoolsRecording.write(self)), to: client)
    case .exportTest:
      do {
        let test = try host?.exportTest(recording: DevtoolsRecording.write(self)) ?? ""
        send(DevtoolsMessage.export(format: "test", text: test), to: client)
      } catch {
        send(DevtoolsMessage.notice("cannot export as a test: \(error)", isError: true), to: client)
      }
    case let .importRecording(text):
      do {
        let count = try DevtoolsRecording.read(text, into: self)
        send(DevtoolsMessage.notice("imported \(count) step(s)", isError: false), to: client)
      } catch {
        send(DevtoolsMessage.notice("cannot import: \(error)", isError: true), to: client)
      }
    }
  }

  /// Skips (or unskips) the action of entry `id`: the states from it on are recomputed from the
  /// recorded actions, each reduced by the host from the state before it without running its
  /// effects (the actions effects sent are in the log and are reduced again where they were), and
  /// the store is put in the last one. Pages are told which entries are skipped now.
  ///
  /// Nothing changes when the host cannot reduce or change its store: the error says why.
  func skip(_ id: Int, _ skipped: Bool) throws {
    guard let start = history.index(of: id) else { throw DevtoolsRequestError("entry #\(id) is no longer kept") }
    let entries = history.entries
    guard entries[start].isReducedAction else {
      throw DevtoolsRequestError("entry #\(id) is not an action the session reduced (\(entries[start].source.rawValue))")
    }
    guard entries[start].skipped != skipped else { return }
    guard start > 0 else { throw DevtoolsRequestError("the state before entry #\(id) is no longer kept") }
    guard let host else { throw DevtoolsRequestError("no session is attached") }
    var state = entries[start - 1].state
    var states: [LuaValue] = []
    states.reserveCapacity(entries.count - start)
    for index in start..<entries.count {
      let entry = entries[index]
      let isSkipped = index == start ? skipped : entry.skipped
      if entry.isReducedAction, let action = entry.action {
        if !isSkipped { state = try host.reduce(state, action) }
      } else if !entry.keepsState {
        state = entry.state
      }
      states.append(state)
    }
    if state != entries[entries.count - 1].state { try host.replaceState(state) }
    // NB: looked up again: the host reports nothing while putting its store in the state, but the
    //     log is its own to keep straight.
    guard let first = history.index(of: id) else { return }
    history.recompute(from: first, states: states, skipped: id, skipped)
    broadcast(DevtoolsMessage.skipped(history.entries.filter(\.skipped).map(\.id), recomputedFrom: id))
  }

  /// The state, view and diff of entry `id`: computed now, for the page that asked.
  func detail(of id: Int) -> String {
    guard let entry = history[id: id] else {
      return DevtoolsMessage.notice("entry #\(id) is no longer kept", isError: true)
    }
    var view = entry.view
    if view == nil, entry.source == .imported || entry.recomputed { view = host?.render(entry.state) }
    let previous = history.previous(of: id)
    let difference = previous.flatMap { LuaNotation.block.diff($0.state, entry.state) }
    return DevtoolsMessage.detail(entry, view: view, diff: difference, before: previous?.state)
  }
}

extension LuaValue {
  /// The `type` of an action, or a short description of a value without one.
  var typeName: String {
    self[LuaString("type")].stringValue ?? String(describing: self).prefix(40).description
  }
}
