import Foundation
import SiftSyntax

/// The SQL half of `sift batch`: compiles each case for the schema's entity and runs it against an
/// in-memory SQLite database (and PostgreSQL with `--postgres`).
struct BatchSQL {
  struct Failure: Error, CustomStringConvertible { var description: String }

  /// Adds `"sql"`, `"bindings"`, `"sqlMatches"` (and `"pgMatches"`) to a case's output.
  func process(_ predicate: SiftPredicate, into out: inout [String: SiftValue]) throws(SiftError) {}
}

extension BatchContext {
  /// Sets up SQL compilation when `--schema` and `--entity` are given.
  mutating func configureSQL(schema: String?, entity: String?, postgres: String?) throws {
    guard schema != nil || entity != nil || postgres != nil else { return }
    guard schema != nil, entity != nil else {
      throw BatchSQL.Failure(description: "--schema and --entity go together")
    }
    throw BatchSQL.Failure(description: "SQL compilation is not available yet")
  }
}
