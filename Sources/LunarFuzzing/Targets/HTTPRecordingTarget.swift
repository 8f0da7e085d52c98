import LuaFeatures

extension FuzzTarget {
  /// A recorded HTTP exchange under a plugin's `fixtures/http/`.
  static let httpRecording = FuzzTarget(name: "http-recording", summary: "a recorded HTTP exchange (fixtures/http)") { input in
    let file = FuzzScratch.write(input, to: "fixtures/http/GET-example.com-fuzz.json")
    _ = try? HTTPFixture.read(file)
  }
}
