import LuaBridge

/// What a page asks the hub, one JSON object per message.
///
/// ```
/// {"type":"select","id":3}              the state, view and diff of entry 3
/// {"type":"dispatch","action":"add title=milk"}
/// {"type":"resume","id":3}              put the store back in entry 3's state
/// {"type":"export","format":"record"}   or "test"
/// {"type":"import","text":"{\"kind\":\"session\",…}\n…"}
/// {"type":"skip","id":3}                recompute the states after entry 3 without its action
/// {"type":"unskip","id":3}              and with it again
/// ```
enum DevtoolsRequest: Equatable {
  case select(Int)
  case dispatch(String)
  case resume(Int)
  case exportRecording
  case exportTest
  case importRecording(String)
  case skip(Int, Bool)

  init(_ text: String) throws(DevtoolsRequestError) {
    let message: LuaValue
    do {
      message = try LuaJSONDecoder().decode(text)
    } catch {
      throw DevtoolsRequestError("not JSON: \(error)")
    }
    guard case .table = message else { throw DevtoolsRequestError("a request is a JSON object with a \"type\"") }
    let type = message[LuaString("type")].stringValue
    func id() throws(DevtoolsRequestError) -> Int {
      guard let id = message[LuaString("id")].integerValue.flatMap({ Int(exactly: $0) }) else {
        throw DevtoolsRequestError("\(type ?? "?") needs an integer id")
      }
      return id
    }
    func string(_ field: String) throws(DevtoolsRequestError) -> String {
      guard let text = message[LuaString(field)].stringValue else { throw DevtoolsRequestError("\(type ?? "?") needs a text \(field)") }
      return text
    }
    switch type {
    case "select": self = .select(try id())
    case "resume": self = .resume(try id())
    case "skip": self = .skip(try id(), true)
    case "unskip": self = .skip(try id(), false)
    case "dispatch": self = .dispatch(try string("action"))
    case "import": self = .importRecording(try string("text"))
    case "export":
      switch message[LuaString("format")].stringValue {
      case "record": self = .exportRecording
      case "test": self = .exportTest
      case let other: throw DevtoolsRequestError("export format \(other.map { "'\($0.prefix(40))'" } ?? "(none)") is not record or test")
      }
    default:
      throw DevtoolsRequestError("unknown request \(type.map { "'\($0.prefix(40))'" } ?? "(no type)") (requests: dispatch, export, import, resume, select, skip, unskip)")
    }
  }
}

/// Why a page's request was refused, in words the page shows.
public struct DevtoolsRequestError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
