import LuaBridge
@testable import LuaFeatures
import Testing

/// Effect descriptions cross from Lua into Swift as tables with a `kind`: every effect `lunar.fx`
/// builds decodes into ``EffectDescription``, so the prelude and Swift cannot drift apart.
@MainActor
struct EffectDescriptionTests {
  /// An expression for each effect a script can build, named as the script calls it, and the kind
  /// its description must decode to.
  static let samples: [(name: String, expression: String, kind: EffectDescription.Kind)] = [
    ("none", "fx.none", .none),
    ("send", #"fx.send { type = "ping" }"#, .send),
    ("run", "fx.run(function() end)", .run),
    ("merge", #"fx.merge(fx.send { type = "a" }, fx.cancel("b"))"#, .merge),
    ("concat", #"fx.concat(fx.send { type = "a" }, fx.run(function() end))"#, .concat),
    ("cancel", #"fx.cancel("search")"#, .cancel),
    ("debounce", #"fx.debounce("typing", 0.5, { type = "ping" })"#, .debounce),
    ("throttle", #"fx.throttle("scroll", 1, { type = "ping" }, true)"#, .throttle),
    ("dismiss", "fx.dismiss()", .dismiss),
    (":cancellable", #"fx.run(function() end):cancellable("load", { cancelInFlight = true })"#, .cancellable),
  ]

  /// The description the prelude hands Swift for `expression`, returned by a reducer.
  func description(of expression: String, in host: LuaFeatureHost) throws -> LuaValue {
    let fx = try #require(host.prelude.api["lunar.fx"])
    let chunk = try host.vm.load(
      "local fx = ...\nreturn function(state, action) return \(expression) end", chunkName: "sample.lua")
    let reduce = try host.vm.call(chunk, fx, returning: LuaFunction.self)
    let transaction = host.prelude.transaction
    defer { transaction.rollback() }
    let results = try host.vm.call(
      try transaction.library.get("reduce", as: LuaFunction.self), reduce, LuaValue.table([:]), LuaValue.nil,
      LuaValue.nil)
    return results.first ?? .nil
  }

  @Test func everyEffectOfLunarFxDecodesToItsKind() throws {
    let harness = try FeatureHarness()
    for sample in Self.samples {
      let decoded = try EffectDescription(decoding: description(of: sample.expression, in: harness.host))
      #expect(decoded.kind == sample.kind, "\(sample.name)")
    }
  }

  @Test func theSamplesCoverEveryFunctionOfLunarFx() throws {
    let harness = try FeatureHarness()
    let fx = try #require(harness.host.prelude.api["lunar.fx"])
    let names = try harness.host.vm.call(
      harness.host.vm.load(
        "local names = {}\nfor name in pairs(...) do names[#names + 1] = name end\ntable.sort(names)\n"
          + "return table.concat(names, \",\")", chunkName: "names.lua"),
      fx, returning: String.self)
    let sampled = Self.samples.map(\.name).filter { !$0.hasPrefix(":") }.sorted()
    #expect(names.split(separator: ",").map(String.init) == sampled)
  }

  @Test func aNestedDescriptionDecodesWithItsFields() throws {
    let harness = try FeatureHarness()
    let value = try description(
      of: #"fx.merge(fx.throttle("scroll", 1.5, { type = "ping" }, true), fx.cancel(7))"#, in: harness.host)
    guard case let .merge(members) = try EffectDescription(decoding: value), members.count == 2,
      case let .throttle(timed, latest) = members[0], case let .cancel(id) = members[1]
    else {
      Issue.record("decoded \(value)")
      return
    }
    #expect(timed.id == "scroll")
    #expect(timed.duration == .milliseconds(1500))
    #expect(timed.sending.action == ["type": "ping"])
    #expect(timed.sending.origin == "sample.lua:2")
    #expect(latest)
    #expect(id == 7)
  }

  @Test func anUnknownKindIsMalformedAndNamesTheKind() {
    do {
      _ = try EffectDescription(decoding: ["kind": "teleport"])
      Issue.record("decoded an unknown kind")
    } catch {
      #expect(error.message == #"unknown effect kind "teleport""#)
    }
  }

  @Test func aDescriptionThatIsNotATableIsMalformedAndNilIsNoEffect() throws {
    #expect(try EffectDescription(decoding: .nil).kind == .none)
    do {
      _ = try EffectDescription(decoding: 3)
      Issue.record("decoded a number")
    } catch {
      #expect(error.message == "an effect description must be a table, got integer")
    }
  }

  @Test func everyKindDecodesFromItsName() throws {
    for kind in EffectDescription.Kind.allCases {
      let fields: LuaValue = ["kind": .text(kind.rawValue), "handle": 1, "seconds": 1]
      #expect(try EffectDescription(decoding: fields).kind == kind)
    }
  }

  @Test func aDurationBeyondAnyClockIsMalformed() {
    do {
      _ = try EffectDescription(decoding: ["kind": "debounce", "id": "a", "seconds": 2e9, "action": ["type": "a"]])
      Issue.record("decoded a duration of 2e9 seconds")
    } catch {
      #expect(error.message == "a duration must be a finite number of seconds from 0 to 1e9 (about 31 years), got 2000000000")
    }
  }

  @Test func aDescriptionSwiftCannotDecodeIsAMalformedEffectAtTheFeaturesLine() async throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(
      """
      local lunar = require "lunar"
      return lunar.feature {
        name = "Far",
        initial = {},
        reduce = function(state, action)
          return lunar.fx.debounce("far", 2e9, { type = "later" })
        end,
      }
      """, chunkName: "far.lua")
    let store = makeStore(feature.reducer(), state: feature.initialState)
    await store.send(["type": "wait"]).finish()
    let errors = harness.takeErrors()
    #expect(errors.map(\.kind) == [.malformedEffect])
    #expect(errors.first?.message == "a duration must be a finite number of seconds from 0 to 1e9 (about 31 years), got 2000000000")
    #expect(errors.first?.location == "far.lua:5")
    #expect(errors.first?.action == ["type": "wait"])
  }

  static let composed = """
    local lunar = require "lunar"
    local fx = lunar.fx

    local Row = lunar.feature {
      name = "Row",
      initial = { id = 0, pongs = 0 },
      reduce = function(state, action)
        if action.type == "ping" then
          return fx.send { type = "pong" }
        elseif action.type == "pong" then
          state.pongs = state.pongs + 1
        end
      end,
    }

    local Sheet = lunar.feature {
      name = "Sheet",
      initial = {},
      reduce = function(state, action)
        if action.type == "close" then return fx.dismiss() end
      end,
    }

    return lunar.feature {
      name = "Board",
      initial = { rows = { { id = 1, pongs = 0 }, { id = 2, pongs = 0 } } },
      body = {
        lunar.forEach("rows", Row),
        lunar.ifLet("detail", Sheet),
        lunar.reduce(function(state, action)
          if action.type == "removeFirst" then
            table.remove(state.rows, 1)
          elseif action.type == "present" then
            state.detail = {}
          end
        end),
      },
    }
    """

  @Test func theEffectsOfComposedChildrenDecodeAndRun() async throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.composed, chunkName: "board.lua")
    let store = makeStore(feature.reducer(), state: feature.initialState)
    await store.send(["type": "rows", "id": 2, "action": ["type": "ping"]]).finish()
    await store.send(["type": "present"]).finish()
    await store.send(["type": "detail", "action": ["type": "close"]]).finish()
    await store.send(["type": "removeFirst"]).finish()
    #expect(harness.takeErrors().isEmpty)
    #expect(store.state.value == ["rows": [["id": 2, "pongs": 1]]])
  }
}
