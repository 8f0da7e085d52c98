import LuaBridge

extension FuzzTarget {
  /// Lua values crossing into Swift: the bytes are a chunk run in a sandbox (under small limits),
  /// and whatever it returns is read as ``LuaValue``s, written as JSON and read back.
  static let luaValue = FuzzTarget(name: "lua-value", summary: "values a Lua chunk returns, read into Swift") { input in
    guard let sandbox = LuaValueTarget.sandbox,
      let chunk = try? sandbox.load(String(decoding: input, as: UTF8.self), chunkName: "=fuzz"),
      let values = try? sandbox.vm.call(chunk)
    else { return }
    for value in values {
      // NB: A value the encoder refuses (NaN, a key that is not text) is refused, not a finding.
      guard let written = try? LuaJSONEncoder().encode(value) else { continue }
      guard (try? LuaJSONDecoder().decode(written)) != nil else {
        fuzzFailure("JSON written from a Lua value does not read back", input: input)
      }
    }
  }
}

@MainActor
private enum LuaValueTarget {
  static let sandbox: LuaSandbox? = {
    guard let vm = try? LuaVM(limits: FuzzScratch.limits) else { return nil }
    return try? vm.makeSandbox()
  }()
}
