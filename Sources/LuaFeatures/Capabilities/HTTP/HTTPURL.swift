import Foundation

/// An `http` or `https` URL as Lunar reads it, before any transport sees it: the scheme, the host
/// (normalised) and the port, so that grants are checked on what the request will reach.
///
/// ```swift
/// let url = try HTTPURL(parsing: "https://Images.Dog.Ceo./breeds?x=1")
/// url.host          // .name("images.dog.ceo")
/// url.port          // 443
/// url.description   // "https://images.dog.ceo/breeds?x=1"
/// ```
///
/// Only one way of writing each host is accepted, so that every parser agrees on where a request
/// goes: a host name (letters, digits, `-`, dots; a trailing dot is dropped), an IPv4 address as
/// four decimal numbers (`127.0.0.1`), or an IPv6 address in brackets (`[::1]`). Refused: other
/// schemes, a user name or password (`user@host`), percent-encoded or non-ASCII hosts, IPv4 written
/// in decimal, octal or hex (`2130706433`, `0177.0.0.1`, `0x7f.1`), backslashes, spaces and control
/// characters anywhere in the URL.
public struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
  /// Where a URL's host points.
  public enum Host: Sendable, Hashable, CustomStringConvertible {
    /// A DNS name, in lower case, without a trailing dot: `images.dog.ceo`.
    case name(String)
    /// An IPv4 address as four decimal numbers: `127.0.0.1`.
    case ipv4(String)
    /// An IPv6 address in its shortest form, without brackets: `::1`.
    case ipv6(String)

    /// The host as a URL writes it (`[::1]` for IPv6).
    public var description: String {
      switch self {
      case let .name(text), let .ipv4(text): text
      case let .ipv6(text): "[\(text)]"
      }
    }

    /// Reads a host as a URL writes it (IPv6 in brackets), or says why it is not one.
    public init(parsing text: Substring) throws(HTTPURL.Refusal) {
      if text.isEmpty { throw .noHost }
      if text.contains("%") { throw .encodedHost }
      if text.first == "[" {
        guard text.last == "]", let address = Self.ipv6(text.dropFirst().dropLast()) else { throw .badIPv6 }
        self = .ipv6(address)
        return
      }
      var name = text.lowercased()
      if name.hasSuffix(".") { name.removeLast() }
      let labels = name.split(separator: ".", omittingEmptySubsequences: false)
      guard let last = labels.last else { throw .noHost }
      if Self.looksNumeric(last) {
        guard labels.count == 4, labels.allSatisfy(Self.isDecimalOctet) else { throw .oddIPv4 }
        self = .ipv4(name)
        return
      }
      guard labels.allSatisfy(Self.isLabel) else { throw .badName }
      self = .name(name)
    }

    /// Whether this host is `other` or, for a DNS name, a subdomain of it.
    public func isWithin(_ other: Host) -> Bool {
      switch (self, other) {
      case let (.name(mine), .name(theirs)): mine == theirs || mine.hasSuffix("." + theirs)
      default: self == other
      }
    }

    // NB: a last label of digits (or `0x…`) makes the whole host an IPv4 address for URL parsers
    //     (WHATWG's and curl's alike), so such a host must be a canonical dotted quad or nothing.
    private static func looksNumeric(_ label: Substring) -> Bool {
      let lower = label.lowercased()
      if lower.hasPrefix("0x") { return lower.dropFirst(2).allSatisfy { $0.isASCII && $0.isHexDigit } }
      return !label.isEmpty && label.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func isDecimalOctet(_ label: Substring) -> Bool {
      guard !label.isEmpty, label.count <= 3, label.allSatisfy({ $0.isASCII && $0.isNumber }),
        label == "0" || label.first != "0", let value = Int(label)
      else { return false }
      return value <= 255
    }

    private static func isLabel(_ label: Substring) -> Bool {
      guard let first = label.first, let last = label.last, label.count <= 63, first != "-", last != "-" else { return false }
      return label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    private static func ipv6(_ text: Substring) -> String? {
      guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else { return nil }
      var address = in6_addr()
      guard inet_pton(AF_INET6, String(text), &address) == 1 else { return nil }
      var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
      guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
      return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }

  /// Why a URL (or a grant) is refused.
  public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    case notHTTP
    case forbiddenCharacter
    case backslash
    case userInfo
    case noHost
    case encodedHost
    case badIPv6
    case oddIPv4
    case badName
    case badPort
    /// A grant that is more than a host and a port.
    case notAuthority

    public var description: String {
      switch self {
      case .notHTTP: "it is not an absolute http:// or https:// URL"
      case .forbiddenCharacter: "it holds a space, a control character or a non-ASCII character (percent-encode them)"
      case .backslash: "it holds a backslash"
      case .userInfo: "it names a user or password before '@' (send credentials in a header)"
      case .noHost: "it has no host"
      case .encodedHost: "its host is percent-encoded"
      case .badIPv6: "its host is not an IPv6 address in brackets like [::1]"
      case .oddIPv4: "its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"
      case .badName: "its host is not a name of letters, digits and '-' between dots like dog.ceo"
      case .badPort: "its port is not a number from 1 to 65535"
      case .notAuthority: "a grant is a host and an optional port, without a scheme, user or path"
      }
    }
  }

  /// `http` or `https`.
  public let scheme: String
  /// The host, normalised.
  public let host: Host
  /// The port the request goes to: the one written, else 80 for `http` and 443 for `https`.
  public let port: Int
  /// Whether the URL writes its port.
  public let hasExplicitPort: Bool
  /// The path, query and fragment as written (`/breeds?x=1`), possibly empty.
  public let rest: String

  /// The default port of `scheme`: 443 for `https`, else 80.
  public static func defaultPort(of scheme: String) -> Int { scheme == "https" ? 443 : 80 }

  /// Reads `text`, or says why it is not a URL Lunar sends.
  public init(parsing text: String) throws(Refusal) {
    let bytes = Array(text.utf8)
    if bytes.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) { throw .forbiddenCharacter }
    if bytes.contains(UInt8(ascii: "\\")) { throw .backslash }
    guard let separator = text.range(of: "://") else { throw .notHTTP }
    let scheme = text[..<separator.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else { throw .notHTTP }
    let afterScheme = text[separator.upperBound...]
    let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
    let authority = afterScheme[..<authorityEnd]
    if authority.contains("@") { throw .userInfo }
    var hostText = authority
    var port: Int?
    // NB: the port follows the last ':' after the host; an IPv6 host holds colons of its own, inside brackets.
    if let colon = authority.lastIndex(of: ":"), !(authority.first == "[" && authority.last == "]") {
      let digits = authority[authority.index(after: colon)...]
      guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
        let value = Int(digits), (1...65535).contains(value)
      else { throw .badPort }
      port = value
      hostText = authority[..<colon]
    }
    self.scheme = scheme
    self.host = try Host(parsing: hostText)
    self.port = port ?? Self.defaultPort(of: scheme)
    self.hasExplicitPort = port != nil
    self.rest = String(afterScheme[authorityEnd...])
  }

  /// The host and, when written, the port: `dog.ceo`, `127.0.0.1:8080`, `[::1]:8080`.
  public var authority: String {
    hasExplicitPort ? "\(host):\(port)" : host.description
  }

  /// The URL as sent: the scheme and host in lower case, the rest as written.
  public var description: String { "\(scheme)://\(authority)\(rest)" }

  /// `text` with what a terminal would not show plainly (control characters, non-ASCII bytes)
  /// escaped, for error messages.
  public static func printable(_ text: String) -> String {
    var printed = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\r"): printed += "\\r"
      case UInt8(ascii: "\n"): printed += "\\n"
      case 0x20..<0x7F: printed.append(Character(Unicode.Scalar(byte)))
      default: printed += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
      }
    }
    return printed
  }
}
