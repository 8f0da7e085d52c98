import CustomDump
import Foundation

/// A button of an ``AlertState`` or a ``ConfirmationDialogState``: its label, its role, and the
/// action it sends when tapped.
///
/// ```swift
/// ButtonState(role: .destructive, action: .deleteConfirmed) {
///   TextState("Delete")
/// }
/// ButtonState(role: .cancel) { TextState("Cancel") }   // sends nothing but the dismissal
/// ```
///
/// Two buttons are equal when their labels, roles and actions are; their ``id``s (which tell buttons
/// apart in a list) are not compared.
public struct ButtonState<Action>: Identifiable {
  /// Tells this button from the others of its alert.
  public let id: UUID
  /// What tapping the button sends.
  public let action: ButtonStateAction<Action>
  /// The button's text.
  public let label: TextState
  /// How the button is shown (cancel, destructive), if special.
  public let role: ButtonStateRole?

  /// A button sending `action` (nothing, by default).
  public init(
    role: ButtonStateRole? = nil,
    action: ButtonStateAction<Action> = .send(nil),
    label: () -> TextState
  ) {
    self.id = UUID()
    self.action = action
    self.label = label()
    self.role = role
  }

  /// A button sending `action`.
  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(role: role, action: .send(action), label: label)
  }

  /// The same button sending `transform`'s actions: lifts an alert's actions into a parent's.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> ButtonState<NewAction> {
    ButtonState<NewAction>(id: id, action: action.map(transform), label: label, role: role)
  }

  /// Calls `perform` with the button's action, as a user interface does when it is tapped.
  public func withAction(_ perform: (Action?) -> Void) {
    perform(action.action)
  }

  init(id: UUID, action: ButtonStateAction<Action>, label: TextState, role: ButtonStateRole?) {
    self.id = id
    self.action = action
    self.label = label
    self.role = role
  }
}

/// The role of a button: shown apart (cancel) or as a warning (destructive).
public enum ButtonStateRole: Hashable, Sendable {
  /// The button that leaves without doing anything.
  case cancel
  /// A button that destroys something.
  case destructive
}

/// What a ``ButtonState`` sends when tapped.
public struct ButtonStateAction<Action> {
  /// The action, or `nil` for a button that only dismisses.
  public let action: Action?

  /// Sends `action` (or nothing, for `nil`).
  public static func send(_ action: Action?) -> Self {
    Self(action: action)
  }

  /// The same button action with `transform` applied to its action.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> ButtonStateAction<NewAction> {
    ButtonStateAction<NewAction>(action: action.map(transform))
  }
}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction: Hashable where Action: Hashable {}
extension ButtonStateAction: Sendable where Action: Sendable {}

extension ButtonState: Equatable where Action: Equatable {
  /// Equal when their contents are; ids are not compared.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.action == rhs.action && lhs.label == rhs.label && lhs.role == rhs.role
  }
}

extension ButtonState: Hashable where Action: Hashable {
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(action)
    hasher.combine(label)
    hasher.combine(role)
  }
}

extension ButtonState: Sendable where Action: Sendable {}

extension ButtonState: CustomDumpReflectable {
  /// What a test failure shows: the contents, without ids.
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if let role { children.append(("role", role)) }
    if let action = action.action { children.append(("action", action)) }
    children.append(("label", label.string))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

/// Builds the buttons of an alert or a dialog from a list, with `if`, `if`/`else` and `for`.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  /// Buttons listed one after the other.
  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  /// One button.
  public static func buildExpression(_ expression: ButtonState<Action>) -> [ButtonState<Action>] {
    [expression]
  }

  /// Buttons under an `if`.
  public static func buildOptional(_ component: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    component ?? []
  }

  /// Buttons of an `if` branch.
  public static func buildEither(first component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }

  /// Buttons of an `else` branch.
  public static func buildEither(second component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }

  /// Buttons made by a `for` loop.
  public static func buildArray(_ components: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  /// Buttons under `if #available`.
  public static func buildLimitedAvailability(_ component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }
}
