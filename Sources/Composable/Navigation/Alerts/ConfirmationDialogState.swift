import CustomDump
import Foundation

/// A confirmation dialog (an action sheet) as data: its title, message and buttons, and the actions
/// the buttons send.
///
/// Presented and handled like ``AlertState``:
///
/// ```swift
/// state.dialog = ConfirmationDialogState {
///   TextState("Share")
/// } actions: {
///   ButtonState(action: .copyLink) { TextState("Copy link") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// }
///
/// // in the body:
/// .ifLet(\.$dialog, action: \.dialog)
/// ```
///
/// > Important: Dialogs are compared without their ``id``, as alerts are.
public struct ConfirmationDialogState<Action>: Identifiable, _EphemeralState {
  /// Tells this dialog from another with the same content.
  public let id: UUID
  /// Whether a host shows the title.
  public var titleVisibility: ConfirmationDialogStateTitleVisibility
  /// The title.
  public var title: TextState
  /// The message under the title, if any.
  public var message: TextState?
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// A dialog with a title, buttons and a message.
  public init(
    titleVisibility: ConfirmationDialogStateTitleVisibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.titleVisibility = titleVisibility
    self.title = title()
    self.message = message?()
    self.buttons = actions()
  }

  init(
    id: UUID, titleVisibility: ConfirmationDialogStateTitleVisibility, title: TextState, message: TextState?,
    buttons: [ButtonState<Action>]
  ) {
    self.id = id
    self.titleVisibility = titleVisibility
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// The type of the actions its buttons send (`Action`).
  public static var actionType: Any.Type { Action.self }

  /// The same dialog (same ``id``) whose buttons send `transform`'s actions.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> ConfirmationDialogState<NewAction> {
    ConfirmationDialogState<NewAction>(
      id: id, titleVisibility: titleVisibility, title: title, message: message,
      buttons: buttons.map { $0.map(transform) }
    )
  }
}

/// Whether a confirmation dialog shows its title.
public enum ConfirmationDialogStateTitleVisibility: Hashable, Sendable {
  /// As the platform prefers.
  case automatic
  /// Never.
  case hidden
  /// Always.
  case visible
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  /// Equal when their contents are; ids are not compared.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.titleVisibility == rhs.titleVisibility && lhs.title == rhs.title && lhs.message == rhs.message
      && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(titleVisibility)
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: CustomDumpReflectable {
  /// What a test failure shows: the contents, without ids.
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if titleVisibility != .automatic { children.append(("titleVisibility", titleVisibility)) }
    children.append(("title", title.string))
    if !buttons.isEmpty { children.append(("actions", buttons)) }
    if let message { children.append(("message", message.string)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
