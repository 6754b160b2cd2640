import Foundation
import SiftLive
import SiftSQL
import SiftSQLite
import SiftSyntax

/// Rows in and out: quoting, conversion between SQLite's values and records.
extension SQLiteLiveTable {
  /// `"name"`, with `"` doubled.
  static func quote(_ name: String) -> String { SQLiteDialect().quoteIdentifier(name) }

  static func columnList(_ names: [String]) -> String { names.map(quote).joined(separator: ", ") }

  static func run(_ db: SQLiteDatabase, _ statement: SQLStatement) throws(SiftError) -> [[SQLValue]] {
    do {
      return try db.execute(statement)
    } catch {
      throw SiftError.live(error.diagnostic.message, underlying: error)
    }
  }

  /// `PRAGMA data_version`: changes when another connection commits.
  static func dataVersion(_ db: SQLiteDatabase) throws(SiftError) -> Int64 {
    guard case .integer(let v)? = try run(db, SQLStatement(sql: "PRAGMA data_version")).first?.first else {
      throw SiftError.live("PRAGMA data_version returned no number")
    }
    return v
  }

  /// A row as a record: integers, doubles, text, blobs and NULL as themselves (SQLite has no
  /// booleans or dates: they read back as the integers or text stored).
  static func record(_ row: [SQLValue], columns: [String]) -> [String: SiftValue] {
    var r: [String: SiftValue] = [:]
    for (name, v) in zip(columns, row) {
      switch v {
      case .null: r[name] = .null
      case .integer(let i): r[name] = .int(i)
      case .double(let d): r[name] = .double(d)
      case .text(let s): r[name] = .string(s)
      case .blob(let b): r[name] = .data(b)
      case .bool(let b): r[name] = .int(b ? 1 : 0)
      }
    }
    return r
  }

  /// A value to bind: booleans as 0/1, dates as ISO 8601 text (`SiftJSON.formatDate`);
  /// arrays and dictionaries have no column form.
  static func sqlValue(_ v: SiftValue, column: String) throws(SiftError) -> SQLValue {
    switch v {
    case .null: return .null
    case .bool(let b): return .integer(b ? 1 : 0)
    case .int(let i): return .integer(i)
    case .double(let d): return .double(d)
    case .string(let s): return .text(s)
    case .date(let d): return .text(SiftJSON.formatDate(d))
    case .data(let d): return .blob(d)
    case .array, .dictionary:
      throw SiftError.live("column '\(column)' cannot hold \(v.kindName) \(SiftJSON.serialize(v))")
    }
  }
}
