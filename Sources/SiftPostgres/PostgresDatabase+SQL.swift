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

  /// Creates Sift's SQL functions in their own schema (`PostgreSQLDialect.setupSQL(schema:)`,
  /// default `sift`) unless that schema already holds this version of them (its comment names
  /// `PostgreSQLDialect.setupVersion`). One transaction under an advisory lock, so connections
  /// preparing at once do not collide; the user's schemas are not touched. Returns whether
  /// anything was created or replaced.
  ///
  /// ```swift
  /// try db.prepareSiftFunctions()   // true the first time in a database, then false
  /// ```
  /// - Throws: `SiftError`; `postgres-query` if the role may not create the schema.
  @discardableResult
  public func prepareSiftFunctions(schema: String = PostgreSQLDialect.defaultFunctionSchema) throws(SiftError) -> Bool {
    if try hasSiftSetup(schema: schema) { return false }
    try run("BEGIN")
    do {
      // One key for every Sift setup in this database (hashtext of a fixed name).
      try run("SELECT pg_advisory_xact_lock(hashtext('sift setup-sql'))")
      if try hasSiftSetup(schema: schema) {
        try run("COMMIT")
        return false
      }
      for sql in PostgreSQLDialect.setupSQL(schema: schema) { try run(sql) }
      try run("COMMIT")
    } catch {
      try? run("ROLLBACK")
      throw error
    }
    return true
  }

  /// Whether schema `schema` holds the current setup (its comment names `setupVersion`).
  func hasSiftSetup(schema: String) throws(SiftError) -> Bool {
    let rows: [[PostgresWireValue]]
    do throws(PostgresError) {
      rows = try query(
        "SELECT pg_catalog.obj_description(n.oid, 'pg_namespace') FROM pg_catalog.pg_namespace n WHERE n.nspname = $1",
        [.text(schema)])
    } catch { throw error.siftError }
    guard case .text(let comment)? = rows.first?.first else { return false }
    return comment.hasSuffix("setup " + PostgreSQLDialect.setupVersion)
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
