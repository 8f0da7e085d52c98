import LuaBridge

/// `lunar.json`: the host's JSON codec for scripts, the same one that writes events, recordings
/// and persisted files.
///
/// ```lua
/// local text = lunar.json.encode { count = 1, tags = { "a" } }   -- '{"count":1,"tags":["a"]}'
/// local value = lunar.json.decode(response.body)
/// lunar.json.encode(state, { pretty = true })
/// ```
///
/// Keys are written in byte order; integers stay integers and floats keep their point; `nil` is
/// `null`. Strings that are not UTF-8, NaN, infinities and nesting deeper than the host's data limit
/// are refused with the path of the value (`value.todos[3].title`); so are duplicate keys and text
/// that is not JSON when decoding (with the byte offset).
///
/// An empty table is `[]` when it is marked as a list (`lunar.array()`, or a list that reached Lua
/// as an array), `{}` otherwise; `[]` decodes to a marked list, so it encodes back as `[]`.
///
/// > Important: JSON's `null` in an object removes the key (Lua tables hold no nil); in an array it
/// > leaves a hole.
enum LunarJSON {
  /// The `{ encode = …, decode = … }` table the `lunar` module is built with.
  ///
  /// NB: the functions reach the VM through their arguments: a closure stored in the VM that held
  ///     the VM would keep both alive forever.
  static func codec(in vm: LuaVM) throws(LuaError) -> LuaTable {
    let encode = try vm.function(named: "lunar.json.encode") { arguments in
      let value = try arguments.value(1)
      var pretty = false
      if arguments.count >= 2, case let .table(options) = try arguments.value(2) {
        pretty = options[LuaString("pretty")]?.boolValue ?? false
      }
      let encoder = LuaJSONEncoder(prettyPrinted: pretty, depthLimit: arguments.vm.limits.dataDepth)
      do {
        return .value(LuaValue.string(LuaString(bytes: try encoder.encode(value, root: "value"))))
      } catch {
        throw Failure(description: "lunar.json.encode: \(error)")
      }
    }
    let decode = try vm.function(named: "lunar.json.decode") { arguments in
      guard case let .string(text) = try arguments.value(1) else {
        throw Failure(description: "lunar.json.decode expects a string, got \(try arguments.value(1).luaType)")
      }
      do {
        return .value(try LuaJSONDecoder(depthLimit: arguments.vm.limits.dataDepth).decode(text.bytes, root: "value"))
      } catch {
        throw Failure(description: "lunar.json.decode: \(error)")
      }
    }
    let table = try vm.newTable()
    try table.set("encode", encode)
    try table.set("decode", decode)
    return table
  }

  /// A refusal, raised at the script's line.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }
}
