import ComposableMacros

/// Fetches a fact about a number. `@DependencyClient` gives `fetch` an unimplemented default, so a
/// test that reaches it without overriding it fails.
@DependencyClient
public struct NumberFactClient: Sendable {
  public var fetch: @Sendable (_ number: Int) async throws -> String
}

extension NumberFactClient: DependencyKey {
  public static let liveValue = NumberFactClient(fetch: { "\($0) is a number without a fact (offline)." })
  public static let testValue = NumberFactClient()
}

extension DependencyValues {
  public var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}
