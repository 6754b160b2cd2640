import Foundation
import SiftPostgres

/// The server the live PostgreSQL tests use (`SIFT_POSTGRES`); they skip without it.
enum LivePostgresServer {
  /// The conninfo, when one is set and a connection with it succeeds.
  static let conninfo: String? = {
    guard let info = ProcessInfo.processInfo.environment["SIFT_POSTGRES"],
      !info.trimmingCharacters(in: .whitespaces).isEmpty
    else { return nil }
    do {
      try PostgresDatabase(conninfo: info).close()
      return info
    } catch {
      return nil
    }
  }()

  /// True when the tests can run.
  static var isAvailable: Bool { conninfo != nil }

  /// Why they were skipped.
  static let skipMessage = "live PostgreSQL tests skipped: set SIFT_POSTGRES (see README, Tests and CI)"

  /// A connection in a fresh schema (`sift_live_<random>`), dropped when it closes.
  static func open() throws -> PostgresDatabase {
    try PostgresDatabase(conninfo: conninfo ?? "", schema: .temporary(prefix: "sift_live"))
  }
}
