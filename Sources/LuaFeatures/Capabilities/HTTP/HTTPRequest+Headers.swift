import LuaBridge

extension HTTPRequest {
  /// The headers a script's `headers` field gives, each name a token and each value one line,
  /// or the error naming the header that is not.
  ///
  /// `Host` is refused: the host a request reaches is its URL's, which grants check; a header
  /// naming another would reach other sites served at the same address. So are the headers that
  /// frame the body (`Content-Length`, `Transfer-Encoding`, `Connection`): the host sets them.
  static func headers(_ value: LuaValue) throws(HTTPError) -> [String: String] {
    var headers: [String: String] = [:]
    switch value {
    case .nil, .array([]): break
    case let .table(entries):
      for (name, value) in entries.sorted(by: { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }) {
        guard let key = name.string, isToken(key) else {
          throw .badRequest(
            "headers[\"\(HTTPURL.printable(name.description))\"]: a header name is a token (letters, digits and !#$%&'*+-.^_`|~)")
        }
        guard let text = value.stringValue ?? value.numberText else {
          throw .badRequest("headers[\"\(key)\"] must be a string, got \(value.luaType)")
        }
        if text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
          throw .badRequest("headers[\"\(key)\"] holds a line break or a NUL byte: a header's value is one line")
        }
        if key.lowercased() == "host" {
          throw .badRequest("headers[\"\(key)\"] cannot be set: a request's host is its url's")
        }
        if framing.contains(key.lowercased()) {
          throw .badRequest("headers[\"\(key)\"] cannot be set: the host frames the request itself")
        }
        headers[key] = text
      }
    case let other: throw .badRequest("headers must be a table of strings, got \(other.luaType)")
    }
    return headers
  }

  /// The headers that say where a request's body ends: a script setting them could make one
  /// request read as two by the server.
  static let framing: Set<String> = ["content-length", "transfer-encoding", "connection"]

  /// Whether `name` is a header name as HTTP defines it (RFC 9110's `token`).
  static func isToken(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
      default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
      }
    }
  }
}

extension LuaValue {
  /// A number as header text (`5`, `1.5`).
  fileprivate var numberText: String? {
    switch self {
    case let .integer(value): String(value)
    case let .number(value) where value.isFinite: String(value)
    default: nil
    }
  }
}
