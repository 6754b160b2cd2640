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

  /// A row as a record, each column read the way it stores its values (`SQLColumnCodec`: a
  /// date column as dates whatever its encoding, a boolean column as booleans), so predicates
  /// compare as they do in `sift batch --db`; a column without a codec reads as stored.
  static func record(_ row: [SQLValue], columns: [String], codecs: [String: SQLColumnCodec]) -> [String: SiftValue] {
    var r: [String: SiftValue] = [:]
    for (name, v) in zip(columns, row) { r[name] = codecs[name]?.decode(v) ?? SQLColumnCodec.plain(v) }
    return r
  }

  /// A row's record as the shape names it (attributes by name, to-ones as records), or by
  /// column without a shape.
  static func record(
    _ row: [SQLValue], columns: [String], codecs: [String: SQLColumnCodec], shape: SQLiteLiveShape?, db: SQLiteDatabase
  ) -> [String: SiftValue] {
    let r = record(row, columns: columns, codecs: codecs)
    guard let shape else { return r }
    return shape.record(r, raw: Dictionary(zip(columns, row), uniquingKeysWith: { a, _ in a }), db: db)
  }

  /// How each column of `table` stores its values, from the database's own schema
  /// (`introspectSchema`: declared types, sampled date encodings); empty when it cannot be read,
  /// and then every value is stored as itself.
  static func codecs(_ db: SQLiteDatabase, table: String) -> [String: SQLColumnCodec] {
    guard let schema = try? db.introspectSchema(sampleLimit: 100).schema,
      let entity = schema.entityNames.lazy.compactMap({ schema.entity($0) }).first(where: { $0.table == table })
    else { return [:] }
    var out: [String: SQLColumnCodec] = [:]
    for a in entity.attributes where !a.type.isArray {
      var codec = SQLColumnCodec(a, schema: schema, dialect: SQLiteDialect())
      if let encoding = codec.dateEncoding, encoding.isText {
        codec.textForm = textForm(db, table: table, column: a.column)
      }
      out[a.column] = codec
    }
    return out
  }

  /// The spelling a text date column's values share (`SQLDateTextForm`: separator, seconds,
  /// fraction digits, zone), from up to 100 of its values; nil when they do not share one.
  static func textForm(_ db: SQLiteDatabase, table: String, column: String) -> SQLDateTextForm? {
    let sample = try? db.execute(
      SQLStatement(sql: "SELECT \(quote(column)) FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL LIMIT 100"))
    return sample.flatMap { SQLDateTextForm.common($0.compactMap(\.first)) }
  }

  /// A value to bind into `column`, in the column's own encoding (`SQLColumnCodec`): a date
  /// into a Core Data column as seconds since 2001, into an epoch column as a number, into a
  /// text column as text of the column's spelling; booleans as 0/1. A value of another kind is
  /// stored as itself (SQLite columns hold any kind); arrays and dictionaries have no column form.
  func sqlValue(_ v: SiftValue, column: String) throws(SiftError) -> SQLValue {
    do {
      if let codec = codecs[column] { return try codec.encode(v, lenient: true) }
      return try SQLColumnCodec.plainValue(v, booleansAreIntegers: true)
    } catch {
      throw SiftError.live("column '\(column)': \(error.diagnostic.message)", underlying: error)
    }
  }
}
