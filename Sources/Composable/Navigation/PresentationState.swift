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
/// ``DismissEffect`` dependency). Either way, the child's effects are cancelled when it goes away.
@propertyWrapper
public struct PresentationState<State> {
  /// The presented child's state, or `nil` when nothing is presented.
  public var wrappedValue: State?

  /// Wraps an optional child state.
  public init(wrappedValue: State?) {
    self.wrappedValue = wrappedValue
  }

  /// The wrapper itself, reached with `$`: what `ifLet` scopes to (`\.$detail`).
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

extension PresentationState: Equatable where State: Equatable {}
extension PresentationState: Hashable where State: Hashable {}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try State?(from: decoder))
  }
}

extension PresentationState: Encodable where State: Encodable {
  public func encode(to encoder: any Encoder) throws {
    try wrappedValue.encode(to: encoder)
  }
}

extension PresentationState: CustomReflectable {
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue as Any) }
}
