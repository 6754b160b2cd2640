import Foundation
import SiftMySQL
import SiftSQL

/// Where the MySQL/MariaDB tests find their server: the URL in env `SIFT_MYSQL` (for example
/// `mysql://sift:sift@127.0.0.1:3306/sift`, as printed by `.ci/mariadb-setup`). Without it, or
/// when the server does not answer, the tests that need it are skipped with `skipMessage`,
/// printed once to stderr as well.
enum MySQLTestServer {
  /// How to enable the skipped tests.
  static let howToRun =
    "run `.ci/mariadb-setup` (as root) and then `SIFT_MYSQL='mysql://sift:sift@127.0.0.1:3306/sift' swift test`"

  /// The URL, when one is set and a connection with it succeeds.
  static let url: String? = {
    guard let url = ProcessInfo.processInfo.environment["SIFT_MYSQL"],
      !url.trimmingCharacters(in: .whitespaces).isEmpty
    else {
      note("SIFT_MYSQL is not set")
      return nil
    }
    do {
      try MySQLDatabase(url: url).close()
      return url
    } catch {
      note("cannot reach the server in SIFT_MYSQL (\(error))")
      return nil
    }
  }()

  /// True when MySQL tests can run.
  static var isAvailable: Bool { url != nil }

  /// The reason shown on each skipped test.
  static let skipMessage = "MySQL/MariaDB tests skipped: \(howToRun)"

  /// A random suffix for names the tests create.
  static func unique(_ prefix: String) -> String {
    "\(prefix)_\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
  }

  /// `url` with its database replaced by `database` (and, if given, its user and password).
  static func url(database: String, user: String? = nil, password: String? = nil) throws -> String {
    guard let url else { throw MySQLError(kind: .connection, message: skipMessage) }
    var parsed = try MySQLURL(url)
    parsed.database = database
    var text = "mysql://"
    let enc: (String) -> String = { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0 }
    text += enc(user ?? parsed.user)
    if let p = password ?? parsed.password { text += ":" + enc(p) }
    text += "@\(parsed.server)/" + enc(database)
    return text
  }

  /// A fresh database (`sift_t_<random>`) and a writable connection to it; `drop()` removes it.
  final class Scratch {
    let name: String
    let db: MySQLDatabase
    let admin: MySQLDatabase

    init() throws {
      name = MySQLTestServer.unique("sift_t")
      guard let url = MySQLTestServer.url else { throw MySQLError(kind: .connection, message: skipMessage) }
      admin = try MySQLDatabase(url: url, readOnly: false)
      try admin.executeScript("CREATE DATABASE \(MySQLDatabase.quoteIdentifier(name)) CHARACTER SET utf8mb4")
      db = try MySQLDatabase(url: try MySQLTestServer.url(database: name), readOnly: false)
    }

    /// A read-only connection to the scratch database.
    func reader() throws -> MySQLDatabase {
      try MySQLDatabase(url: try MySQLTestServer.url(database: name))
    }

    deinit {
      db.close()
      try? admin.executeScript("DROP DATABASE IF EXISTS \(MySQLDatabase.quoteIdentifier(name))")
      admin.close()
    }
  }

  private static func note(_ why: String) {
    FileHandle.standardError.write(Data("note: \(why); \(skipMessage)\n".utf8))
  }
}
