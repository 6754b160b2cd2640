import Foundation
import SiftSQL
import SiftSyntax

extension PostgresDatabase {
  /// Checks, before a statement runs, that the functions it calls (`statement.requiredFunctions`:
  /// `sift.sift_fold`, `sift.sift_fdiv`, `sift.sift_exact`, the collation `sift.sift_localized`)
  /// exist in the schema the call names (`sift`, made by `sift setup-sql`; an unqualified name
  /// is looked up through `search_path`). `execute(_:)` calls it, so a statement compiled for a
  /// database that lacks Sift's setup fails before it starts, with an error naming the setup,
  /// never halfway with the server's "function does not exist". A function found is remembered
  /// for the connection; one missing is looked up again next time (after the setup has been run).
  ///
  /// ```swift
  /// try db.checkSiftFunctions(["sift_fold"])
  /// // error id missing-sift-functions: the database has no function sift.sift_fold ([c]/[d] comparisons) …
  /// ```
  /// - Throws: `SiftError` with id `missing-sift-functions` (a `PostgresError` of kind
  ///   `.missingSetup` beneath) naming the functions and
  ///   `sift setup-sql --dialect postgres`; `postgres-query`/`postgres-connection` if the catalog
  ///   cannot be read.
  public func checkSiftFunctions(_ names: [String]) throws(SiftError) {
    let references = names.map { SQLFunctionReference(schema: PostgreSQLDialect.defaultFunctionSchema, name: $0) }
    do throws(PostgresError) { try checkFunctions(references) } catch { throw error.siftError }
  }

  func checkFunctions(_ references: [SQLFunctionReference]) throws(PostgresError) {
    let wanted = siftFunctionsToCheck(references.filter { $0.name.hasPrefix("sift_") }.map(Self.qualifiedName))
    guard !wanted.isEmpty else { return }
    // `schema.name` for a qualified call (the name's own namespace), `.name` for one found
    // through search_path (visible).
    let rows = try query(
      "SELECT DISTINCT n.nspname::text || '.' || p.proname::text FROM pg_catalog.pg_proc p"
        + " JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
        + " WHERE n.nspname || '.' || p.proname = ANY (string_to_array($1, ','))"
        + " UNION SELECT '.' || p.proname::text FROM pg_catalog.pg_proc p"
        + " WHERE '.' || p.proname = ANY (string_to_array($1, ',')) AND pg_catalog.pg_function_is_visible(p.oid)"
        // The collation `sift_localized` (`.localizedStandard` sorts) is set up the same way.
        + " UNION SELECT n.nspname::text || '.' || c.collname::text FROM pg_catalog.pg_collation c"
        + " JOIN pg_catalog.pg_namespace n ON n.oid = c.collnamespace"
        + " WHERE n.nspname || '.' || c.collname = ANY (string_to_array($1, ','))"
        + " UNION SELECT '.' || c.collname::text FROM pg_catalog.pg_collation c"
        + " WHERE '.' || c.collname = ANY (string_to_array($1, ',')) AND pg_catalog.pg_collation_is_visible(c.oid)",
      [.text(wanted.joined(separator: ","))])
    var found: [String] = []
    for row in rows { if case .text(let name)? = row.first { found.append(name) } }
    rememberSiftFunctions(found)
    let missing = wanted.filter { !found.contains($0) }
    guard !missing.isEmpty else { return }
    let what = missing.map { qualified in
      let name = String(qualified.split(separator: ".", omittingEmptySubsequences: false).last ?? "")
      let shown = qualified.hasPrefix(".") ? name : qualified
      return PostgresDatabase.purposes[name].map { "\(shown) (\($0))" } ?? shown
    }
    throw PostgresError(
      kind: .missingSetup,
      message: "the database has no function \(what.joined(separator: ", ")), which this statement calls; "
        + "it was not run. Create Sift's SQL functions once per database (schema sift; idempotent) as a role that may: "
        + "sift setup-sql --dialect postgres --postgres CONNINFO (or PostgresDatabase.prepareSiftFunctions())")
  }

  /// `schema.name`, or `.name` for an unqualified reference.
  static func qualifiedName(_ reference: SQLFunctionReference) -> String {
    (reference.schema ?? "") + "." + reference.name
  }

  /// What each function is for, for the error message.
  static let purposes: [String: String] = [
    "sift_fold": "[c]/[d] comparisons and case-insensitive sorts",
    "sift_fdiv": "division of doubles",
    "sift_exact": "comparing doubles with large integers",
    "sift_localized": "the collation of localized sorts",
  ]
}
