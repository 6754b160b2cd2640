import Foundation
import SiftSQL
import SiftSyntax

extension MySQLDatabase: SQLBulkLoading {
  /// A writer that sends rows as multi-row `INSERT … VALUES (?, …), (?, …)` statements instead
  /// of one round trip per row: rows are buffered per table and sent, every table in the
  /// loader's order (parents before children, so declared foreign keys find their rows), when a
  /// table holds 1,000 rows or 60,000 values, when about 4 MB are waiting, and at `finish`
  /// (inside `load`'s transaction, so a failure leaves nothing behind). Every value stays bound.
  ///
  /// ```swift
  /// try db.load(records, entity: "Venue", schema: schema, dialect: MySQLDialect())   // uses it
  /// ```
  public func rowWriter(for tables: [SQLLoadTable]) throws(SiftError) -> any SQLRowWriter {
    MySQLRowWriter(database: self, tables: tables.map { ($0.name, $0.columns) })
  }
}

/// One load's buffered rows (see `MySQLDatabase.rowWriter(for:)`).
final class MySQLRowWriter: SQLRowWriter {
  let database: MySQLDatabase
  /// `INSERT INTO `t` (`a`, `b`) VALUES ` per table, and its row's placeholders.
  let heads: [String]
  let rowPlaceholders: [String]
  let widths: [Int]
  var values: [[SQLValue]]
  var rows: [Int]
  var bytes = 0
  let maxRows: Int
  /// Placeholders per statement: below MySQL's limit of 65,535.
  static let maxValues = 60_000
  /// Bytes buffered before they are sent (below the default `max_allowed_packet`).
  static let flushSize = 4 << 20

  init(database: MySQLDatabase, tables: [(name: String, columns: [String])], maxRows: Int = 1000) {
    self.database = database
    let q = MySQLDatabase.quoteIdentifier
    heads = tables.map { "INSERT INTO " + q($0.name) + " (" + $0.columns.map(q).joined(separator: ", ") + ") VALUES " }
    rowPlaceholders = tables.map { "(" + Array(repeating: "?", count: $0.columns.count).joined(separator: ", ") + ")" }
    widths = tables.map(\.columns.count)
    values = Array(repeating: [], count: tables.count)
    rows = Array(repeating: 0, count: tables.count)
    self.maxRows = max(1, maxRows)
  }

  func write(_ table: Int, _ row: [SQLValue]) throws(SiftError) {
    guard values.indices.contains(table), row.count == widths[table] else {
      throw MySQLError(
        kind: .unsupportedValue, message: "a row of \(row.count) values for a table of other width (table \(table))"
      ).siftError
    }
    values[table] += row
    rows[table] += 1
    for v in row {
      switch v {
      case .text(let s): bytes += s.utf8.count
      case .blob(let d): bytes += d.count
      default: bytes += 8
      }
    }
    if rows[table] >= maxRows || values[table].count + widths[table] > Self.maxValues || bytes > Self.flushSize {
      try flush()
    }
  }

  /// Sends every table's rows, in table order.
  func flush() throws(SiftError) {
    for table in values.indices where rows[table] > 0 {
      let sql = heads[table] + Array(repeating: rowPlaceholders[table], count: rows[table]).joined(separator: ", ")
      let bound = values[table]
      values[table] = []
      rows[table] = 0
      _ = try database.executeUpdate(SQLStatement(sql: sql, bindings: bound))
    }
    bytes = 0
  }

  func finish() throws(SiftError) { try flush() }

  func cancel() {
    values = values.map { _ in [] }
    rows = rows.map { _ in 0 }
    bytes = 0
  }
}
