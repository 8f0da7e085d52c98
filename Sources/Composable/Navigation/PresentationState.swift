import CasePathsCore
import IssueReporting

/// The state of a child feature presented by its parent (a sheet, a drill-down, an alert), or `nil`.
///
/// Use it as a property wrapper on an optional child state, and compose the child with
/// ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)`` over its projected value:
///
/// ```swift
/// struct State: Equatable {
///   @PresentationState var detail: Detail.State?
/// }
/// enum Action {
///   case detail(PresentationAction<Detail.Action>)
///   case showDetail
/// }
///
/// Reduce { state, action in
///   switch action {
///   case .showDetail: state.detail = Detail.State(); return .none
///   case .detail: return .none
///   }
/// }
/// .ifLet(\.$detail, action: \.detail) { Detail() }
/// ```
///
/// Presenting is setting the state; dismissing is setting it to `nil` (or the child calling the
/// ``DismissEffect`` dependency). Either way, the child's effects are cancelled when it goes away,
/// whichever reducer removed it.
///
/// The child's state is stored out of line, so a feature can present itself recursively
/// (`@PresentationState var child: State?`), and comparing two copies that share storage is instant.
///
/// > Important: The `ifLet` notices a child removed by another reducer of the body when it next runs:
/// > the removed child's effects are cancelled by the next action that reaches the `ifLet`.
@propertyWrapper
public struct PresentationState<State> {
  private var storage: Storage
  /// The identity of the child when its `ifLet` last ran: the child it cancels once that one is gone.
  var presentedID: ChildScopeID?

  /// Wraps an optional child state.
  public init(wrappedValue: State?) {
    self.storage = Storage(wrappedValue)
  }

  /// The presented child's state, or `nil` when nothing is presented.
  public var wrappedValue: State? {
    get { storage.value }
    set {
      if isKnownUniquelyReferenced(&storage) {
        storage.value = newValue
      } else {
        storage = Storage(newValue)
      }
    }
    _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
      yield &storage.value
    }
  }

  /// The wrapper itself, reached with `$`: what `ifLet` scopes to (`\.$detail`).
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// The presented child's state in one case of a destination enum, or `nil` when another case (or
  /// nothing) is presented.
  ///
  /// ```swift
  /// state.$destination[case: \.edit]?.title = "New title"
  /// state.$destination[case: \.edit] = nil   // dismisses the editor
  /// ```
  ///
  /// > Important: Writing through a case that is not the presented one changes nothing and reports
  /// > an issue ("Can't modify unrelated case").
  public subscript<Case>(case path: CaseKeyPath<State, Case>) -> Case? where State: CasePathable {
    get { wrappedValue.flatMap { $0[case: path] } }
    _modify {
      let casePath = AnyCasePath(path)
      let root = wrappedValue
      var value = root.flatMap(casePath.extract)
      let matched = value != nil
      yield &value
      guard matched else { return reportUnrelatedCase(root) }
      wrappedValue = value.map(casePath.embed)
    }
  }

  /// Whether two values share their child's storage: equal without comparing the children.
  func sharesStorage(with other: Self) -> Bool {
    storage === other.storage
  }

  private final class Storage: @unchecked Sendable {
    var value: State?
    init(_ value: State?) { self.value = value }
  }
}

/// Reports a write through `[case:]` into a case that is not the current one.
func reportUnrelatedCase(_ root: Any?) {
  reportIssue(
    "Can't modify unrelated case" + (root.map { " \(caseName(of: $0).debugDescription)" } ?? "")
  )
}

/// The name of an enum value's case (`"edit"` for `.edit(…)`).
func caseName(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  if let label = mirror.children.first?.label { return label }
  let description = String(describing: value)
  return String(description.prefix { $0 != "(" })
}

extension PresentationState: Equatable where State: Equatable {
  /// Equal when both present equal children, or share the same storage (without comparing).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.sharesStorage(with: rhs) || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    wrappedValue.hash(into: &hasher)
  }
}

// NB: The storage is a class only for indirection; it is copied on write like a value.
extension PresentationState: @unchecked Sendable where State: Sendable {}

extension PresentationState: Decodable where State: Decodable {
  /// Decodes the value as it was encoded.
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try State?(from: decoder))
  }
}

extension PresentationState: Encodable where State: Encodable {
  /// Encodes the value alone (the wrapper leaves no trace in the encoding).
  public func encode(to encoder: any Encoder) throws {
    try wrappedValue.encode(to: encoder)
  }
}

extension PresentationState: CustomReflectable {
  /// What debugging and test failures show.
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue as Any) }
}
