import CasePathsCore
import Composable
import Dependencies

extension TestStore where Action: CasePathable {
  /// Sends the action of a case without a payload, named by its case key path, and asserts how it
  /// changed state.
  ///
  /// ```swift
  /// await store.send(\.child.presented.closeTapped)
  /// // instead of: await store.send(.child(.presented(.closeTapped)))
  /// ```
  @discardableResult
  public func send(
    _ action: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      AnyCasePath(action).embed(()), assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Sends the action of a case carrying `value`, named by its case key path, and asserts how it
  /// changed state.
  ///
  /// ```swift
  /// await store.send(\.form.titleChanged, "Groceries") {
  ///   $0.form.title = "Groceries"
  /// }
  /// // instead of: await store.send(.form(.titleChanged("Groceries")))
  /// ```
  @discardableResult
  public func send<Value>(
    _ action: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      AnyCasePath(action).embed(value), assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

extension TestStore {
  /// Runs `operation` with the store's dependencies changed by `updateValuesForOperation`, then puts
  /// them back.
  ///
  /// ```swift
  /// await store.withDependencies {
  ///   $0.apiClient.fetch = { throw URLError(.notConnectedToInternet) }
  /// } operation: {
  ///   await store.send(.refresh)
  ///   await store.receive(\.failed)
  /// }
  /// ```
  public func withDependencies<R>(
    _ updateValuesForOperation: (_ dependencies: inout DependencyValues) throws -> Void,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = dependencies
    defer { dependencies = previous }
    try updateValuesForOperation(&dependencies)
    return try await operation()
  }

  /// Runs `operation` with the store's ``exhaustivity`` set to `exhaustivity`, then puts it back.
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(.onAppear)
  ///   await store.skipReceivedActions()
  /// }
  /// ```
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    defer { self.exhaustivity = previous }
    self.exhaustivity = exhaustivity
    return try await operation()
  }
}
