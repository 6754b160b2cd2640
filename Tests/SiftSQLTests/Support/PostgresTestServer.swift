import Foundation
import SiftPostgres

/// Where the PostgreSQL tests find their server: the conninfo in env `SIFT_POSTGRES`
/// (for example `host=127.0.0.1 user=sift password=sift dbname=sift`, as printed by
/// `.ci/postgres-setup`). Without it, or when the server does not answer, the tests that need
/// it are skipped with `PostgresTestServer.skipMessage`, printed once to stderr as well.
enum PostgresTestServer {
  /// How to enable the skipped tests.
  static let howToRun =
    "run `.ci/postgres-setup` (as root) and then "
    + "`SIFT_POSTGRES='host=127.0.0.1 user=sift password=sift dbname=sift' swift test`"

  /// The conninfo, when one is set and a connection with it succeeds.
  static let conninfo: String? = {
    guard let info = ProcessInfo.processInfo.environment["SIFT_POSTGRES"],
      !info.trimmingCharacters(in: .whitespaces).isEmpty
    else {
      note("SIFT_POSTGRES is not set")
      return nil
    }
    do {
      try PostgresDatabase(conninfo: info).close()
      return info
    } catch {
      note("cannot reach the server in SIFT_POSTGRES (\(error))")
      return nil
    }
  }()

  /// True when PostgreSQL tests can run.
  static var isAvailable: Bool { conninfo != nil }

  /// The reason shown on each skipped test.
  static let skipMessage = "PostgreSQL tests skipped: \(howToRun)"

  /// A connection in a fresh schema that is dropped when the connection closes.
  static func open() throws -> PostgresDatabase {
    guard let conninfo else { throw PostgresError(kind: .connection, message: skipMessage) }
    return try PostgresDatabase.prepared(conninfo: conninfo, schema: .temporary(prefix: "sift_test"))
  }

  private static func note(_ why: String) {
    FileHandle.standardError.write(Data("note: \(why); \(skipMessage)\n".utf8))
  }
}
