import Foundation
import SiftSyntax

/// A value bound to a statement placeholder or read back from a result row.
///
/// Booleans exist as their own case so each dialect can bind them the way its database
/// expects (SQLite stores 0/1 integers, PostgreSQL has `boolean`).
///
/// ```swift
/// let values: [SQLValue] = [.integer(42), .text("Red bar"), .null, .bool(true)]
/// ```
public enum SQLValue: Sendable, Hashable, CustomStringConvertible {
  /// SQL `NULL`.
  case null
  /// A 64-bit integer.
  case integer(Int64)
  /// A double-precision number.
  case double(Double)
  /// Text (UTF-8 on both databases).
  case text(String)
  /// Raw bytes (`BLOB` / `bytea`).
  case blob(Data)
  /// A boolean (`boolean` in PostgreSQL; SQLite statements bind `.integer(0/1)` instead).
  case bool(Bool)

  /// A short rendering for logs and test failures: `NULL`, `42`, `'text'`, `x'00ff'`.
  ///
  /// ```swift
  /// SQLValue.text("it's").description   // 'it''s'
  /// ```
  public var description: String {
    switch self {
    case .null: return "NULL"
    case .integer(let i): return String(i)
    case .double(let d): return String(d)
    case .text(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
    case .blob(let d): return "x'" + d.map { String(format: "%02x", $0) }.joined() + "'"
    case .bool(let b): return b ? "TRUE" : "FALSE"
    }
  }

  /// The integer payload (booleans count as 0/1), if any.
  ///
  /// ```swift
  /// SQLValue.integer(3).intValue   // 3
  /// ```
  public var intValue: Int64? {
    switch self {
    case .integer(let i): return i
    case .bool(let b): return b ? 1 : 0
    default: return nil
    }
  }
}

/// A parameterized SQL statement: text with placeholders (`?` for SQLite, `$1…` for
/// PostgreSQL) and the values to bind, in placeholder order. No value from a predicate ever
/// appears in `sql`.
///
/// ```swift
/// let st = SQLStatement(sql: "SELECT 1 WHERE ? = ?", bindings: [.integer(1), .integer(1)])
/// ```
public struct SQLStatement: Sendable, Hashable, CustomStringConvertible {
  /// The statement text.
  public var sql: String
  /// One value per placeholder, in order.
  public var bindings: [SQLValue]
  /// The schema a compiler compiled this statement against (nil for a statement written by
  /// hand): every driver checks it against the database on first use, whichever way the
  /// statement is run (`SQLSchema.checkStorage`). Not part of equality.
  package var schema: SQLSchema?

  /// Creates a statement.
  public init(sql: String, bindings: [SQLValue] = []) {
    self.sql = sql
    self.bindings = bindings
  }

  /// Two statements are equal when their text and bindings are.
  public static func == (a: SQLStatement, b: SQLStatement) -> Bool { a.sql == b.sql && a.bindings == b.bindings }

  /// Hashes the text and bindings.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(sql)
    hasher.combine(bindings)
  }

  /// The SQL followed by the bindings, e.g. `SELECT … WHERE x = ? -- [42]`.
  public var description: String {
    bindings.isEmpty ? sql : sql + " -- " + bindings.map(\.description).joined(separator: ", ")
  }
}

/// What both database runners (SiftSQLite's `SQLiteDatabase`, SiftPostgres's connection)
/// provide, so loaders and tests can drive either one.
///
/// ```swift
/// func countVenues(_ db: any SQLDatabase) throws(SiftError) -> Int64? {
///   try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM \"venue\"")).first?.first?.intValue
/// }
/// ```
public protocol SQLDatabase: AnyObject {
  /// Runs one statement with its bindings and returns every result row.
  func execute(_ statement: SQLStatement) throws(SiftError) -> [[SQLValue]]
  /// Runs a script of one or more statements without bindings (DDL, setup).
  func executeScript(_ sql: String) throws(SiftError)
  /// Runs one statement and hands its rows to `body` in batches of at most `size` (never an
  /// empty one), keeping no more than one batch: `fetchBatchSize` (`fetch(_:compiler:batches:)`).
  /// The default reads every row first; SiftSQLite and SiftPostgres stream them.
  func forEachBatch(
    _ statement: SQLStatement, size: Int, _ body: ([[SQLValue]]) throws(SiftError) -> Void
  ) throws(SiftError)
}
