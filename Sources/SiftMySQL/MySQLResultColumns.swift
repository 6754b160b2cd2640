import CMariaDB
import Foundation
import SiftSQL

/// The result binding of one prepared statement: a `MYSQL_BIND` per column with its own
/// buffer, and how each column's cells become `SQLValue`s, by the column's real type:
///
/// - integers (`TINYINT`…`BIGINT`, `YEAR`) → `.integer`; an `UNSIGNED BIGINT` above
///   `Int64.max` → `.text` with its exact digits (never a trap or a rounded double);
/// - `BIT(n)` → `.integer` (big-endian bits; above `Int64.max` → `.text`);
/// - `FLOAT`, `DOUBLE` → `.double` (a `FLOAT` widened exactly from its 4 bytes);
/// - `DECIMAL` → `.integer` when integral and in range, else `.double` (as SiftPostgres reads
///   `numeric`);
/// - `DATE` → `.text` `yyyy-MM-dd`; `DATETIME`, `TIMESTAMP` → `.text` `yyyy-MM-dd HH:mm:ss`
///   plus the column's fractional digits (UTC: the session's time zone is `+00:00`, and a
///   `DATETIME` is read as UTC); `TIME` → `.text` `[-]HH:mm:ss[.ffffff]` (hours may pass 24);
/// - binary strings and blobs (charset `binary`) → `.blob`; other strings, `ENUM`, `SET` and
///   `JSON` (text on MariaDB) → `.text`.
final class MySQLResultColumns {
  enum Kind {
    case null
    case integer(unsigned: Bool)
    case float
    case double
    case decimal
    case temporal(enum_field_types, decimals: Int)
    case bit
    case bytes(binary: Bool)
  }

  let kinds: [Kind]
  let names: [String]
  let binds: UnsafeMutablePointer<MYSQL_BIND>
  private let slots: UnsafeMutableRawPointer
  private let lengths: UnsafeMutablePointer<UInt>
  private let nulls: UnsafeMutablePointer<my_bool>
  private let errors: UnsafeMutablePointer<my_bool>
  private let count: Int
  private static let slotSize = max(16, (MemoryLayout<MYSQL_TIME>.size + 7) & ~7)

  init(fields: UnsafeMutablePointer<MYSQL_FIELD>, count n: Int) {
    count = max(1, n)
    binds = .allocate(capacity: count)
    binds.initialize(repeating: MYSQL_BIND(), count: count)
    slots = .allocate(byteCount: count * Self.slotSize, alignment: 8)
    slots.initializeMemory(as: UInt8.self, repeating: 0, count: count * Self.slotSize)
    lengths = .allocate(capacity: count)
    lengths.initialize(repeating: 0, count: count)
    nulls = .allocate(capacity: count)
    nulls.initialize(repeating: 0, count: count)
    errors = .allocate(capacity: count)
    errors.initialize(repeating: 0, count: count)
    var kinds: [Kind] = []
    var names: [String] = []
    for i in 0..<n {
      let field = fields[i]
      names.append(field.name.map { String(cString: $0) } ?? "")
      let kind = Self.kind(of: field)
      kinds.append(kind)
      binds[i].length = lengths + i
      binds[i].is_null = nulls + i
      binds[i].error = errors + i
      let slot = slots + i * Self.slotSize
      switch kind {
      case .null:
        binds[i].buffer_type = MYSQL_TYPE_NULL
      case .integer(let unsigned):
        binds[i].buffer_type = MYSQL_TYPE_LONGLONG
        binds[i].is_unsigned = unsigned ? 1 : 0
        binds[i].buffer = slot
        binds[i].buffer_length = 8
      case .float:
        binds[i].buffer_type = MYSQL_TYPE_FLOAT
        binds[i].buffer = slot
        binds[i].buffer_length = 4
      case .double:
        binds[i].buffer_type = MYSQL_TYPE_DOUBLE
        binds[i].buffer = slot
        binds[i].buffer_length = 8
      case .temporal(let type, _):
        binds[i].buffer_type = type
        binds[i].buffer = slot
        binds[i].buffer_length = UInt(MemoryLayout<MYSQL_TIME>.size)
      case .decimal, .bit, .bytes:
        // Fetched after the row, at its real length (`mysql_stmt_fetch_column`).
        binds[i].buffer_type = MYSQL_TYPE_BLOB
        binds[i].buffer = nil
        binds[i].buffer_length = 0
      }
    }
    self.kinds = kinds
    self.names = names
  }

  deinit {
    binds.deinitialize(count: count)
    binds.deallocate()
    slots.deallocate()
    lengths.deallocate()
    nulls.deallocate()
    errors.deallocate()
  }

  static func kind(of field: MYSQL_FIELD) -> Kind {
    kind(type: field.type.rawValue, flags: field.flags, charset: field.charsetnr, decimals: field.decimals)
  }

  /// How a column of field type `type` (`enum_field_types`), `flags`, character set number and
  /// fraction digits is read.
  static func kind(type raw: UInt32, flags: UInt32, charset: UInt32, decimals: UInt32) -> Kind {
    let unsigned = flags & UInt32(UNSIGNED_FLAG) != 0
    let binary = charset == 63
    let type = enum_field_types(rawValue: raw)
    switch type {
    case MYSQL_TYPE_NULL: return .null
    case MYSQL_TYPE_TINY, MYSQL_TYPE_SHORT, MYSQL_TYPE_INT24, MYSQL_TYPE_LONG, MYSQL_TYPE_LONGLONG:
      return .integer(unsigned: unsigned)
    case MYSQL_TYPE_YEAR: return .integer(unsigned: false)
    case MYSQL_TYPE_FLOAT: return .float
    case MYSQL_TYPE_DOUBLE: return .double
    case MYSQL_TYPE_DECIMAL, MYSQL_TYPE_NEWDECIMAL: return .decimal
    case MYSQL_TYPE_DATE, MYSQL_TYPE_NEWDATE: return .temporal(MYSQL_TYPE_DATE, decimals: 0)
    case MYSQL_TYPE_DATETIME, MYSQL_TYPE_TIMESTAMP, MYSQL_TYPE_TIME:
      return .temporal(type, decimals: decimals <= 6 ? Int(decimals) : 6)
    case MYSQL_TYPE_BIT: return .bit
    // MySQL's JSON reports the binary character set, but is utf8mb4 text.
    case MYSQL_TYPE_JSON: return .bytes(binary: false)
    default: return .bytes(binary: binary)
    }
  }

  /// The current row's cells (after `mysql_stmt_fetch` returned 0 or `MYSQL_DATA_TRUNCATED`).
  func row(_ stmt: UnsafeMutablePointer<MYSQL_STMT>) throws(MySQLError) -> [SQLValue] {
    var row: [SQLValue] = []
    row.reserveCapacity(kinds.count)
    for (i, kind) in kinds.enumerated() {
      if nulls[i] != 0 {
        row.append(.null)
        continue
      }
      let slot = slots + i * Self.slotSize
      switch kind {
      case .null: row.append(.null)
      case .integer(let unsigned):
        let bits = slot.load(as: UInt64.self)
        row.append(Self.integer(bits, unsigned: unsigned))
      case .float: row.append(.double(Double(slot.load(as: Float.self))))
      case .double: row.append(.double(slot.load(as: Double.self)))
      case .temporal(let type, let decimals):
        row.append(.text(Self.text(of: slot.load(as: MYSQL_TIME.self), type: type, decimals: decimals)))
      case .decimal:
        let bytes = try fetchBytes(stmt, column: i)
        row.append(Self.decimal(String(decoding: bytes, as: UTF8.self)))
      case .bit:
        let bytes = try fetchBytes(stmt, column: i)
        guard bytes.count <= 8 else { row.append(.blob(Data(bytes))); continue }
        row.append(Self.integer(bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }, unsigned: true))
      case .bytes(let binary):
        let bytes = try fetchBytes(stmt, column: i)
        row.append(binary ? .blob(Data(bytes)) : .text(String(decoding: bytes, as: UTF8.self)))
      }
    }
    return row
  }

  /// A variable-length cell, read at the length the fetch reported.
  private func fetchBytes(_ stmt: UnsafeMutablePointer<MYSQL_STMT>, column i: Int) throws(MySQLError) -> [UInt8] {
    let length = Int(clamping: lengths[i])
    guard length > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: length)
    var got: UInt = 0
    var isNull: my_bool = 0
    var error: my_bool = 0
    let rc = bytes.withUnsafeMutableBytes { buffer in
      withUnsafeMutablePointer(to: &got) { got in
        withUnsafeMutablePointer(to: &isNull) { isNull in
          withUnsafeMutablePointer(to: &error) { error in
            var bind = MYSQL_BIND()
            bind.buffer_type = MYSQL_TYPE_BLOB
            bind.buffer = buffer.baseAddress
            bind.buffer_length = UInt(length)
            bind.length = got
            bind.is_null = isNull
            bind.error = error
            return mysql_stmt_fetch_column(stmt, &bind, UInt32(i), 0)
          }
        }
      }
    }
    guard rc == 0 else {
      throw MySQLError(
        kind: .result,
        message: "could not read column \(i + 1) (\(names[i])): " + String(cString: mysql_stmt_error(stmt)),
        code: Int(mysql_stmt_errno(stmt)))
    }
    return Int(got) < length ? Array(bytes.prefix(Int(got))) : bytes
  }

  static func integer(_ bits: UInt64, unsigned: Bool) -> SQLValue {
    if !unsigned { return .integer(Int64(bitPattern: bits)) }
    return bits <= UInt64(Int64.max) ? .integer(Int64(bits)) : .text(String(bits))
  }

  /// `DECIMAL` text as `.integer` when it is a whole number within `Int64`, else `.double`.
  static func decimal(_ text: String) -> SQLValue {
    var whole = Substring(text)
    if let dot = text.firstIndex(of: ".") {
      guard text[text.index(after: dot)...].allSatisfy({ $0 == "0" }) else { return .double(Double(text) ?? .nan) }
      whole = text[..<dot]
    }
    if let n = Int64(whole) { return .integer(n == 0 ? 0 : n) }
    return .double(Double(text) ?? .nan)
  }

  static func text(of t: MYSQL_TIME, type: enum_field_types, decimals: Int) -> String {
    func pad(_ n: UInt, _ width: Int) -> String {
      let s = String(n)
      return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
    var fraction = ""
    if decimals > 0 {
      fraction = "." + String(pad(UInt(t.second_part), 6).prefix(decimals))
    }
    let clock = pad(UInt(t.minute), 2) + ":" + pad(UInt(t.second), 2) + fraction
    if type == MYSQL_TYPE_TIME {
      let hours = UInt(t.day) * 24 + UInt(t.hour)
      return (t.neg != 0 ? "-" : "") + pad(hours, 2) + ":" + clock
    }
    let date = pad(UInt(t.year), 4) + "-" + pad(UInt(t.month), 2) + "-" + pad(UInt(t.day), 2)
    if type == MYSQL_TYPE_DATE { return date }
    return date + " " + pad(UInt(t.hour), 2) + ":" + clock
  }
}
