import Foundation
import SiftPostgres
import SiftSQL
import SiftSyntax
import Testing

/// A SELECT-only application role and Sift's functions (issue #35, item 5): the setup grants
/// `USAGE` on its schema and `EXECUTE` on its functions to `PUBLIC` (or to the roles named), a
/// role that may not use them gets `sift-functions-privilege` naming what it lacks before the
/// statement runs, and a role that may not create or grant them is refused, never told "nothing
/// changed". Each test makes its own role and function schema (unique names) and drops them.
@Suite(
  "PostgreSQL roles and Sift's functions",
  .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
struct PostgresRoleTests {
  /// A uniquely named login role with SELECT on one table, and a function schema of its own.
  final class Fixture {
    let admin: PostgresDatabase
    let role: String
    let password = "sift-ro-pw"
    let functions: String
    let data: String
    let compiler: SQLCompiler

    init() throws {
      let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
      role = "sift_ro_" + suffix
      functions = "sift_fn_" + suffix
      admin = try PostgresDatabase(conninfo: try #require(PostgresTestServer.conninfo), schema: .temporary())
      data = try #require(admin.schemaName)
      let may = try admin.execute(
        SQLStatement(sql: "SELECT rolcreaterole OR rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user"))
      try #require(may == [[.bool(true)]], "the test role needs CREATEROLE: run .ci/postgres-setup (it grants it)")
      let q = PostgresDatabase.quoteIdentifier
      try admin.run(
        "CREATE ROLE \(q(role)) LOGIN PASSWORD '\(password)';"
          + "CREATE TABLE \(q(data)).note (id bigint PRIMARY KEY, title text, rating double precision);"
          + "INSERT INTO \(q(data)).note VALUES (1, 'file10', 4), (2, 'File9', 1), (3, 'ﬁle01', 2);"
          + "GRANT USAGE ON SCHEMA \(q(data)) TO \(q(role)); GRANT SELECT ON \(q(data)).note TO \(q(role))")
      let schema = try SQLSchema(
        json: """
          {"entities": {"note": {"table": "note", "attributes": {
            "id": "integer", "title": "string", "rating": "double"}}}}
          """)
      compiler = SQLCompiler(dialect: PostgreSQLDialect(functionSchema: functions), schema: schema)
    }

    /// The test server's conninfo with this role's user and password.
    func roleConninfo() throws -> String {
      let base = try #require(PostgresTestServer.conninfo)
      let parts = base.split(separator: " ").filter { !$0.hasPrefix("user=") && !$0.hasPrefix("password=") }
      return (parts.map(String.init) + ["user=\(role)", "password=\(password)"]).joined(separator: " ")
    }

    /// `[c]`, a division and a localized sort: every kind of Sift function.
    func request() throws -> SQLStatement {
      try compiler.compile(
        SiftFetchRequest(
          entity: "note", predicate: try SiftPredicate(format: "title BEGINSWITH[c] 'fi' AND rating / 2 > 0"),
          sortDescriptors: [SiftSortDescriptor("title", comparison: .localizedStandard)]))
    }

    /// The statement run as the role on a fresh connection (no remembered checks).
    func runAsRole() throws -> [[SQLValue]] {
      let db = try PostgresDatabase(conninfo: try roleConninfo())
      defer { db.close() }
      try db.run("SET search_path TO \(PostgresDatabase.quoteIdentifier(data))")
      return try db.execute(try request())
    }

    func close() {
      let q = PostgresDatabase.quoteIdentifier
      try? admin.run("DROP SCHEMA IF EXISTS \(q(functions)) CASCADE")
      try? admin.run("REVOKE ALL ON \(q(data)).note FROM \(q(role)); REVOKE ALL ON SCHEMA \(q(data)) FROM \(q(role))")
      try? admin.run("DROP ROLE IF EXISTS \(q(role))")
      admin.close()
    }
  }

  /// The ids of `body`'s error, or nil when it succeeds.
  static func errorID(_ body: () throws -> Void) -> (id: String, message: String)? {
    do { try body() } catch let e as SiftError { return (e.id, e.message) } catch { return ("\(error)", "") }
    return nil
  }

  @Test func aSelectOnlyRoleUsesTheFunctionsTheSetupGrants() throws {
    let f = try Fixture()
    defer { f.close() }
    #expect(try f.admin.prepareSiftFunctions(schema: f.functions))
    let rows = try f.runAsRole()
    #expect(rows.map(\.first) == [.integer(3), .integer(2), .integer(1)], "\(rows)")
    // Run by the role once the setup is current and granted: nothing to do, and it says so.
    let role = try PostgresDatabase(conninfo: try f.roleConninfo())
    defer { role.close() }
    #expect(try role.prepareSiftFunctions(schema: f.functions) == false)
  }

  @Test func aRoleWithoutUsageIsToldWhatItLacksAndNothingRuns() throws {
    let f = try Fixture()
    defer { f.close() }
    try f.admin.prepareSiftFunctions(schema: f.functions)
    // The state an earlier Sift left: the functions, no grant on their schema.
    try f.admin.run("REVOKE USAGE ON SCHEMA \(PostgresDatabase.quoteIdentifier(f.functions)) FROM PUBLIC")
    let refused = try #require(Self.errorID { _ = try f.runAsRole() })
    #expect(refused.id == "sift-functions-privilege", "\(refused)")
    #expect(refused.message.contains("lacks USAGE on schema \(f.functions)"), "\(refused.message)")
    #expect(refused.message.contains("sift setup-sql --dialect postgres"), "\(refused.message)")
    #expect(refused.message.contains(f.role), "\(refused.message)")
    // setup-sql as that role: refused (it may not grant), never "nothing changed".
    let role = try PostgresDatabase(conninfo: try f.roleConninfo())
    defer { role.close() }
    let setup = try #require(Self.errorID { try role.prepareSiftFunctions(schema: f.functions) })
    #expect(setup.id == "sift-functions-privilege", "\(setup)")
    #expect(setup.message.contains("nothing changed") && setup.message.contains("owner"), "\(setup.message)")
    // Nor may it create a schema of its own.
    let fresh = try #require(Self.errorID { try role.prepareSiftFunctions(schema: f.functions + "_x") })
    #expect(fresh.id == "sift-functions-privilege", "\(fresh)")
    // The owner's setup grants it again.
    #expect(try f.admin.prepareSiftFunctions(schema: f.functions))
    #expect(try f.runAsRole().count == 3)
  }

  @Test func grantingNamedRolesLeavesPublicOut() throws {
    let f = try Fixture()
    defer { f.close() }
    #expect(try f.admin.prepareSiftFunctions(schema: f.functions, grantees: [f.role]))
    #expect(try f.runAsRole().count == 3)
    let publicUsage = try f.admin.execute(
      SQLStatement(sql: "SELECT has_schema_privilege('public', $1, 'USAGE')", bindings: [.text(f.functions)]))
    #expect(publicUsage == [[.bool(false)]])
    // Asked for again: nothing to do; asked for PUBLIC: granted.
    #expect(try f.admin.prepareSiftFunctions(schema: f.functions, grantees: [f.role]) == false)
    #expect(try f.admin.prepareSiftFunctions(schema: f.functions))
  }

  @Test func executeRevokedOnOneFunctionIsNamed() throws {
    let f = try Fixture()
    defer { f.close() }
    try f.admin.prepareSiftFunctions(schema: f.functions)
    let s = PostgresDatabase.quoteIdentifier(f.functions)
    try f.admin.run("REVOKE EXECUTE ON FUNCTION \(s).sift_fdiv(double precision, double precision) FROM PUBLIC")
    let refused = try #require(Self.errorID { _ = try f.runAsRole() })
    #expect(refused.id == "sift-functions-privilege", "\(refused)")
    #expect(refused.message.contains("EXECUTE on function \(f.functions).sift_fdiv"), "\(refused.message)")
  }
}
