import LuaBridge

/// What an app running a store offers its devtools page: the state now, dispatching, going back to
/// an earlier state, its views, and the exporters.
///
/// `lunar run --devtools` implements it over its session; an app embedding Lunar can do the same.
///
/// ```swift
/// let hub = DevtoolsHub(feature: "examples/counter/feature.lua", historyLimit: 1000)
/// hub.host = mySession              // a DevtoolsHost
/// let server = try await DevtoolsServer.start(hub: hub, port: 0)
/// print(server.url)                 // http://127.0.0.1:PORT/
/// ```
///
/// > Important: ``observe(_:)`` is how the hub costs nothing while no page is open: install your
/// > hook when it is called with a hub and remove it when it is called with `nil`.
@MainActor
public protocol DevtoolsHost: AnyObject {
  /// The state now, and the view of it (`nil` for a feature without one).
  func snapshot() -> (state: LuaValue, view: String?)
  /// Parses `text` as an action (`increment`, `add title=milk`, `{ type = "x" }`) and sends it.
  ///
  /// - Throws: An error that describes what is wrong with the text.
  func dispatch(_ text: String) throws
  /// Puts the store back in `state`; running effects go on.
  ///
  /// - Throws: An error saying why it cannot.
  func resume(_ state: LuaValue) throws
  /// The view of `state` (for entries that were imported).
  func render(_ state: LuaValue) -> String?
  /// The session, given in the record format, as an exhaustive `*_test.lua`.
  ///
  /// - Throws: An error saying why it cannot (no generator, a recording it cannot read).
  func exportTest(recording: String) throws -> String
  /// The other sessions a page may switch to (the plugins of a host), by name; empty for one session.
  var sessions: [String] { get }
  /// Starts sending entries to `hub` (a page connected), or stops (`nil`: no page is left).
  func observe(_ hub: DevtoolsHub?)
  /// The state `action` leads to from `state`, its effects not run: skipping an action recomputes
  /// the states after it from the recorded actions.
  ///
  /// - Throws: An error saying why it cannot (the default: this host does not recompute).
  func reduce(_ state: LuaValue, _ action: LuaValue) throws -> LuaValue
  /// Puts the store in `state`, the state the log leads to once an action is skipped or unskipped;
  /// unlike ``resume(_:)`` it adds no entry (the hub has recomputed the log itself).
  ///
  /// - Throws: An error saying why it cannot (the default: this host cannot change its store).
  func replaceState(_ state: LuaValue) throws
}

extension DevtoolsHost {
  public func reduce(_ state: LuaValue, _ action: LuaValue) throws -> LuaValue {
    throw DevtoolsRequestError("this session cannot recompute its states, so it cannot skip an action")
  }

  public func replaceState(_ state: LuaValue) throws {
    throw DevtoolsRequestError("this session cannot put its store in another state, so it cannot skip an action")
  }
}
