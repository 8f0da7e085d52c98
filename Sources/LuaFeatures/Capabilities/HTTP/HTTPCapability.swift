import LuaBridge

extension LuaCapability {
  /// `deps.http`: HTTP requests from effects, answered by `transport`.
  ///
  /// ```lua
  /// return fx.run(function(send)
  ///   local response = deps.http.get("http://numbersapi.com/" .. n)
  ///   send { type = "factLoaded", fact = response.body }
  /// end)
  /// ```
  ///
  /// - `deps.http.request { method =, url =, headers =, body =, timeout = }` returns
  ///   `{ status =, headers =, body = }` (header names in lower case). Only `url` is required;
  ///   `method` defaults to `"GET"`, `timeout` to 30 seconds.
  /// - `deps.http.get(url [, headers])` is `request { url = url, headers = headers }`.
  ///
  /// Any status is an answer (check `response.status`); an error is raised only when there is no
  /// answer (the URL, a refused connection, a timeout, a missing recording), naming the URL.
  /// Both are asynchronous: call them inside `fx.run`. Cancelling the effect cancels the request.
  ///
  /// Every request is checked before `transport` sees it: its URL is read by ``HTTPURL`` (and
  /// normalised), its headers are tokens with one-line values, and `Host` is not settable. A
  /// response's body longer than `maximumResponseBytes` (or ``HTTPRequest/responseLimit`` when a
  /// plugin host sets it) is an error, not an answer.
  public static func http(
    _ transport: HTTPTransport, maximumResponseBytes: Int = HTTPRequest.defaultMaximumResponseBytes
  ) -> LuaCapability {
    @Sendable func perform(_ lua: LuaValue) async throws -> LuaValue {
      var request = try HTTPRequest(lua: lua)
      let limit = HTTPRequest.responseLimit ?? maximumResponseBytes
      request.maximumResponseBytes = limit
      let response = try await transport.perform(request)
      // NB: an app's own transport may not honour the limit; the VM never gets more than it.
      guard response.body.count <= limit else { throw HTTPError.responseTooLarge(url: request.url, limit: limit) }
      return response.lua
    }
    return LuaCapability(name: "http", functions: [
      "http.request": .async { arguments in
        try LuaDependencies.checkCount(arguments, 1, "http.request")
        return try await perform(arguments.first ?? .nil)
      },
      "http.get": .async { arguments in
        try LuaDependencies.checkCount(arguments, 2, "http.get")
        guard let url = arguments.first?.stringValue else {
          throw HTTPError.badRequest("url must be a string, got \((arguments.first ?? .nil).luaType)")
        }
        var table: [LuaString: LuaValue] = ["url": .string(LuaString(url))]
        if arguments.count > 1 { table["headers"] = arguments[1] }
        return try await perform(.table(table))
      },
    ])
  }
}

extension LuaCapability {
  /// The URL a call of a `deps.http` function asks for, read from its arguments
  /// (`http.get(url, …)`, `http.request { url = … }`); `nil` when it gives none, and the call
  /// then fails on its own. For hosts that restrict where requests may go.
  ///
  /// ```swift
  /// LuaCapability.httpURL(of: "http.get", arguments: ["https://dog.ceo/api"])   // "https://dog.ceo/api"
  /// ```
  public static func httpURL(of function: String, arguments: [LuaValue]) -> String? {
    guard let first = arguments.first else { return nil }
    return function == "http.get" ? first.stringValue : first[LuaString("url")].stringValue
  }
}
