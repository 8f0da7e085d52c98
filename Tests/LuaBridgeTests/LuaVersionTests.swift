import LuaBridge
import Testing

@Test func linksLua54() {
  #expect(LuaVersion.number == 504)
}
