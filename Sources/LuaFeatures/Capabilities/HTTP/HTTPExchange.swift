import Foundation
import LuaBridge

/// A request a script makes with `deps.http.request { … }`.
///
/// ```lua
/// local response = deps.http.request {
///   method = "POST", url = "https://example.com/notes",
///   headers = { ["content-type"] = "application/json" }, body = lunar.json.encode(note), timeout = 5,
/// }
/// ```
public struct HTTPRequest: Sendable, Hashable {
  /// `GET`, `POST`, … (upper case).
  public var method: String
  /// An absolute `http` or `https` URL.
  public var url: String
  /// Header names and values as given.
  public var headers: [String: String]
  /// The body's bytes (a Lua string), if any.
  public var body: [UInt8]?
  /// Seconds to wait for an answer.
  public var timeout: Double
  /// The most bytes the response's body may have. A transport stops reading past it and fails
  /// with ``HTTPError/responseTooLarge(url:limit:)``, so the host never holds more than this for
  /// one answer; `deps.http` refuses a longer body whatever the transport.
  public var maximumResponseBytes: Int

  /// The longest timeout a script may ask for: ten minutes.
  public static let maximumTimeout: Double = 600
  /// The timeout when a script gives none.
  public static let defaultTimeout: Double = 30
  /// The most bytes of a response's body when nothing sets another limit: 64 MiB.
  public static let defaultMaximumResponseBytes = 64 << 20

  /// The limit of a response's body for the `deps.http` calls made in this task, when set: a
  /// plugin host sets it to each plugin's quota around the plugin's calls, and it then replaces
  /// the limit the capability was offered with.
  @TaskLocal public static var responseLimit: Int?

  public init(
    method: String = "GET", url: String, headers: [String: String] = [:], body: [UInt8]? = nil,
    timeout: Double = defaultTimeout, maximumResponseBytes: Int = defaultMaximumResponseBytes
  ) {
    self.method = method.uppercased()
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
    self.maximumResponseBytes = maximumResponseBytes
  }

  /// The request a script's table describes, or the reason it is not one.
  init(lua value: LuaValue) throws(HTTPError) {
    guard case let .table(fields) = value else {
      throw .badRequest("expects a table like { url = \"https://…\" }, got \(value.luaType)")
    }
    let known: Set<LuaString> = ["method", "url", "headers", "body", "timeout"]
    if let unknown = fields.keys.filter({ !known.contains($0) }).sorted().first {
      throw .badRequest("has no field '\(unknown)' (fields: method, url, headers, body, timeout)")
    }
    guard let url = fields["url"]?.stringValue else { throw .badRequest("needs a url (a string)") }
    var method = "GET"
    if let given = fields["method"], !given.isNil {
      guard let text = given.stringValue, !text.isEmpty, text.allSatisfy({ $0.isLetter }) else {
        throw .badRequest("method must be a word like \"GET\" or \"POST\", got \(given)")
      }
      method = text
    }
    let headers = try Self.headers(fields["headers"] ?? .nil)
    var body: [UInt8]?
    switch fields["body"] ?? .nil {
    case .nil: break
    case let .string(bytes): body = Array(bytes.bytes)
    case let other: throw .badRequest("body must be a string (encode tables with lunar.json.encode), got \(other.luaType)")
    }
    var timeout = Self.defaultTimeout
    if let given = fields["timeout"], !given.isNil {
      guard let seconds = given.numberValue, seconds.isFinite, seconds > 0, seconds <= Self.maximumTimeout else {
        throw .badRequest("timeout must be a number of seconds above 0 and at most \(Int(Self.maximumTimeout)), got \(given)")
      }
      timeout = seconds
    }
    // NB: the transport gets the URL as Lunar read it (host normalised), so that what was checked
    //     is what is sent.
    self.init(method: method, url: try Self.parse(url).description, headers: headers, body: body, timeout: timeout)
  }

  /// `url` read by ``HTTPURL``, or the request error naming what is wrong with it.
  public static func parse(_ url: String) throws(HTTPError) -> HTTPURL {
    do {
      return try HTTPURL(parsing: url)
    } catch .notHTTP {
      throw .badRequest("url must be an absolute http:// or https:// URL, got \"\(HTTPURL.printable(url))\"")
    } catch {
      throw .badRequest("url \"\(HTTPURL.printable(url))\" is refused: \(error)")
    }
  }

  /// The URL, if Lunar reads it as an absolute http(s) URL, as Foundation's type.
  func validURL() throws(HTTPError) -> URL {
    let parsed = try Self.parse(url)
    guard let url = URL(string: parsed.description) else {
      throw .badRequest("url must be an absolute http:// or https:// URL, got \"\(HTTPURL.printable(url))\"")
    }
    return url
  }
}

/// What `deps.http.request` returns: `{ status = 200, headers = { ["content-type"] = … }, body = "…" }`.
public struct HTTPResponse: Sendable, Hashable {
  /// The status code.
  public var status: Int
  /// Header names in lower case, and their values.
  public var headers: [String: String]
  /// The body's bytes.
  public var body: [UInt8]

  public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.body = body
  }

  /// The table a script receives.
  var lua: LuaValue {
    var headerTable: [LuaString: LuaValue] = [:]
    for (name, value) in headers { headerTable[LuaString(name)] = .string(LuaString(value)) }
    return .table([
      "status": .integer(Int64(status)),
      "headers": .table(headerTable),
      "body": .string(LuaString(bytes: body)),
    ])
  }
}
