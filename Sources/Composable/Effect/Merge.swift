extension Effect {
  /// An effect that runs all of `effects` at once, finishing when all of them have finished.
  ///
  /// ```swift
  /// return .merge(.send(.started), .run { send in … })
  /// ```
  public static func merge(_ effects: Self...) -> Self {
    .merge(effects)
  }

  /// An effect that runs all of `effects` at once.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    var members: [Self] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case let .merge(nested): members.append(contentsOf: nested)
      default: members.append(effect)
      }
    }
    switch members.count {
    case 0: return .none
    case 1: return members[0]
    default: return Self(.merge(members))
    }
  }

  /// This effect and `other`, run at once.
  @inlinable
  public func merge(with other: Self) -> Self {
    // NB: The common case in a reducer body is merging `.none`s: keep it free of allocations.
    if case .none = other.operation { return self }
    if case .none = self.operation { return other }
    return .merge([self, other])
  }

  /// An effect that runs `effects` one after the other: each starts when the previous has finished.
  ///
  /// A member that is cancelled on its own counts as finished, and the next one starts; cancelling the
  /// concatenation (through an id on it) stops the whole sequence.
  ///
  /// ```swift
  /// return .concatenate(.cancel(id: CancelID.save), .send(.saveStarted))
  /// ```
  public static func concatenate(_ effects: Self...) -> Self {
    .concatenate(effects)
  }

  /// An effect that runs `effects` one after the other.
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    var members: [Self] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case let .concatenate(nested): members.append(contentsOf: nested)
      default: members.append(effect)
      }
    }
    switch members.count {
    case 0: return .none
    case 1: return members[0]
    default: return Self(.concatenate(members))
    }
  }

  /// This effect, then `other` once it has finished.
  public func concatenate(with other: Self) -> Self {
    .concatenate([self, other])
  }
}
