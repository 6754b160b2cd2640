import Foundation
import SiftSyntax

extension SQLSchema {
  /// Checks a schema written in code or a schema file against the database it is about to
  /// query: for every date and boolean attribute, up to `sampleLimit` stored values are read
  /// (as introspection samples them) and their kind compared with what the schema says. A date
  /// described as numbers whose column holds text (or the reverse, or seconds whose values are
  /// milliseconds) would compare text with numbers and answer wrongly, silently; it is an error
  /// naming the column and the fix instead. Columns without a value, and tables the database
  /// does not have, are left alone (the query names those itself).
  ///
  /// ```swift
  /// try schema.checkStorage(in: db, dialect: SQLiteDialect())
  /// // error id schema-mismatch: Note.createdAt (column "note"."created") is described as dates in
  /// // secondsSince1970, but the column holds text such as "2024-03-01T09:30:00Z": …
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `schema-mismatch`).
  public func checkStorage(in db: any SQLDatabase, dialect: any SQLDialect, sampleLimit: Int = 100) throws(SiftError) {
    let q = dialect.quoteIdentifier
    for name in entityNames {
      guard let e = entity(name) else { continue }
      for a in e.attributes where a.type == .date || a.type == .boolean {
        let sql =
          "SELECT " + q(a.column) + " FROM " + q(e.table) + " WHERE " + q(a.column) + " IS NOT NULL LIMIT "
          + dialect.placeholder(1)
        let rows: [[SQLValue]]
        do {
          rows = try db.execute(SQLStatement(sql: sql, bindings: [.integer(Int64(max(1, sampleLimit)))]))
        } catch {
          continue  // no such table or column: the query itself says so, in its own words
        }
        for row in rows {
          guard let value = row.first, let problem = mismatch(a, value) else { continue }
          throw SQLDiagnostic.schemaMismatch(
            entity: e.name, attribute: a.name, column: "\(q(e.table)).\(q(a.column))", problem
          ).error()
        }
      }
    }
  }

  /// Why `value` does not fit attribute `a` as described, with the fix; nil when it fits.
  func mismatch(_ a: SQLAttribute, _ value: SQLValue) -> String? {
    if a.type == .boolean {
      guard case .text(let s) = value else { return nil }
      return "is described as a boolean, but the column holds text such as \(SiftJSON.serialize(.string(s))): "
        + "booleans are compared as 0/1 (or true/false); describe it as \"string\" in the schema"
    }
    let encoding = a.dateEncoding(in: self)
    switch (encoding.isNumeric, value) {
    case (true, .text(let s)):
      let shape =
        SQLDateEncoding.textEncoding(of: s).map { "\"dateEncoding\": \"\($0.rawValue)\"" } ?? "a text date encoding"
      return "is described as dates in \(encoding.rawValue), but the column holds text such as "
        + "\(SiftJSON.serialize(.string(s))): describe it with \(shape) (or leave the attribute out of the schema file "
        + "and let Sift read the database)"
    case (true, .integer), (true, .double):
      guard encoding != .unixMilliseconds, let x = Self.number(value), abs(x) >= 1e11 else { return nil }
      return "is described as dates in \(encoding.rawValue), but the column holds \(Self.shown(x)), which is "
        + "milliseconds: describe it with \"dateEncoding\": \"millisecondsSince1970\""
    case (false, .integer), (false, .double):
      guard encoding.isText, let x = Self.number(value) else { return nil }
      let fix = abs(x) >= 1e11 ? "\"millisecondsSince1970\"" : "\"secondsSince1970\" or \"secondsSince2001\""
      return "is described as dates in \(encoding.rawValue) text, but the column holds the number \(Self.shown(x)): "
        + "describe it with \"dateEncoding\": \(fix)"
    default:
      return nil
    }
  }

  static func number(_ value: SQLValue) -> Double? {
    switch value {
    case .integer(let n): return Double(n)
    case .double(let d): return d
    default: return nil
    }
  }

  static func shown(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e18 ? String(Int64(x)) : String(x)
  }
}

/// The schemas a connection has checked already (`SQLSchema.checkStorage(in:dialect:)` runs once
/// per schema per connection: on first use).
package final class SQLSchemaCheckCache: @unchecked Sendable {
  private let lock = NSLock()
  private var checked: Set<SQLSchema> = []
  /// The schema seen last: every compiled statement carries its compiler's schema, and a copy
  /// of the same value compares equal without hashing it (its storage is shared).
  private var last: SQLSchema?

  package init() {}

  /// Checks `schema` unless this cache has seen it pass.
  package func check(_ schema: SQLSchema, in db: any SQLDatabase, dialect: any SQLDialect) throws(SiftError) {
    lock.lock()
    let seen = last == schema || checked.contains(schema)
    lock.unlock()
    if seen { return }
    try schema.checkStorage(in: db, dialect: dialect)
    passed(schema)
  }

  /// Takes `schema` as checked: the database's own, read from the same values
  /// (introspection), needs no check.
  package func passed(_ schema: SQLSchema) {
    lock.lock()
    checked.insert(schema)
    last = schema
    lock.unlock()
  }
}
