import CasePathsCore
import Clocks
import Composable
import Dependencies
import Foundation
import IdentifiedCollections

/// The cancellation id of the child's effect (`"work"` in Lua), which the parent names too.
enum SpecCancelID { case work }

/// The child of every composition in the spec, written with `Composable`: the same feature as
/// `Fixtures/CompositionSpec/child.lua`. Its state is `{count}` (and `{id, count}` as a row).
struct SpecChild: Reducer {
  struct State: Equatable, Sendable, Encodable, Identifiable {
    /// A row's id, or a presented child's identity (another id is another child).
    var id: Int?
    var count = 0
    /// The id of a row; only rows have one.
    var rowID: Int { id ?? 0 }
  }

  enum Action: String, Equatable, Sendable {
    case increment, start, stop, tick, close, closeLater, ping, quit
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .start, .quit:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
      .cancellable(id: SpecCancelID.work)
    case .stop:
      return .cancel(id: SpecCancelID.work)
    case .tick:
      state.count += 10
      return .none
    case .close:
      return .run { [dismiss] _ in await dismiss() }
    case .ping:
      return .none
    case .closeLater:
      return .concatenate(
        .run { [clock] _ in try await clock.sleep(for: .seconds(1)) },
        .run { [dismiss] _ in await dismiss() }
      )
    }
  }
}

/// The button of the spec's alert (`{type = "confirm"}` in Lua).
enum SpecAlertAction: String, Equatable, Sendable { case confirm }

/// The destination of the spec's parent: one of a child or an alert (`lunar.destination("destination",
/// { child = Child, alert = lunar.alert })` in Lua), encoded as Lua holds it: `{screen, state}`.
struct SpecDestination: Reducer {
  enum State: Equatable, Sendable, Encodable, CasePathable {
    case child(SpecChild.State)
    case alert(AlertState<SpecAlertAction>)

    /// The spec's alert: one button sending `confirm`, one cancelling.
    static var confirmation: Self {
      .alert(AlertState { TextState("Sure?") } actions: {
        ButtonState(role: .destructive, action: .confirm) { TextState("Yes") }
        ButtonState(role: .cancel) { TextState("No") }
      })
    }

    private enum CodingKeys: String, CodingKey { case screen, state }
    private enum AlertKeys: String, CodingKey { case kind, title, message, buttons }
    private enum ButtonKeys: String, CodingKey { case label, role, action }

    /// As `lunar.alert` builds it: `{kind = "alert", title, message?, buttons = {{label, role?, action?}}}`.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      switch self {
      case let .child(child):
        try container.encode("child", forKey: .screen)
        try container.encode(child, forKey: .state)
      case let .alert(alert):
        try container.encode("alert", forKey: .screen)
        var fields = container.nestedContainer(keyedBy: AlertKeys.self, forKey: .state)
        try fields.encode("alert", forKey: .kind)
        try fields.encode(alert.title.string, forKey: .title)
        try fields.encodeIfPresent(alert.message?.string, forKey: .message)
        var buttons = fields.nestedUnkeyedContainer(forKey: .buttons)
        for button in alert.buttons {
          var item = buttons.nestedContainer(keyedBy: ButtonKeys.self)
          try item.encode(button.label.string, forKey: .label)
          try item.encodeIfPresent(button.role.map { $0 == .cancel ? "cancel" : "destructive" }, forKey: .role)
          try item.encodeIfPresent(button.action.action.map { ["type": $0.rawValue] }, forKey: .action)
        }
      }
    }

    struct AllCasePaths {
      var child: AnyCasePath<State, SpecChild.State> {
        AnyCasePath(embed: State.child) { if case let .child(s) = $0 { s } else { nil } }
      }
      var alert: AnyCasePath<State, AlertState<SpecAlertAction>> {
        AnyCasePath(embed: State.alert) { if case let .alert(s) = $0 { s } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum Action: Equatable, Sendable, CasePathable {
    case child(SpecChild.Action)
    case alert(SpecAlertAction)

    struct AllCasePaths {
      var child: AnyCasePath<Action, SpecChild.Action> {
        AnyCasePath(embed: Action.child) { if case let .child(a) = $0 { a } else { nil } }
      }
      var alert: AnyCasePath<Action, SpecAlertAction> {
        AnyCasePath(embed: Action.alert) { if case let .alert(a) = $0 { a } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { SpecChild() }
  }
}

/// The parent of the spec, written with `Composable`'s operators: the same feature as
/// `Fixtures/CompositionSpec/parent.lua`. A child of every kind, then its own reducer, which
/// records what it saw of them.
struct SpecParent: Reducer {
  struct State: Equatable, Sendable, Encodable {
    var counter = SpecChild.State()
    var rows = IdentifiedArray(
      uniqueElements: [SpecChild.State(id: 1), SpecChild.State(id: 2)], id: \SpecChild.State.rowID)
    @PresentationState var detail: SpecChild.State?
    var path = StackState<SpecChild.State>()
    @PresentationState var destination: SpecDestination.State?
    var confirmed: Bool?
    var parentSaw: Int?
    var parentSawDismiss: Int?
    var popped: Int?
    var pinged: Int?

    private enum CodingKeys: String, CodingKey {
      case counter, rows, detail, path, destination, confirmed, parentSaw, parentSawDismiss, popped, pinged
    }

    /// A stack element as Lua holds it: `{id, screen, state}`.
    private struct Element: Encodable {
      let id: Int
      let screen = "child"
      let state: SpecChild.State
    }

    /// The state as the Lua execution's table reads in JSON.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(counter, forKey: .counter)
      try container.encode(Array(rows), forKey: .rows)
      try container.encodeIfPresent(detail, forKey: .detail)
      try container.encode(path.ids.map { Element(id: $0.rawValue, state: path[id: $0]!) }, forKey: .path)
      try container.encodeIfPresent(destination, forKey: .destination)
      try container.encodeIfPresent(confirmed, forKey: .confirmed)
      try container.encodeIfPresent(parentSaw, forKey: .parentSaw)
      try container.encodeIfPresent(parentSawDismiss, forKey: .parentSawDismiss)
      try container.encodeIfPresent(popped, forKey: .popped)
      try container.encodeIfPresent(pinged, forKey: .pinged)
    }
  }

  enum Action: Sendable, CasePathable {
    case counter(SpecChild.Action)
    case rows(IdentifiedAction<Int, SpecChild.Action>)
    case detail(PresentationAction<SpecChild.Action>)
    case path(StackAction<SpecChild.State, SpecChild.Action>)
    case destination(PresentationAction<SpecDestination.Action>)
    case open(id: Int?)
    case showChild(id: Int?)
    case showAlert
    case close, push, pop, clear, stopAll
    case remove(id: Int)
    case add(id: Int)

    struct AllCasePaths {
      var counter: AnyCasePath<Action, SpecChild.Action> {
        AnyCasePath(embed: Action.counter) { if case let .counter(action) = $0 { action } else { nil } }
      }
      var rows: AnyCasePath<Action, IdentifiedAction<Int, SpecChild.Action>> {
        AnyCasePath(embed: Action.rows) { if case let .rows(action) = $0 { action } else { nil } }
      }
      var detail: AnyCasePath<Action, PresentationAction<SpecChild.Action>> {
        AnyCasePath(embed: Action.detail) { if case let .detail(action) = $0 { action } else { nil } }
      }
      var path: AnyCasePath<Action, StackAction<SpecChild.State, SpecChild.Action>> {
        AnyCasePath(embed: Action.path) { if case let .path(action) = $0 { action } else { nil } }
      }
      var destination: AnyCasePath<Action, PresentationAction<SpecDestination.Action>> {
        AnyCasePath(embed: Action.destination) { if case let .destination(action) = $0 { action } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { SpecChild() }
    Reduce { state, action in
      switch action {
      case .counter(.increment):
        state.parentSaw = state.counter.count
      case let .rows(.element(id, .increment)):
        state.parentSaw = state.rows[id: id]?.count
      case let .rows(.element(id, .ping)):
        state.pinged = id
      case let .rows(.element(id, .quit)):
        state.rows.remove(id: id)
      case .detail(.presented(.quit)):
        state.detail = nil
      case let .path(.element(id, .quit)):
        state.path.pop(from: id)
      case .detail(.presented(.increment)):
        state.parentSaw = state.detail?.count
      case .detail(.dismiss):
        state.parentSawDismiss = state.detail?.count
      case let .path(.element(id, .increment)):
        state.parentSaw = state.path[id: id]?.count
      case let .path(.popFrom(id)):
        state.popped = id.rawValue
      case .destination(.presented(.alert(.confirm))):
        state.confirmed = state.destination != nil
      case let .showChild(id):
        state.destination = .child(SpecChild.State(id: id))
      case .showAlert:
        state.destination = .confirmation
      case let .open(id):
        state.detail = SpecChild.State(id: id)
      case .close:
        state.detail = nil
      case .push:
        state.path.append(SpecChild.State())
      case .pop:
        _ = state.path.popLast()
      case let .remove(id):
        state.rows.remove(id: id)
      case let .add(id):
        state.rows.append(SpecChild.State(id: id))
      case .clear:
        state.rows.removeAll()
      case .stopAll:
        return .cancel(id: SpecCancelID.work)
      case .counter, .rows, .detail, .path, .destination:
        break
      }
      return .none
    }
    .forEach(\.rows, action: \.rows) { SpecChild() }
    .ifLet(\.$detail, action: \.detail) { SpecChild() }
    .forEach(\.path, action: \.path) { SpecChild() }
    .ifLet(\.$destination, action: \.destination) { SpecDestination() }
  }
}

extension SpecParent.Action {
  /// The action a JSON action of the table names: `{type = "rows", id = 2, action = {type = "start"}}`
  /// is `.rows(.element(id: 2, action: .start))`; a child's `{type = "dismiss"}` is the presentation's
  /// `.dismiss`, or a stack's `.popFrom(id:)`; `{type = "path", action = {type = "push", id = 0}}` (no
  /// element id) is the stack's `.push(id:state:)`, and `popFrom` likewise.
  init(json: SpecJSON) throws {
    func child() throws -> SpecChild.Action {
      guard let name = json["action"]?["type"]?.string, let action = SpecChild.Action(rawValue: name) else {
        throw SpecError("no child action in \(json)")
      }
      return action
    }
    func id() throws -> Int {
      guard let id = json["id"]?.int else { throw SpecError("no id in \(json)") }
      return id
    }
    let isDismiss = json["action"]?["type"]?.string == "dismiss"
    switch json["type"]?.string {
    case "counter": self = .counter(try child())
    case "rows": self = .rows(.element(id: try id(), action: try child()))
    case "detail": self = isDismiss ? .detail(.dismiss) : .detail(.presented(try child()))
    case "path" where json["id"] == nil:
      // NB: a stack's own action (no element id beside it): `push` with its id, or `popFrom`.
      guard let id = json["action"]?["id"]?.int else { throw SpecError("no id in the stack action \(json)") }
      switch json["action"]?["type"]?.string {
      case "push": self = .path(.push(id: StackElementID(rawValue: id), state: SpecChild.State()))
      case "popFrom": self = .path(.popFrom(id: StackElementID(rawValue: id)))
      default: throw SpecError("a stack action is push or popFrom: \(json)")
      }
    case "path":
      let id = StackElementID(rawValue: try id())
      self = isDismiss ? .path(.popFrom(id: id)) : .path(.element(id: id, action: try child()))
    case "destination":
      if isDismiss { self = .destination(.dismiss); break }
      let inner = json["action"]?["action"]?["type"]?.string ?? ""
      switch json["action"]?["type"]?.string {
      case "child":
        guard let action = SpecChild.Action(rawValue: inner) else { throw SpecError("no child action in \(json)") }
        self = .destination(.presented(.child(action)))
      case "alert":
        guard let action = SpecAlertAction(rawValue: inner) else { throw SpecError("no alert action in \(json)") }
        self = .destination(.presented(.alert(action)))
      default: throw SpecError("a destination case the spec's feature does not have: \(json)")
      }
    case "showChild": self = .showChild(id: json["id"]?.int)
    case "showAlert": self = .showAlert
    case "open": self = .open(id: json["id"]?.int)
    case "close": self = .close
    case "push": self = .push
    case "pop": self = .pop
    case "clear": self = .clear
    case "stopAll": self = .stopAll
    case "remove": self = .remove(id: try id())
    case "add": self = .add(id: try id())
    default: throw SpecError("an action the spec's feature does not have: \(json)")
    }
  }

  /// This action in the table's notation (how the actions received from effects are compared).
  var json: SpecJSON {
    func wrapped(_ key: String, id: Int? = nil, _ child: String) -> SpecJSON {
      var fields: [String: SpecJSON] = ["type": .string(key), "action": .object(["type": .string(child)])]
      if let id { fields["id"] = .int(id) }
      return .object(fields)
    }
    switch self {
    case let .counter(action): return wrapped("counter", action.rawValue)
    case let .rows(.element(id, action)): return wrapped("rows", id: id, action.rawValue)
    case let .detail(.presented(action)): return wrapped("detail", action.rawValue)
    case .detail(.dismiss): return wrapped("detail", "dismiss")
    case let .path(.element(id, action)): return wrapped("path", id: id.rawValue, action.rawValue)
    case let .path(.popFrom(id)):
      return .object(["type": "path", "action": .object(["type": "popFrom", "id": .int(id.rawValue)])])
    case let .path(.push(id, _)): return .object(["type": "path", "push": .int(id.rawValue)])
    case let .destination(.presented(.child(action))):
      return .object(["type": "destination", "action": wrapped("child", action.rawValue)])
    case let .destination(.presented(.alert(action))):
      return .object(["type": "destination", "action": wrapped("alert", action.rawValue)])
    case .destination(.dismiss): return wrapped("destination", "dismiss")
    case let .showChild(id): return .object(id.map { ["type": "showChild", "id": .int($0)] } ?? ["type": "showChild"])
    case .showAlert: return .object(["type": "showAlert"])
    case let .open(id): return .object(id.map { ["type": "open", "id": .int($0)] } ?? ["type": "open"])
    case .close: return .object(["type": "close"])
    case .push: return .object(["type": "push"])
    case .pop: return .object(["type": "pop"])
    case .clear: return .object(["type": "clear"])
    case .stopAll: return .object(["type": "stopAll"])
    case let .remove(id): return .object(["type": "remove", "id": .int(id)])
    case let .add(id): return .object(["type": "add", "id": .int(id)])
    }
  }
}
