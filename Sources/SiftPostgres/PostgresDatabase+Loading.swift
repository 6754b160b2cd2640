import Foundation
import SiftSQL
import SiftSyntax

extension PostgresDatabase: SQLBulkLoading {
  /// A writer that sends rows with `COPY "table" (columns) FROM STDIN` (text format) instead
  /// of one round trip per INSERT: rows are buffered per table and sent, table by table in the
  /// loader's order, whenever about 4 MB are waiting and at `finish` (inside `load`'s
  /// transaction, so a failure leaves nothing behind).
  ///
  /// ```swift
  /// try db.load(records, entity: "Venue", schema: schema, dialect: PostgreSQLDialect())   // uses it
  /// ```
  public func rowWriter(for tables: [SQLLoadTable]) throws(SiftError) -> any SQLRowWriter {
    PostgresRowWriter(database: self, tables: tables)
  }
}

/// One load's COPY buffers (see `PostgresDatabase.rowWriter(for:)`).
final class PostgresRowWriter: SQLRowWriter {
  let database: PostgresDatabase
  let copySQL: [String]
  var buffers: [[UInt8]]
  var buffered = 0
  /// Bytes buffered before they are sent.
  static let flushSize = 4 << 20

  init(database: PostgresDatabase, tables: [SQLLoadTable]) {
    self.database = database
    let q = PostgresDatabase.quoteIdentifier
    copySQL = tables.map { "COPY " + q($0.name) + " (" + $0.columns.map(q).joined(separator: ", ") + ") FROM STDIN" }
    buffers = Array(repeating: [], count: tables.count)
  }

  func write(_ table: Int, _ values: [SQLValue]) throws(SiftError) {
    let before = buffers[table].count
    do {
      for (i, v) in values.enumerated() {
        if i > 0 { buffers[table].append(0x09) }
        try PostgresRowWriter.append(v, to: &buffers[table])
      }
    } catch {
      buffers[table].removeSubrange(before...)
      throw SiftError.postgres(error)
    }
    buffers[table].append(0x0A)
    buffered += buffers[table].count - before
    if buffered > PostgresRowWriter.flushSize { try flush() }
  }

  func flush() throws(SiftError) {
    for (i, data) in buffers.enumerated() where !data.isEmpty {
      buffers[i] = []
      do { try database.copyIn(copySQL[i], data: data) } catch { throw error.siftError }
    }
    buffered = 0
  }

  func finish() throws(SiftError) { try flush() }

  func cancel() {
    buffers = buffers.map { _ in [] }
    buffered = 0
  }

  /// One value in COPY text format: `\N` for NULL; text with backslash, tab, newline and
  /// carriage return escaped; numbers and booleans as `PostgresWireParameter` sends them;
  /// bytea as `\\x` hex.
  static func append(_ v: SQLValue, to out: inout [UInt8]) throws {
    switch v {
    case .null: out += [0x5C, 0x4E]
    case .bool(let b): out.append(b ? UInt8(ascii: "t") : UInt8(ascii: "f"))
    case .integer(let n): out += String(n).utf8
    case .double(let d): out += PostgresWireParameter.doubleText(d).utf8
    case .text(let s):
      for b in s.utf8 {
        switch b {
        case 0:
          throw PostgresError(
            kind: .unsupportedValue, message: "PostgreSQL text cannot contain NUL (U+0000); the string cannot be copied"
          )
        case 0x5C: out += [0x5C, 0x5C]
        case 0x09: out += [0x5C, UInt8(ascii: "t")]
        case 0x0A: out += [0x5C, UInt8(ascii: "n")]
        case 0x0D: out += [0x5C, UInt8(ascii: "r")]
        default: out.append(b)
        }
      }
    case .blob(let d):
      let hex = Array("0123456789abcdef".utf8)
      out += [0x5C, 0x5C, UInt8(ascii: "x")]
      for b in d {
        out.append(hex[Int(b >> 4)])
        out.append(hex[Int(b & 15)])
      }
    }
  }
}
