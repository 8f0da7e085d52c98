import CustomDump
import Foundation

/// An alert as data: its title, message and buttons, and the actions the buttons send.
///
/// A feature presents an alert by setting a ``PresentationState`` of it, and handles its buttons as
/// actions; tests compare alerts like any state. No user interface is involved: a host renders it.
///
/// ```swift
/// struct State: Equatable {
///   @PresentationState var alert: AlertState<Action.Alert>?
/// }
/// enum Action {
///   case alert(PresentationAction<Alert>)
///   case deleteTapped
///   enum Alert { case confirmDeletion }
/// }
///
/// case .deleteTapped:
///   state.alert = AlertState {
///     TextState("Delete all items?")
///   } actions: {
///     ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
///     ButtonState(role: .cancel) { TextState("Cancel") }
///   }
///   return .none
/// case .alert(.presented(.confirmDeletion)):
///   state.items.removeAll()
///   return .none
///
/// // in the body:
/// .ifLet(\.$alert, action: \.alert)
/// ```
///
/// Tapping a button sends `.alert(.presented(action))`, after which the `ifLet` dismisses the alert;
/// a button without an action (or the user dismissing it) sends `.alert(.dismiss)`.
///
/// > Important: Alerts are compared without their ``id``: every alert made is a new one (which the
/// > `ifLet` treats as a new presentation), yet a test's expected alert equals the feature's.
public struct AlertState<Action>: Identifiable, _EphemeralState {
  /// Tells this alert from another with the same content: a new alert replacing an old one is a new
  /// presentation.
  public let id: UUID
  /// The title.
  public var title: TextState
  /// The message under the title, if any.
  public var message: TextState?
  /// The buttons, in order. An alert without buttons shows a default "OK" that dismisses it.
  public var buttons: [ButtonState<Action>]

  /// An alert with a title, buttons and a message.
  ///
  /// ```swift
  /// AlertState {
  ///   TextState("Oops!")
  /// } actions: {
  ///   ButtonState(action: .retry) { TextState("Retry") }
  /// } message: {
  ///   TextState("The download failed.")
  /// }
  /// ```
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.title = title()
    self.message = message?()
    self.buttons = actions()
  }

  init(id: UUID, title: TextState, message: TextState?, buttons: [ButtonState<Action>]) {
    self.id = id
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// The type of the actions its buttons send (`Action`).
  public static var actionType: Any.Type { Action.self }

  /// The same alert (same ``id``) whose buttons send `transform`'s actions.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> AlertState<NewAction> {
    AlertState<NewAction>(id: id, title: title, message: message, buttons: buttons.map { $0.map(transform) })
  }
}

extension AlertState: Equatable where Action: Equatable {
  /// Equal when their contents are; ids are not compared.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension AlertState: Sendable where Action: Sendable {}

extension AlertState: CustomDumpReflectable {
  /// What a test failure shows: the contents, without ids.
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [("title", title.string)]
    if !buttons.isEmpty { children.append(("actions", buttons)) }
    if let message { children.append(("message", message.string)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
