import Foundation
import SiftSQL
import SiftSyntax

/// A stored value read back as its attribute's type, for the REPL's tables and for `.compare`
/// on a database: the value codec's reading (`SQLColumnCodec.decode`): dates from their
/// column's encoding, booleans from 0/1, JSON and PostgreSQL arrays parsed. A value that does
/// not decode stays as stored (so a disagreement shows it).
///
/// ```swift
/// DatabaseValues.value(.text("2024-01-05T10:30:00Z"), createdAt, schema)   // .date(…)
/// ```
enum DatabaseValues {
  static func value(_ v: SQLValue, _ a: SQLAttribute, _ schema: SQLSchema) -> SiftValue {
    SQLColumnCodec.decode(v, as: a, in: schema)
  }
}

extension DatabaseValues {
  /// A key as PostgreSQL's text form of it (`42`, `7d3f…`, `t`).
  static func keyText(_ v: SiftValue) -> String {
    switch v {
    case .string(let s): return s
    case .int(let i): return String(i)
    case .bool(let b): return b ? "true" : "false"
    default: return SiftJSON.serialize(v)
    }
  }

  /// A key read back, bound again (the codec's plain form: integers, text, blobs, …).
  static func binding(_ v: SiftValue) -> SQLValue {
    (try? SQLColumnCodec.plainValue(v, booleansAreIntegers: false)) ?? .text(SiftJSON.serialize(v))
  }
}
