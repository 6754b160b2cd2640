import Foundation
import SiftSyntax

/// Where and as whom to connect, read from `mysql://USER:PASSWORD@HOST:PORT/DATABASE`
/// (`mariadb://` is the same). User, password and database are percent-decoded; the port
/// defaults to 3306; an IPv6 host is written in brackets (`mysql://u@[::1]/db`). The password,
/// if any, never appears in `description` or in an error.
///
/// ```swift
/// let url = try MySQLURL("mysql://sift:s%40fe@127.0.0.1/shop")
/// url.password      // "s@fe"
/// url.description   // mysql://sift:***@127.0.0.1:3306/shop
/// ```
public struct MySQLURL: Sendable, Hashable, CustomStringConvertible {
  /// The user name (may be empty: the server's anonymous user).
  public var user: String
  /// The password, if the URL has one.
  public var password: String?
  /// The host name or address (without IPv6 brackets).
  public var host: String
  /// The TCP port.
  public var port: Int
  /// The database to use, if the URL names one.
  public var database: String?

  /// Parses a URL.
  ///
  /// ```swift
  /// try MySQLURL("mysql://root@localhost/test").port   // 3306
  /// ```
  /// - Throws: `SiftError` `mysql-connection` naming what is wrong (the password masked).
  public init(_ text: String) throws(SiftError) {
    let masked = MySQLURL.mask(text)
    func invalid(_ why: String) -> SiftError {
      MySQLError(
        kind: .connection,
        message: "invalid MySQL URL \(masked): \(why); expected "
          + "mysql://USER:PASSWORD@HOST:PORT/DATABASE"
      ).siftError
    }
    var rest = Substring(text.trimmingCharacters(in: .whitespaces))
    guard let scheme = rest.range(of: "://") else { throw invalid("no scheme") }
    guard ["mysql", "mariadb"].contains(rest[..<scheme.lowerBound].lowercased()) else {
      throw invalid("the scheme must be mysql:// or mariadb://")
    }
    rest = rest[scheme.upperBound...]
    // The user information runs to the last `@`, so a password may hold `/`, `:` or `@` as typed.
    var userInfo: Substring?
    if let at = rest.lastIndex(of: "@") {
      userInfo = rest[..<at]
      rest = rest[rest.index(after: at)...]
    }
    if rest.contains("?") || rest.contains("#") { throw invalid("query parameters are not supported") }
    var path: Substring?
    if let slash = rest.firstIndex(of: "/") {
      path = rest[rest.index(after: slash)...]
      rest = rest[..<slash]
    }
    var hostText = rest
    var portText: Substring?
    if hostText.hasPrefix("[") {
      guard let close = hostText.firstIndex(of: "]") else { throw invalid("an IPv6 host has no closing ]") }
      let after = hostText[hostText.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw invalid("unexpected text after the host") }
        portText = after.dropFirst()
      }
      hostText = hostText[hostText.index(after: hostText.startIndex)..<close]
    } else if let colon = hostText.lastIndex(of: ":") {
      portText = hostText[hostText.index(after: colon)...]
      hostText = hostText[..<colon]
    }
    guard !hostText.isEmpty else { throw invalid("no host") }
    host = String(hostText)
    if let portText {
      guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
        portText.count <= 5, let p = Int(portText), (1...65535).contains(p)
      else { throw invalid("the port must be a number from 1 to 65535") }
      port = p
    } else {
      port = 3306
    }
    user = ""
    password = nil
    if let userInfo {
      let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      guard let u = MySQLURL.decode(parts[0]) else { throw invalid("the user is not valid percent-encoding") }
      user = u
      if parts.count == 2 {
        guard let p = MySQLURL.decode(parts[1]) else { throw invalid("the password is not valid percent-encoding") }
        password = p
      }
    }
    database = nil
    if let path, !path.isEmpty {
      guard !path.contains("/"), let d = MySQLURL.decode(path) else {
        throw invalid("the database name must be one percent-encoded path component")
      }
      database = d
    }
    for (what, value) in [("host", host), ("user", user), ("password", password ?? ""), ("database", database ?? "")]
    where value.utf8.contains(0) {
      throw invalid("the \(what) contains NUL")
    }
  }

  /// The URL with the password replaced by `***`.
  public var description: String {
    var text = "mysql://"
    if !user.isEmpty || password != nil {
      text += MySQLURL.encode(user) + (password == nil ? "" : ":***") + "@"
    }
    text += (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    if let database { text += "/" + MySQLURL.encode(database) }
    return text
  }

  /// `host:port`, for messages.
  public var server: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

  /// `text` with whatever lies between `user:` and the last `@` masked.
  static func mask(_ text: String) -> String {
    guard let scheme = text.range(of: "://") else { return text.contains("@") ? "(URL not shown)" : text }
    let afterScheme = text[scheme.upperBound...]
    guard let at = afterScheme.lastIndex(of: "@"), let colon = afterScheme[..<at].firstIndex(of: ":") else {
      return text
    }
    return String(text[..<colon]) + ":***" + String(text[at...])
  }

  private static func decode(_ s: Substring) -> String? {
    s.contains("%") ? String(s).removingPercentEncoding : String(s)
  }

  private static func encode(_ s: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
  }
}
