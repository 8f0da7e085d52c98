import Composable
import ConcurrencyExtras
import Dependencies
import IssueReporting

/// A store for tests: it runs a feature like ``Store`` and checks, step by step, that you asserted
/// everything the feature did.
///
/// ```swift
/// @MainActor
/// @Test func incrementing() async {
///   let store = TestStore(initialState: Counter.State()) {
///     Counter()
///   } withDependencies: {
///     $0.numberFact.fetch = { "\($0) is a good number." }
///   }
///
///   await store.send(.incrementButtonTapped) {
///     $0.count = 1
///   }
///   await store.send(.factButtonTapped) {
///     $0.isLoading = true
///   }
///   await store.receive(\.factResponse) {
///     $0.isLoading = false
///     $0.fact = "1 is a good number."
///   }
/// }
/// ```
///
/// By default a test store is *exhaustive*; a test fails when:
///
/// 1. an action changes state in a way the trailing closure did not describe (diff: `−` expected,
///    `+` actual);
/// 2. an action sent by an effect is not asserted with `receive` (or skipped) before the next `send` or
///    the end of the test;
/// 3. an effect is still running at the end of the test.
///
/// Set ``exhaustivity`` to `.off` to check only what you assert.
///
/// While a test store is alive, tasks run on the main serial executor (swift-concurrency-extras), so
/// that an effect has reached its `clock.sleep` before the test advances a `TestClock`. To give a
/// test of a plain `Store` the same executor, wrap it in ``withTestStoreExecutor(_:)``, not in
/// `withMainSerialExecutor`, which switches the executor off under test stores running in parallel.
///
/// > Important: Mark tests that use a test store `@MainActor`: the store lives on the main actor, and
/// > its end-of-test checks run when it is released there.
@MainActor
public final class TestStore<State: Equatable, Action: Sendable> {
  /// How strictly the store checks the test. See ``Exhaustivity``.
  public var exhaustivity: Exhaustivity = .on

  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_,_)`` and
  /// ``finish(timeout:fileID:filePath:line:column:)`` wait by default (real time, not the feature's
  /// clock). Only time in which the waiting test got to run counts, so a parallel test that holds
  /// the main thread for a while does not use it up.
  public var timeout: Duration = .seconds(1)

  /// The dependencies the feature runs with. Change them mid-test to alter what later actions and
  /// effects see. Assertion closures run with them too.
  public var dependencies: DependencyValues

  /// The state as of the last ``send(_:assert:fileID:filePath:line:column:)``, `receive` or skip:
  /// actions received from effects but not yet asserted are not in it.
  ///
  /// Inside an assertion closure it is the state before the action being asserted.
  ///
  /// ```swift
  /// await store.send(.increment) {
  ///   #expect(store.state.count == 0)   // before the action
  ///   $0.count = 1
  /// }
  /// #expect(store.state.count == 1)
  /// ```
  public var state: State { assertionBase ?? asserted }

  /// Whether the feature dismissed itself (`@Dependency(\.dismiss)` at the root): its effects were
  /// cancelled, and sending to the store fails the test.
  public private(set) var isDismissed = false

  /// Where a non-exhaustive store showing what it skipped (`.off(showSkippedAssertions: true)`)
  /// shows it; by default an expected issue. A host that runs tests itself prints them.
  package var showSkipped: ((_ message: String, _ location: EffectOrigin) -> Void)?

  /// The feature's state, including actions received but not yet asserted.
  var live: State
  /// The state as of the last assertion; what the next assertion's closure starts from.
  var asserted: State
  /// Inside an assertion closure: the state before the action being asserted.
  var assertionBase: State?
  var received: [Received] = []
  var effectActions: [(action: Action, group: EffectGroup)] = []
  var isDeliveringEffectActions = false
  let reducer: (inout State, Action) -> Effect<Action>
  lazy var runtime = EffectRuntime<Action> { [weak self] action, group in
    self?.receiveFromEffect(action, group: group)
  }
  let origin: EffectOrigin
  /// The step of the test in progress (the last `send` or `receive`), where a hosted feature's errors
  /// while reducing are reported (``EffectOrigin/testStep``).
  var step: EffectOrigin
  let serialExecutor = MainSerialExecutorLease()
  /// Snapshots the shared values the feature changes, so tests assert on them like any state.
  let sharedTracker: SharedChangeTracker

  /// An action an effect sent, as the feature reduced it.
  struct Received {
    let action: Action
    /// The state right after the feature reduced it.
    let state: State
    /// The stack id generator as it was before: what the assertion closure draws ids from.
    let stackElementID: StackElementIDGenerator
    /// Whether the end of the test (or `finish`) already reported it as unasserted.
    var reported = false
    /// Whether a later `send` went ahead without it (and failed): its state is out of date, so
    /// receiving it checks the action only.
    var superseded = false
  }

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from; it is built with the store's dependencies.
  ///   - reducer: The feature under test.
  ///   - prepareDependencies: Overrides for the dependencies the feature uses. Any dependency used
  ///     without an override fails the test (swift-dependencies' test values).
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let tracker = SharedChangeTracker()
    // NB: Each test store gets its own shared registry and an in-memory file system, so shared values
    //     never leak between tests nor touch the disk (unless the test overrides them).
    let (state, reducer, dependencies) = Dependencies.withDependencies({
      $0.sharedChangeTracker = tracker
      $0.sharedRegistry = SharedRegistry()
      $0.defaultFileStorage = .inMemory()
      prepareDependencies(&$0)
    }) {
      @Dependency(\.self) var dependencies
      return (initialState(), reducer(), dependencies)
    }
    self.live = state
    self.asserted = state
    self.dependencies = dependencies
    self.reducer = { reducer.reduce(into: &$0, action: $1) }
    self.origin = EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    self.step = origin
    self.sharedTracker = tracker
    TestSupportCheck.requireLinked()
  }

  deinit {
    // NB: Not an `isolated deinit`: that one runs without the releasing task's task-locals, so the
    //     end-of-test failures it reports would not reach the test (Swift Testing finds the current
    //     test through a task-local). A test store is main-actor isolated and not `Sendable`, so its
    //     last reference is released on the main actor, in the test's own task.
    MainActor.assumeIsolated {
      checkNothingLeft(at: origin, ending: true)
      runtime.cancelAll()
    }
  }

  /// Sends an action and asserts how it changed state.
  ///
  /// ```swift
  /// await store.send(.incrementButtonTapped) {
  ///   $0.count = 1
  /// }
  /// ```
  ///
  /// - Parameter updateStateToExpectedResult: Mutates the state as it was before the action into what
  ///   you expect after it. Omit it when the action changes nothing.
  /// - Returns: The effects the action started (and those of the actions they send), to cancel or
  ///   await them.
  ///
  /// > Important: Actions received from effects must be asserted (or skipped) first: when they are
  /// > not, the send fails the test, and they stay to be received.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    step = location
    guard !isDismissed else {
      fail(
        """
        Can't send action to dismissed test store.

        The feature dismissed itself ("@Dependency(\\.dismiss)"); nothing can be sent to it after.
        """,
        at: location
      )
      return TestStoreTask(group: nil, timeout: timeout)
    }
    if !received.isEmpty {
      if exhaustivity == .on {
        fail(
          """
          Must handle \(received.count) received \
          action\(received.count == 1 ? "" : "s") before sending an action: …

          Unhandled actions:
          \(describe(received.map(\.action)))

          To handle them, assert with "receive", or skip them with "skipReceivedActions".
          """,
          at: location
        )
        for index in received.indices {
          received[index].reported = true
          received[index].superseded = true
        }
      } else {
        reportSkipped(received.map(\.action), at: location)
        adoptReceived()
      }
    }
    checkSharedChanges(at: location)
    // NB: After "Must handle", the unhandled actions' changes are taken as they are, so that the
    //     failure does not repeat as a state mismatch here; they stay to be received.
    let previous = exhaustivity == .on && received.isEmpty ? asserted : live
    let stackElementID = dependencies.stackElementID.incrementingCopy()
    let effect = reduce(action)
    let actual = live
    check(
      previous: previous, actual: actual, update: updateStateToExpectedResult,
      stackElementID: stackElementID, at: location
    )
    asserted = actual
    let group = EffectGroup()
    start(effect, group: group, cause: action)
    await Task.megaYield()
    return TestStoreTask(group: group, timeout: timeout)
  }

  /// Asserts on ``state`` without sending an action: for changes made outside the reducer (shared
  /// state changed by an effect), or, in a non-exhaustive test, after skipping received actions.
  ///
  /// ```swift
  /// store.assert { $0.count = 1 }
  /// ```
  public func assert(
    _ updateStateToExpectedResult: @escaping (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    check(
      previous: asserted, actual: asserted, update: updateStateToExpectedResult, requireChange: false,
      stackElementID: dependencies.stackElementID.incrementingCopy(), at: location
    )
  }

  func reduce(_ action: Action) -> Effect<Action> {
    EffectOrigin.$testStep.withValue(step) {
      DependencyValues.$_current.withValue(dependencies) {
        reducer(&live, action)
      }
    }
    .dismissing { [weak self] in self?.dismissedByFeature() }
  }

  /// Starts the effects of a sent action. Actions they send synchronously are reduced afterwards.
  private func start(_ effect: Effect<Action>, group: EffectGroup, cause: Action) {
    guard !isDeliveringEffectActions else { return runtime.start(effect, group: group, cause: cause) }
    isDeliveringEffectActions = true
    defer { isDeliveringEffectActions = false }
    runtime.start(effect, group: group, cause: cause)
    deliverEffectActions()
  }

  /// An action sent by an effect: reduced at once (as a store would), and recorded for `receive`.
  private func receiveFromEffect(_ action: Action, group: EffectGroup) {
    // NB: Actions sent while effects are being started (`.send`, or a `.send` returned for a received
    //     action) are queued, as `Store` queues them, so tests receive them in the order a store
    //     reduces them: breadth first.
    effectActions.append((action, group))
    guard !isDeliveringEffectActions else { return }
    isDeliveringEffectActions = true
    defer { isDeliveringEffectActions = false }
    deliverEffectActions()
  }

  private func deliverEffectActions() {
    var index = 0
    while index < effectActions.count {
      let (next, group) = effectActions[index]
      index += 1
      let stackElementID = dependencies.stackElementID.incrementingCopy()
      let effect = reduce(next)
      received.append(Received(action: next, state: live, stackElementID: stackElementID))
      runtime.start(effect, group: group, cause: next)
    }
    effectActions.removeAll()
  }

  /// The feature called `dismiss()` at its root: the store ends, as a presented feature would.
  private func dismissedByFeature() {
    isDismissed = true
    runtime.cancelAll()
    // NB: Cancelled effects end on their own time; the end of the test does not wait for them.
    runtime.untrackAll()
  }

  /// Accepts every unasserted received action, as non-exhaustive tests do.
  func adoptReceived() {
    if let last = received.last { asserted = last.state }
    received.removeAll()
  }
}

/// A ``TestStore`` for feature `R`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable
