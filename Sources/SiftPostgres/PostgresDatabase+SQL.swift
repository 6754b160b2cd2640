import Foundation
import SiftSQL
import SiftSyntax

extension PostgresDatabase: SQLDatabase {
  /// Runs a compiled statement (`$1…$n` placeholders) and returns its rows as `SQLValue`s.
  ///
  /// Bindings travel as typed parameters: `.null` → NULL (type left to the server), `.bool` →
  /// `boolean`, `.integer` → `int8`, `.double` → `float8` (exact), `.text` → `text`, `.blob` →
  /// binary `bytea`. Result cells come back by column type: `bool` → `.bool`; `int2/4/8` →
  /// `.integer`; `float4/8` → `.double`; `numeric` → `.integer` when integral and in range,
  /// else `.double`; `bytea` → `.blob`; text types, `timestamptz` and arrays → `.text`.
  ///
  /// ```swift
  /// let rows = try db.execute(SQLStatement(sql: "SELECT $1::int8 * 2", bindings: [.integer(21)]))
  /// // [[.integer(42)]]
  /// ```
  /// Too few bindings is a server error; extra bindings are accepted (PostgreSQL declares the
  /// unused typed parameters), unlike SQLite. A statement that calls Sift's SQL functions
  /// (`statement.requiredFunctions`) runs only when the database has them
  /// (`checkSiftFunctions(_:)`).
  /// - Throws: `SiftError` (stage `.sql`, its `underlying` the `PostgresError`); text containing
  ///   NUL is refused as `postgres-unsupported-value`; missing
  ///   Sift functions are `.missingSetup`, before anything runs.
  public func execute(_ statement: SQLStatement) throws(SiftError) -> [[SQLValue]] {
    try checkSchema(of: statement)
    do throws(PostgresError) { return try executeChecked(statement) } catch { throw error.siftError }
  }

  /// A compiled statement's schema checked against the database on its first use
  /// (`SQLStatement.schema`, `SQLSchema.checkStorage`), whichever way the statement is run.
  func checkSchema(of statement: SQLStatement) throws(SiftError) {
    if let schema = statement.schema { try schemaChecks.check(schema, in: self, dialect: PostgreSQLDialect()) }
  }

  func executeChecked(_ statement: SQLStatement) throws(PostgresError) -> [[SQLValue]] {
    try checkFunctions(statement.requiredFunctionReferences)
    let rows = try query(statement.sql, statement.bindings.map(PostgresWireValue.init))
    return rows.map { $0.map(SQLValue.init) }
  }

  /// Runs `;`-separated statements without bindings, e.g. DDL or a dialect's setup script.
  ///
  /// ```swift
  /// try db.executeScript("CREATE TABLE t (a int8); INSERT INTO t VALUES (1)")
  /// ```
  public func executeScript(_ sql: String) throws(SiftError) {
    try run(sql)
  }
}

extension PostgresDatabase {
  /// Connects (see `init(conninfo:schema:)`) and makes sure Sift's SQL functions exist
  /// (`prepareSiftFunctions()`), so compiled statements find `sift.sift_fold` and the rest — the
  /// usual way to open a database for Sift when the role may create them.
  ///
  /// ```swift
  /// let db = try PostgresDatabase.prepared(conninfo: info, schema: .temporary())
  /// try db.load(records, entity: "Venue", schema: schema, dialect: PostgreSQLDialect())
  /// ```
  /// - Throws: `SiftError`; `postgres-query` if the role may not create the schema `sift`.
  public static func prepared(conninfo: String, schema: Schema = .current) throws(SiftError)
    -> PostgresDatabase
  {
    let db = try PostgresDatabase(conninfo: conninfo, schema: schema)
    do {
      try db.prepareSiftFunctions()
    } catch {
      db.close()
      throw error
    }
    return db
  }

  /// Creates Sift's SQL functions in their own schema (`PostgreSQLDialect.setupSQL(schema:grantees:)`,
  /// default `sift`) unless that schema already holds this version of them (its comment names
  /// `PostgreSQLDialect.setupVersion`) with the grants asked for: `USAGE` on the schema and
  /// `EXECUTE` on its functions to `PUBLIC` (`grantees` empty), or to the roles named (then not to
  /// `PUBLIC`). One transaction under an advisory lock, so connections preparing at once do not
  /// collide; the user's schemas are not touched. Then checks that the connecting role may use
  /// the functions. Returns whether anything was created, replaced or granted.
  ///
  /// ```swift
  /// try db.prepareSiftFunctions()   // true the first time in a database, then false
  /// ```
  /// - Throws: `SiftError`; `sift-functions-privilege` if the role may not create or grant them
  ///   (nothing changed) or may not use them, naming the missing privilege and the fix.
  @discardableResult
  public func prepareSiftFunctions(
    schema: String = PostgreSQLDialect.defaultFunctionSchema, grantees: [String] = []
  ) throws(SiftError) -> Bool {
    if try hasSiftSetup(schema: schema), try hasGrants(schema: schema, grantees: grantees) {
      try checkPrivileges(schema: schema)
      return false
    }
    do throws(PostgresError) {
      try runSetup(schema: schema, grantees: grantees)
    } catch {
      guard error.sqlState == "42501" else { throw error.siftError }
      let role = (try? currentRole()) ?? "this role"
      let owner = (try? schemaOwner(schema)) ?? nil
      throw PostgresError(
        kind: .missingPrivilege,
        message: "role \(role) may not create or grant Sift's SQL functions in schema "
          + "\(PostgreSQLDialect.qualifier(schema)) (\(error.message)); nothing changed. Run sift setup-sql "
          + "--dialect postgres --postgres CONNINFO as "
          + (owner.map { "the schema's owner, role \($0)" } ?? "a role with CREATE on the database"),
        sqlState: error.sqlState
      ).siftError
    }
    try checkPrivileges(schema: schema)
    return true
  }

  /// The setup, or only its grants when the functions are current, in one transaction.
  func runSetup(schema: String, grantees: [String]) throws(PostgresError) {
    try runScript("BEGIN")
    do throws(PostgresError) {
      // One key for every Sift setup in this database (hashtext of a fixed name).
      try runScript("SELECT pg_advisory_xact_lock(hashtext('sift setup-sql'))")
      let statements: [String]
      if !(try isCurrent(schema: schema)) {
        statements = PostgreSQLDialect.setupSQL(schema: schema, grantees: grantees)
      } else if !(try grantsMatch(schema: schema, grantees: grantees)) {
        statements = PostgreSQLDialect.grantSQL(schema: schema, grantees: grantees)
      } else {
        statements = []
      }
      for sql in statements { try runScript(sql) }
      try runScript("COMMIT")
    } catch {
      try? runScript("ROLLBACK")
      throw error
    }
  }

  /// Whether schema `schema` holds the current setup (its comment names `setupVersion`).
  func hasSiftSetup(schema: String) throws(SiftError) -> Bool {
    do throws(PostgresError) { return try isCurrent(schema: schema) } catch { throw error.siftError }
  }

  func isCurrent(schema: String) throws(PostgresError) -> Bool {
    let rows = try query(
      "SELECT pg_catalog.obj_description(n.oid, 'pg_namespace') FROM pg_catalog.pg_namespace n WHERE n.nspname = $1",
      [.text(schema)])
    guard case .text(let comment)? = rows.first?.first else { return false }
    return comment.hasSuffix("setup " + PostgreSQLDialect.setupVersion)
  }

  func hasGrants(schema: String, grantees: [String]) throws(SiftError) -> Bool {
    do throws(PostgresError) { return try grantsMatch(schema: schema, grantees: grantees) } catch {
      throw error.siftError
    }
  }

  /// Whether each grantee (`PUBLIC` when none) may use the schema and call every function in
  /// it, and, when roles are named, `PUBLIC` may not use the schema.
  func grantsMatch(schema: String, grantees: [String]) throws(PostgresError) -> Bool {
    for role in grantees.isEmpty ? ["public"] : grantees {
      let rows = try query(
        "SELECT pg_catalog.has_schema_privilege($1, n.oid, 'USAGE')"
          + " AND coalesce(bool_and(pg_catalog.has_function_privilege($1, p.oid, 'EXECUTE')), true)"
          + " FROM pg_catalog.pg_namespace n LEFT JOIN pg_catalog.pg_proc p ON p.pronamespace = n.oid"
          + " WHERE n.nspname = $2 GROUP BY n.oid",
        [.text(role), .text(schema)])
      // A role that does not exist is an error of the GRANT, which names it.
      guard rows.first?.first == .bool(true) else { return false }
    }
    guard !grantees.isEmpty else { return true }
    let rows = try query(
      "SELECT pg_catalog.has_schema_privilege('public', n.oid, 'USAGE') FROM pg_catalog.pg_namespace n"
        + " WHERE n.nspname = $1", [.text(schema)])
    return rows.first?.first == .bool(false)
  }

  /// Throws `sift-functions-privilege` unless the connecting role may use the schema and call
  /// every function in it.
  func checkPrivileges(schema: String) throws(SiftError) {
    do throws(PostgresError) {
      let rows = try query(
        "SELECT pg_catalog.has_schema_privilege(n.oid, 'USAGE'), current_user::text,"
          + " coalesce(string_agg(p.proname::text, ', ' ORDER BY p.proname)"
          + " FILTER (WHERE NOT pg_catalog.has_function_privilege(p.oid, 'EXECUTE')), '')"
          + " FROM pg_catalog.pg_namespace n LEFT JOIN pg_catalog.pg_proc p ON p.pronamespace = n.oid"
          + " WHERE n.nspname = $1 GROUP BY n.oid",
        [.text(schema)])
      guard let row = rows.first, row.count == 3, case .text(let role) = row[1], case .text(let functions) = row[2]
      else { return }
      let s = PostgreSQLDialect.qualifier(schema)
      let lacking =
        row[0] != .bool(true) ? "USAGE on schema \(s)" : functions.isEmpty ? nil : "EXECUTE on \(functions) in \(s)"
      guard let lacking else { return }
      let owner = (try? schemaOwner(schema)) ?? nil
      throw PostgresError(
        kind: .missingPrivilege,
        message: "role \(role) may not use Sift's SQL functions: it lacks \(lacking). Grant it once as "
          + (owner.map { "the schema's owner (role \($0))" } ?? "the schema's owner")
          + ": sift setup-sql --dialect postgres --postgres OWNER_CONNINFO (grants to PUBLIC; --grant \(role) for "
          + "this role alone), or GRANT USAGE ON SCHEMA \(s) TO \(role); GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA "
          + "\(s) TO \(role)",
        sqlState: "42501")
    } catch { throw error.siftError }
  }

  /// The owner of schema `schema`, if it exists.
  func schemaOwner(_ schema: String) throws(PostgresError) -> String? {
    let rows = try query(
      "SELECT pg_catalog.pg_get_userbyid(nspowner)::text FROM pg_catalog.pg_namespace WHERE nspname = $1",
      [.text(schema)])
    if case .text(let owner)? = rows.first?.first { return owner }
    return nil
  }
}

extension PostgresWireValue {
  init(_ value: SQLValue) {
    switch value {
    case .null: self = .null
    case .integer(let i): self = .int(i)
    case .double(let d): self = .double(d)
    case .text(let s): self = .text(s)
    case .blob(let d): self = .bytes(d)
    case .bool(let b): self = .bool(b)
    }
  }
}

extension SQLValue {
  init(_ value: PostgresWireValue) {
    switch value {
    case .null: self = .null
    case .int(let i): self = .integer(i)
    case .double(let d): self = .double(d)
    case .text(let s): self = .text(s)
    case .bytes(let d): self = .blob(d)
    case .bool(let b): self = .bool(b)
    }
  }
}
