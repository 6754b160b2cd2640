import CLibPQ
import Foundation

/// PostgreSQL type OIDs the runner sends or decodes (from `pg_type.h`, stable across versions).
enum PostgresOID {
  static let unknown: Oid = 0
  static let bool: Oid = 16
  static let bytea: Oid = 17
  static let name: Oid = 19
  static let int8: Oid = 20
  static let int2: Oid = 21
  static let int4: Oid = 23
  static let text: Oid = 25
  static let oid: Oid = 26
  static let float4: Oid = 700
  static let float8: Oid = 701
  static let bpchar: Oid = 1042
  static let varchar: Oid = 1043
  static let timestamptz: Oid = 1184
  static let numeric: Oid = 1700
}

/// A value on its way to or from the server, independent of SiftSQL's value type.
enum PostgresWireValue: Hashable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case text(String)
  case bytes(Data)
}

/// One `PQexecParams` parameter: its type OID, its bytes (nil = SQL NULL) and format.
struct PostgresWireParameter: Hashable {
  var type: Oid
  var bytes: Data?
  var isBinary: Bool

  /// Encodes a value. Scalars go as text (`t`/`f`, exact decimal integers, shortest round-trip
  /// doubles, `Infinity`/`NaN`); bytes go as binary `bytea`, so any byte (NUL included) survives.
  /// Text containing U+0000 is refused: PostgreSQL `text` cannot store NUL.
  static func encode(_ value: PostgresWireValue) throws(PostgresError) -> PostgresWireParameter {
    switch value {
    case .null:
      return PostgresWireParameter(type: PostgresOID.unknown, bytes: nil, isBinary: false)
    case .bool(let b):
      return text(b ? "t" : "f", type: PostgresOID.bool)
    case .int(let i):
      return text(String(i), type: PostgresOID.int8)
    case .double(let d):
      return text(doubleText(d), type: PostgresOID.float8)
    case .text(let s):
      guard !s.utf8.contains(0) else {
        throw PostgresError(
          kind: .unsupportedValue,
          message: "PostgreSQL text cannot contain NUL (U+0000); the string cannot be bound")
      }
      return text(s, type: PostgresOID.text)
    case .bytes(let data):
      guard data.count < Int(Int32.max) else {
        throw PostgresError(kind: .unsupportedValue, message: "bytea parameter is too large")
      }
      return PostgresWireParameter(type: PostgresOID.bytea, bytes: data, isBinary: true)
    }
  }

  private static func text(_ s: String, type: Oid) -> PostgresWireParameter {
    PostgresWireParameter(type: type, bytes: Data(s.utf8), isBinary: false)
  }

  /// `float8` input text for a double, exact: Swift's shortest round-trip form, `-0` kept.
  static func doubleText(_ d: Double) -> String {
    if d.isNaN { return "NaN" }
    if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
    return "\(d)"
  }
}

/// One result cell as libpq returns it in text format: the column's type OID and its text.
struct PostgresCell: Hashable {
  var type: Oid
  /// nil for SQL NULL.
  var text: String?

  /// Decodes by type OID: `bool`; `int2/4/8` and `oid` → int; `float4/8` → double; `numeric`
  /// → int when integral and in range, else double; `bytea` (hex) → bytes; everything else,
  /// `timestamptz` and arrays included, stays text in PostgreSQL's output format.
  func decode() throws(PostgresError) -> PostgresWireValue {
    guard let text else { return .null }
    switch type {
    case PostgresOID.bool:
      switch text {
      case "t": return .bool(true)
      case "f": return .bool(false)
      default: throw bad(text, "bool")
      }
    case PostgresOID.int2, PostgresOID.int4, PostgresOID.int8, PostgresOID.oid:
      guard let i = Int64(text) else { throw bad(text, "integer") }
      return .int(i)
    case PostgresOID.float4, PostgresOID.float8:
      guard let d = Double(text) else { throw bad(text, "float") }
      return .double(d)
    case PostgresOID.numeric:
      if let i = Int64(text) { return .int(i) }
      guard let d = Double(text) else { throw bad(text, "numeric") }
      return .double(d)
    case PostgresOID.bytea:
      guard let data = PostgresCell.decodeHexBytea(text) else { throw bad(text, "bytea") }
      return .bytes(data)
    default:
      return .text(text)
    }
  }

  private func bad(_ text: String, _ kind: String) -> PostgresError {
    PostgresError(
      kind: .result, message: "cannot decode \(kind) value '\(text.prefix(40))' (type oid \(type))")
  }

  /// Decodes `bytea_output = hex` text (`\x4142`); nil when malformed.
  static func decodeHexBytea(_ text: String) -> Data? {
    let utf8 = Array(text.utf8)
    guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"),
      utf8.count % 2 == 0
    else { return nil }
    var data = Data(capacity: (utf8.count - 2) / 2)
    var i = 2
    while i < utf8.count {
      guard let hi = hexDigit(utf8[i]), let lo = hexDigit(utf8[i + 1]) else { return nil }
      data.append(hi << 4 | lo)
      i += 2
    }
    return data
  }

  private static func hexDigit(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
