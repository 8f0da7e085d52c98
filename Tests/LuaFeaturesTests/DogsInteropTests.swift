import CasePathsCore
import Composable
import ComposableTesting
import Foundation
import LuaBridge
import LuaFeatures
import Testing

/// `examples/dogs` (a Lua app) hosted inside a Swift feature with a `Codable` state: Swift sends
/// actions into the Lua app, reads its state and its delegate actions back as Swift types through
/// `LuaDecoder`, and writes Swift values into its state through `LuaEncoder`. The app's Lua client
/// reaches dog.ceo through `deps.http`, which the Swift app answers with its own transport.
@MainActor
struct DogsInteropTests {
  // MARK: - The Lua app's state, as Swift types

  struct Breed: Codable, Equatable, Sendable {
    var name: String
    var subBreeds: [String]
  }

  struct DogsList: Codable, Equatable, Sendable {
    var query: String
    var breeds: [Breed]
    var status: String
    var error: String?
  }

  struct BreedScreen: Codable, Equatable, Sendable {
    var id: String
    var name: String
    var subBreeds: [String]
    var loading: Bool
    var image: String?
    var error: String?
  }

  struct App: Codable, Equatable, Sendable {
    var dogs: DogsList
    var detail: BreedScreen?
  }

  // MARK: - A Swift parent

  /// A Swift shell around the Lua app: it keeps favourites and the breeds viewed, which it learns
  /// from the app's delegate actions, and it can open a breed by sending the app a Lua action.
  struct Shell: Reducer {
    struct State: Equatable, Codable, Sendable {
      var app: LuaState
      var viewed: [String] = []
      var favorites: [String] = []

      /// The Lua app's state, decoded.
      var decodedApp: App {
        get throws { try LuaDecoder().decode(App.self, from: app.value) }
      }

      /// Equal when the apps read the same as Swift types, and the Swift fields are equal.
      // NB: Compared decoded: an empty Swift array encodes as `.array([])`, while the same `{}`
      //     can come back from Lua as `.table([:])`, and `LuaState` equality tells the two apart.
      static func == (lhs: State, rhs: State) -> Bool {
        lhs.viewed == rhs.viewed && lhs.favorites == rhs.favorites
          && (try? lhs.decodedApp) == (try? rhs.decodedApp) && (try? lhs.decodedApp) != nil
      }
    }

    enum Action: Equatable, Sendable, CasePathable {
      case app(LuaValue)
      case open(breed: String)
      case favoriteTapped

      struct AllCasePaths {
        var app: AnyCasePath<Action, LuaValue> {
          AnyCasePath(embed: Action.app) {
            guard case let .app(action) = $0 else { return nil }
            return action
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    let app: LuaReducer

    var body: some ReducerOf<Self> {
      Scope(state: \.app, action: \.app) { app }
      Reduce { state, action in
        switch action {
        case let .app(action):
          // Lua → Swift: the list's delegate action, decoded.
          guard let selected = try? LuaDecoder().decode(Selection.self, from: action),
            selected.type == "dogs", selected.action.type == "delegate"
          else { return .none }
          state.viewed.append(selected.action.action.breed.name)
          return .none
        case let .open(breed):
          // Swift → Lua: an action of the app, built in Swift.
          return .send(.app(["type": "dogs", "action": ["type": "breedTapped", "breed": .string(LuaString(breed))]]))
        case .favoriteTapped:
          guard let name = try? state.decodedApp.detail?.name, !state.favorites.contains(name) else { return .none }
          state.favorites.append(name)
          return .none
        }
      }
    }

    /// `{ type = "dogs", action = { type = "delegate", action = { type = "breedSelected", breed = … } } }`
    struct Selection: Decodable {
      struct Delegate: Decodable {
        struct Selected: Decodable { var type: String; var breed: Breed }
        var type: String
        var action: Selected
      }
      var type: String
      var action: Delegate
    }
  }

  // MARK: - Set-up

  nonisolated static let breeds = [
    Breed(name: "hound", subBreeds: ["afghan", "basset"]),
    Breed(name: "husky", subBreeds: []),
    Breed(name: "terrier", subBreeds: ["cairn"]),
  ]

  nonisolated static let examples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples/dogs")

  nonisolated static func image(_ breed: String) -> String { "https://images.dog.ceo/breeds/\(breed)/1.jpg" }

  let host: LuaFeatureHost
  let feature: LuaFeature

  /// dog.ceo's API as the app's Lua client (`dogs_client.lua`) reaches it through `deps.http`,
  /// answered by the Swift app: the breeds above, and `image(_:)` for a breed's picture.
  nonisolated static let dogAPI = HTTPTransport { request in
    let api = "https://dog.ceo/api/"
    let message: Any
    if request.url == api + "breeds/list/all" {
      message = Dictionary(uniqueKeysWithValues: breeds.map { ($0.name, $0.subBreeds) })
    } else if request.url.hasPrefix(api + "breed/"), request.url.hasSuffix("/images/random") {
      message = image(String(request.url.dropFirst((api + "breed/").count).dropLast("/images/random".count)))
    } else {
      return HTTPResponse(status: 404, body: Array(#"{"message":"not found","status":"error"}"#.utf8))
    }
    let body = try JSONSerialization.data(withJSONObject: ["message": message, "status": "success"])
    return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Array(body))
  }

  init() throws {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(Self.dogAPI))
    host = try LuaFeatureHost(dependencies: dependencies)
    feature = try host.load(FeatureLocation(resolving: Self.examples.path))
  }

  func makeStore() -> TestStore<Shell.State, Shell.Action> {
    let reducer = feature.reducer()
    return TestStore(initialState: Shell.State(app: feature.initialState)) { Shell(app: reducer) }
  }

  /// The Lua app's state `app`, as a `LuaState`.
  static func encoded(_ app: App) throws -> LuaState {
    LuaState(try LuaEncoder().encode(app))
  }

  // MARK: - Tests

  @Test func theLuaAppsInitialStateDecodesIntoSwiftTypes() throws {
    let app = try Shell.State(app: feature.initialState).decodedApp
    #expect(app == App(dogs: DogsList(query: "", breeds: [], status: "idle"), detail: nil))
  }

  @Test func aSwiftParentDrivesTheLuaAppAndLearnsFromItsDelegate() async throws {
    let store = makeStore()
    var app = App(dogs: DogsList(query: "", breeds: [], status: "idle"), detail: nil)

    await store.send(.app(["type": "dogs", "action": ["type": "onAppear"]])) {
      app.dogs.status = "loading"
      $0.app = try Self.encoded(app)
    }
    await store.receive(\.app) {                                 // breedsLoaded
      app.dogs.status = "loaded"
      app.dogs.breeds = Self.breeds
      $0.app = try Self.encoded(app)
    }

    await store.send(.open(breed: "hound"))
    await store.receive(\.app)                                   // breedTapped, from Swift
    await store.receive(\.app) {                                 // the delegate, read by Swift
      app.detail = BreedScreen(id: "hound", name: "hound", subBreeds: ["afghan", "basset"], loading: false)
      $0.app = try Self.encoded(app)
      $0.viewed = ["hound"]
    }
    await store.receive(\.app) {                                 // onAppear
      app.detail?.loading = true
      $0.app = try Self.encoded(app)
    }
    await store.receive(\.app) {                                 // imageLoaded
      app.detail?.loading = false
      app.detail?.image = Self.image("hound")
      $0.app = try Self.encoded(app)
    }

    await store.send(.favoriteTapped) { $0.favorites = ["hound"] }
    await store.send(.app(["type": "detail", "action": ["type": "dismiss"]])) {
      app.detail = nil
      $0.app = try Self.encoded(app)
    }
    #expect(try store.state.decodedApp.detail == nil)
  }

  @Test func aSwiftValueWrittenIntoTheLuaStateIsWhatTheLuaAppReducesNext() async throws {
    let loaded = App(dogs: DogsList(query: "", breeds: Self.breeds, status: "loaded"), detail: nil)

    // Swift → Lua: state built in Swift, encoded, then reduced by Lua.
    var state = Shell.State(app: try Self.encoded(loaded))
    state.favorites = ["husky"]
    let reducer = feature.reducer()
    let store = TestStore(initialState: state) { Shell(app: reducer) }
    await store.send(.app(["type": "dogs", "action": ["type": "queryChanged", "query": "U"]])) {
      var app = loaded
      app.dogs.query = "U"
      $0.app = try Self.encoded(app)
    }
    // Lua → Swift: the Lua view of that state.
    let view = try feature.render(store.state.app) ?? ""
    #expect(view == "Dogs\n  filter: U▏\n    Hound ›\n    Husky ›")
  }

  @Test func theParentsStateIsCodableWithTheLuaStateInside() async throws {
    let store = makeStore()
    await store.send(.app(["type": "dogs", "action": ["type": "queryChanged", "query": "ter"]])) {
      $0.app.dogs = ["query": "ter", "breeds": [], "status": "idle"]
    }
    let data = try JSONEncoder().encode(store.state)
    let decoded = try JSONDecoder().decode(Shell.State.self, from: data)
    #expect(decoded == store.state)
    #expect(try decoded.decodedApp.dogs.query == "ter")
  }
}
