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
    do throws(PostgresError) { return try executeChecked(statement) } catch { throw error.siftError }
  }

  func executeChecked(_ statement: SQLStatement) throws(PostgresError) -> [[SQLValue]] {
    try checkFunctions(statement.requiredFunctions)
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
  /// Connects (see `init(conninfo:schema:)`) and runs `PostgreSQLDialect.setupSQL`, so
  /// compiled statements find `sift_fold` and `sift_fdiv` — the usual way to open
  /// a database for Sift. The functions are created in the connection's schema (the first in
  /// `search_path`), so a `.temporary` schema keeps them private and drops them on close.
  ///
  /// ```swift
  /// let db = try PostgresDatabase.prepared(conninfo: info, schema: .temporary())
  /// try db.load(records, entity: "Venue", schema: schema, dialect: PostgreSQLDialect())
  /// ```
  /// - Throws: `SiftError`; `postgres-query` if the role may not create functions in the schema.
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

  /// Runs `PostgreSQLDialect.setupSQL` (idempotent: `IF NOT EXISTS` / `CREATE OR REPLACE`).
  ///
  /// ```swift
  /// try db.prepareSiftFunctions()
  /// ```
  public func prepareSiftFunctions() throws(SiftError) {
    for sql in PostgreSQLDialect.setupSQL { try run(sql) }
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
