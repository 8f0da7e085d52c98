import Composable
import Testing

@Test func effectOriginReadsAsFileAndLine() {
  let origin = EffectOrigin(fileID: "Feature/Counter.swift", filePath: "/x/Counter.swift", line: 42, column: 7)
  #expect(origin.description == "Feature/Counter.swift:42")
}
