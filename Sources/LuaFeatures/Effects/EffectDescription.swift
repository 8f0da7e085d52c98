import LuaBridge

/// An effect as a Lua reducer described it, decoded once where it crosses into Swift: one case per
/// kind of description `lunar.fx` builds (see `Sources/LuaFeatures/Lua/lunar/_base.lua` and the
/// serialisation in `lunar/_effects.lua`), with its fields typed.
///
/// ``LuaFeatureInstance/translate(_:action:in:)`` then turns it into the core's `Effect`.
enum EffectDescription {
  /// The `kind` strings of descriptions: the one place Swift names them.
  enum Kind: String, CaseIterable, Sendable {
    case none, send, run, merge, concat, cancellable, cancel, debounce, throttle, child, cancelChild, dismiss
  }

  /// An action to send, and the script line that built the effect (a string), when known.
  struct Sending {
    let action: LuaValue
    /// NB: kept as Lua gave it: only an action the feature refuses needs it as text.
    let origin: LuaValue
  }

  /// The timing of a debounce or throttle: its id, its duration and its action.
  struct Timed {
    let id: LuaValue
    let duration: Duration
    let sending: Sending
  }

  /// The child of a composed feature an effect belongs to: its state key, its id (`forEach`,
  /// `stack`), its identity (for cancellation) and whether its parent presents it (`ifLet`,
  /// `stack`), so it can dismiss itself.
  struct Child {
    let key: LuaValue
    let id: LuaValue
    let identity: LuaValue
    let presented: Bool
  }

  case none
  case send(Sending)
  /// `fx.run`: the handle of its function in the prelude, and the line that defined the function.
  case run(handle: Int64, origin: String)
  case merge([EffectDescription])
  case concat([EffectDescription])
  indirect case cancellable(id: LuaValue, cancelInFlight: Bool, EffectDescription)
  case cancel(id: LuaValue)
  case debounce(Timed)
  case throttle(Timed, latest: Bool)
  /// An effect of a child of a composed feature.
  indirect case child(Child, EffectDescription)
  /// Ends every effect of a removed child (`key`, `identity`).
  case cancelChild(key: LuaValue, identity: LuaValue)
  case dismiss

  /// The kind of this description.
  var kind: Kind {
    switch self {
    case .none: .none
    case .send: .send
    case .run: .run
    case .merge: .merge
    case .concat: .concat
    case .cancellable: .cancellable
    case .cancel: .cancel
    case .debounce: .debounce
    case .throttle: .throttle
    case .child: .child
    case .cancelChild: .cancelChild
    case .dismiss: .dismiss
    }
  }

  /// Why a description could not be decoded; the message is the one the host reports.
  struct Malformed: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }

  /// Decodes the description `value`: nil is no effect.
  init(decoding value: LuaValue) throws(Malformed) {
    guard case let .table(fields) = value else {
      if value.isNil {
        self = .none
        return
      }
      throw Malformed(message: "an effect description must be a table, got \(value.typeName)")
    }
    func field(_ key: LuaString) -> LuaValue { fields[key] ?? .nil }
    func sending() -> Sending { Sending(action: field(Field.action), origin: field(Field.origin)) }
    func timed() throws(Malformed) -> Timed {
      guard let seconds = field(Field.seconds).numberValue else {
        throw Malformed(message: "a duration must be a finite number of seconds from 0 to 1e9 (about 31 years)")
      }
      do {
        return Timed(id: field(Field.id), duration: try LuaSeconds.duration(seconds), sending: sending())
      } catch {
        throw Malformed(message: error.description)
      }
    }
    func members() throws(Malformed) -> [EffectDescription] {
      var members: [EffectDescription] = []
      for member in field(Field.effects).arrayValue ?? [] { members.append(try EffectDescription(decoding: member)) }
      return members
    }
    let kind = field(Field.kind)
    // NB: matched against each raw value in turn, as a `switch` over strings does: cheaper per
    //     effect than `Kind(rawValue:)`.
    switch kind.stringValue.map(Self.kind(named:)) ?? nil {
    case .none?:
      self = .none
    case .send?:
      self = .send(sending())
    case .run?:
      guard let handle = field(Field.handle).integerValue else { throw Malformed(message: "fx.run without a handle") }
      self = .run(handle: handle, origin: field(Field.origin).stringValue ?? "?")
    case .merge?:
      self = .merge(try members())
    case .concat?:
      self = .concat(try members())
    case .cancellable?:
      self = .cancellable(
        id: field(Field.id), cancelInFlight: field(Field.cancelInFlight).boolValue ?? false,
        try EffectDescription(decoding: field(Field.effect)))
    case .cancel?:
      self = .cancel(id: field(Field.id))
    case .debounce?:
      self = .debounce(try timed())
    case .throttle?:
      self = .throttle(try timed(), latest: field(Field.latest).boolValue ?? false)
    case .child?:
      let mode = field(Field.mode).stringValue
      let child = Child(
        key: field(Field.key), id: field(Field.id), identity: field(Field.identity),
        presented: mode == "ifLet" || mode == "stack")
      self = .child(child, try EffectDescription(decoding: field(Field.effect)))
    case .cancelChild?:
      self = .cancelChild(key: field(Field.key), identity: field(Field.identity))
    case .dismiss?:
      self = .dismiss
    case nil:
      throw Malformed(message: "unknown effect kind \(kind)")
    }
  }

  private static func kind(named name: String) -> Kind? {
    switch name {
    case Kind.run.rawValue: .run
    case Kind.send.rawValue: .send
    case Kind.none.rawValue: Kind.none
    case Kind.merge.rawValue: .merge
    case Kind.concat.rawValue: .concat
    case Kind.cancellable.rawValue: .cancellable
    case Kind.cancel.rawValue: .cancel
    case Kind.debounce.rawValue: .debounce
    case Kind.throttle.rawValue: .throttle
    case Kind.child.rawValue: .child
    case Kind.cancelChild.rawValue: .cancelChild
    case Kind.dismiss.rawValue: .dismiss
    default: nil
    }
  }

  /// The keys of a description's fields. NB: made once: a `LuaString` made for each lookup would
  /// allocate, several times per effect.
  private enum Field {
    static let action = LuaString("action")
    static let cancelInFlight = LuaString("cancelInFlight")
    static let effect = LuaString("effect")
    static let effects = LuaString("effects")
    static let handle = LuaString("handle")
    static let id = LuaString("id")
    static let identity = LuaString("identity")
    static let key = LuaString("key")
    static let kind = LuaString("kind")
    static let latest = LuaString("latest")
    static let mode = LuaString("mode")
    static let origin = LuaString("origin")
    static let seconds = LuaString("seconds")
  }
}
