import ConcurrencyExtras

@usableFromInline
typealias AnyEffectID = AnyHashableSendable

extension Effect {
  /// Makes this effect cancellable by `id`.
  ///
  /// ```swift
  /// enum CancelID { case search }
  ///
  /// case let .queryChanged(query):
  ///   return .run { send in
  ///     await send(.results(try await api.search(query)))
  ///   }
  ///   .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// Ids belong to the feature instance that returned the effect, and reach down its tree of children:
  /// two rows of a `forEach` using the same id never cancel each other, a child cannot cancel its
  /// parent's effects, and a parent's `.cancel(id:)` cancels its children's effects with that id too,
  /// as in TCA.
  ///
  /// > Tip: Give each feature its own id type (`enum CancelID { case search }`): a parent then
  /// > cancels a child's work only when it names the child's id on purpose.
  ///
  /// - Parameters:
  ///   - id: Any hashable value; an enum case per kind of work reads best.
  ///   - cancelInFlight: Cancel effects already running under `id` before this one starts.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    switch self.operation {
    case .none: return cancelInFlight ? .cancel(id: id) : .none
    default: return Self(.cancellable(id: AnyEffectID(id), cancelInFlight: cancelInFlight, self))
    }
  }

  /// An effect that cancels the effects running under `id` in this feature instance and its
  /// children.
  ///
  /// ```swift
  /// case .stopTapped:
  ///   return .cancel(id: CancelID.timer)
  /// ```
  ///
  /// Actions that a cancelled effect tries to send afterwards are dropped.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(.cancel(id: AnyEffectID(id)))
  }

  /// Scopes this effect to a child instance identified by `component`.
  ///
  /// Composition operators (``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``,
  /// ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``, …) call it for you; use it when
  /// writing your own container of child features. Cancellation ids inside become relative to the child,
  /// and ``cancel(scope:)`` with the same component cancels everything the child started.
  ///
  /// ```swift
  /// return Row().reduce(into: &state.rows[id: id]!, action: rowAction)
  ///   .map { .row(id: id, $0) }
  ///   .scoped(to: RowScope(id))
  /// ```
  public func scoped(to component: some Hashable & Sendable) -> Self {
    switch self.operation {
    case .none: return .none
    default: return Self(.scoped(component: AnyEffectID(component), self))
    }
  }

  /// An effect that cancels everything started under ``scoped(to:)`` with `component`: call it when the
  /// child instance goes away.
  public static func cancel(scope component: some Hashable & Sendable) -> Self {
    Self(.cancel(id: AnyEffectID(ScopeCancelID(component: AnyEffectID(component)))))
  }
}

/// The cancellation id that stands for a whole child scope.
@usableFromInline
struct ScopeCancelID: Hashable, Sendable {
  let component: AnyEffectID
}
