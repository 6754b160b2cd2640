import Foundation
import SiftSQL
import SiftSyntax

extension PostgresDatabase {
  /// Checks, before a statement runs, that the functions it calls (`statement.requiredFunctions`:
  /// `sift_fold`, `sift_fdiv`, `sift_exact`) exist where the connection looks for them
  /// (`pg_proc`, visible through `search_path`). `execute(_:)` calls it, so a statement compiled
  /// for a database that lacks Sift's setup fails before it starts, with an error naming the
  /// setup, never halfway with the server's "function does not exist". A function found is
  /// remembered for the connection; one missing is looked up again next time (after the setup
  /// has been run).
  ///
  /// ```swift
  /// try db.checkSiftFunctions(["sift_fold"])
  /// // error id missing-sift-functions: the database has no function sift_fold ([c]/[d] comparisons) …
  /// ```
  /// - Throws: `SiftError` with id `missing-sift-functions` (a `PostgresError` of kind
  ///   `.missingSetup` beneath) naming the functions and
  ///   `sift setup-sql --dialect postgres`; `postgres-query`/`postgres-connection` if the catalog
  ///   cannot be read.
  public func checkSiftFunctions(_ names: [String]) throws(SiftError) {
    do throws(PostgresError) { try checkFunctions(names) } catch { throw error.siftError }
  }

  func checkFunctions(_ names: [String]) throws(PostgresError) {
    let wanted = siftFunctionsToCheck(names.filter { $0.hasPrefix("sift_") })
    guard !wanted.isEmpty else { return }
    let rows = try query(
      "SELECT DISTINCT p.proname::text FROM pg_catalog.pg_proc p"
        + " WHERE p.proname = ANY (string_to_array($1, ',')) AND pg_catalog.pg_function_is_visible(p.oid)"
        // The collation `sift_localized` (`.localizedStandard` sorts) is set up the same way.
        + " UNION SELECT c.collname::text FROM pg_catalog.pg_collation c"
        + " WHERE c.collname = ANY (string_to_array($1, ',')) AND pg_catalog.pg_collation_is_visible(c.oid)",
      [.text(wanted.joined(separator: ","))])
    var found: [String] = []
    for row in rows { if case .text(let name)? = row.first { found.append(name) } }
    rememberSiftFunctions(found)
    let missing = wanted.filter { !found.contains($0) }
    guard !missing.isEmpty else { return }
    let what = missing.map { name in PostgresDatabase.purposes[name].map { "\(name) (\($0))" } ?? name }
    let place = schemaName.map { "schema \(PostgresDatabase.quoteIdentifier($0)) or public" } ?? "the search_path"
    throw PostgresError(
      kind: .missingSetup,
      message: "the database has no function \(what.joined(separator: ", ")) in \(place), which this statement calls; "
        + "it was not run. Create Sift's SQL functions once (idempotent) as a role that may: "
        + "sift setup-sql --dialect postgres | psql CONNINFO (or PostgresDatabase.prepareSiftFunctions())")
  }

  /// What each function is for, for the error message.
  static let purposes: [String: String] = [
    "sift_fold": "[c]/[d] comparisons and case-insensitive sorts",
    "sift_fdiv": "division of doubles",
    "sift_exact": "comparing doubles with large integers",
    "sift_localized": "the collation of localized sorts",
  ]
}
