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
    // through search_path (visible); with whether the connecting role may use the schema and
    // call the function (a collation needs the schema only).
    let rows = try query(
      "SELECT n.nspname::text || '.' || p.proname::text, n.nspname::text,"
        + " pg_catalog.has_schema_privilege(n.oid, 'USAGE'), pg_catalog.has_function_privilege(p.oid, 'EXECUTE')"
        + " FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
        + " WHERE n.nspname || '.' || p.proname = ANY (string_to_array($1, ','))"
        + " UNION ALL SELECT '.' || p.proname::text, n.nspname::text,"
        + " pg_catalog.has_schema_privilege(n.oid, 'USAGE'), pg_catalog.has_function_privilege(p.oid, 'EXECUTE')"
        + " FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
        + " WHERE '.' || p.proname = ANY (string_to_array($1, ',')) AND pg_catalog.pg_function_is_visible(p.oid)"
        // The collation `sift_localized` (`.localizedStandard` sorts) is set up the same way.
        + " UNION ALL SELECT n.nspname::text || '.' || c.collname::text, n.nspname::text,"
        + " pg_catalog.has_schema_privilege(n.oid, 'USAGE'), true FROM pg_catalog.pg_collation c"
        + " JOIN pg_catalog.pg_namespace n ON n.oid = c.collnamespace"
        + " WHERE n.nspname || '.' || c.collname = ANY (string_to_array($1, ','))"
        + " UNION ALL SELECT '.' || c.collname::text, n.nspname::text, pg_catalog.has_schema_privilege(n.oid, 'USAGE'),"
        + " true FROM pg_catalog.pg_collation c JOIN pg_catalog.pg_namespace n ON n.oid = c.collnamespace"
        + " WHERE '.' || c.collname = ANY (string_to_array($1, ',')) AND pg_catalog.pg_collation_is_visible(c.oid)",
      [.text(wanted.joined(separator: ","))])
    var usable: Set<String> = [], refused: [String: String] = [:]
    for row in rows {
      guard row.count == 4, case .text(let name) = row[0], case .text(let schema) = row[1] else { continue }
      let schemaOK = row[2] == .bool(true), callOK = row[3] == .bool(true)
      if schemaOK && callOK {
        usable.insert(name)
      } else if refused[name] == nil {
        let quoted = PostgreSQLDialect.qualifier(schema)
        refused[name] =
          schemaOK ? "EXECUTE on function \(Self.shown(name, schema: schema))" : "USAGE on schema \(quoted)"
      }
    }
    rememberSiftFunctions(Array(usable))
    let missing = wanted.filter { !usable.contains($0) && refused[$0] == nil }
    if !missing.isEmpty {
      let what = missing.map { qualified in
        let name = Self.bareName(qualified)
        let shown = qualified.hasPrefix(".") ? name : qualified
        return PostgresDatabase.purposes[name].map { "\(shown) (\($0))" } ?? shown
      }
      throw PostgresError(
        kind: .missingSetup,
        message: "the database has no function \(what.joined(separator: ", ")), which this statement calls; "
          + "it was not run. Create Sift's SQL functions once per database (schema sift; idempotent) as a role that may: "
          + "sift setup-sql --dialect postgres --postgres CONNINFO (or PostgresDatabase.prepareSiftFunctions())")
    }
    let denied = wanted.filter { !usable.contains($0) }
    guard let first = denied.first, let privilege = refused[first] else { return }
    let role = (try? currentRole()) ?? "this role"
    let names = denied.map { qualified in
      let name = Self.bareName(qualified)
      return PostgresDatabase.purposes[name].map { "\(name) (\($0))" } ?? name
    }
    let grant = privilege.replacingOccurrences(of: " on function ", with: " ON FUNCTION ")
      .replacingOccurrences(of: " on schema ", with: " ON SCHEMA ")
    throw PostgresError(
      kind: .missingPrivilege,
      message: "role \(role) may not use Sift's SQL functions \(names.joined(separator: ", ")), which this statement "
        + "calls: it lacks \(privilege); it was not run. Grant it once as the owner of Sift's schema: "
        + "sift setup-sql --dialect postgres --postgres OWNER_CONNINFO (grants to PUBLIC; --grant \(role) for this "
        + "role alone), or GRANT \(grant) TO \(role)",
      sqlState: "42501")
  }

  /// The connecting role's name (`current_user`).
  func currentRole() throws(PostgresError) -> String {
    if case .text(let name)? = try query("SELECT current_user::text", []).first?.first { return name }
    return "this role"
  }

  /// `fold` from `sift.sift_fold` or `.sift_fold`.
  static func bareName(_ qualified: String) -> String {
    String(qualified.split(separator: ".", omittingEmptySubsequences: false).last ?? "")
  }

  /// `schema.name` for a found function (`.name` shown in `schema`).
  static func shown(_ qualified: String, schema: String) -> String {
    PostgreSQLDialect.qualifier(schema) + "." + bareName(qualified)
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
    "sift_localized_events": "localized sorts",
    "sift_localized_base": "localized sorts",
    "sift_localized_case": "localized sorts",
  ]
}
