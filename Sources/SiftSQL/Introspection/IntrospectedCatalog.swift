/// What a database's catalog says, before names are chosen: the common ground of the SQLite
/// and PostgreSQL readers, turned into a schema by `IntrospectedSchemaBuilder`.
struct IntrospectedCatalog {
  var tables: [IntrospectedTable]
  /// Warnings the reader already found (unsupported columns, assumed encodings).
  var warnings: [SQLIntrospectionWarning] = []
}

struct IntrospectedTable {
  var name: String
  var isView: Bool
  var columns: [IntrospectedColumn]
  /// The primary key's columns in key order (empty: none).
  var primaryKey: [String]
  var foreignKeys: [IntrospectedForeignKey]
  var indexes: [SQLIndex]
}

struct IntrospectedColumn {
  var name: String
  /// The declared type as the database spells it.
  var nativeType: String
  var isNullable: Bool
  /// The mapped type, or nil when the column cannot be used (a warning says why).
  var type: SQLAttributeType?
  var dateEncoding: SQLDateEncoding?
  var arrayStorage: SQLArrayStorage?
}

struct IntrospectedForeignKey {
  /// The referencing columns, in key order.
  var columns: [String]
  /// The referenced table (nil when it lies outside the schema read; `targetDescription` names it).
  var table: String?
  /// Where the key points, for messages (`other_schema.person`).
  var targetDescription: String
  /// The referenced columns (empty: the referenced table's primary key).
  var referencedColumns: [String]
}

extension IntrospectedColumn {
  /// A date column's encoding from a sample of its values (nil values left out): numbers are
  /// seconds (or milliseconds from 10^11 up, past the year 5138 in seconds), since 2001 in a
  /// Core Data store; text is classified by shape. Returns the encoding and a warning when the
  /// values disagree or are absent.
  static func dateEncoding(
    sample: [SQLValue], table: String, column: String, declared: String, coreData: Bool
  ) -> (SQLDateEncoding, SQLIntrospectionWarning?) {
    let numeric: SQLDateEncoding = coreData ? .referenceDateSeconds : .unixSeconds
    var counts: [SQLDateEncoding: Int] = [:]
    var other = 0
    var textLengths = Set<Int>()
    for v in sample {
      switch v {
      case .integer(let i): counts[abs(i) >= 100_000_000_000 ? .unixMilliseconds : numeric, default: 0] += 1
      case .double(let d): counts[abs(d) >= 1e11 ? .unixMilliseconds : numeric, default: 0] += 1
      case .text(let s):
        if let shape = textShape(s) {
          counts[shape, default: 0] += 1
          textLengths.insert(s.utf8.count)
        } else {
          other += 1
        }
      default: other += 1
      }
    }
    guard
      let best = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key.rawValue > $1.key.rawValue) })
    else {
      let assumed: SQLDateEncoding =
        coreData ? .referenceDateSeconds : declared.uppercased() == "DATE" ? .isoDate : .sqliteDateTime
      let why = sample.isEmpty ? "has no values to read its encoding from" : "holds no value recognisable as a date"
      return (
        assumed,
        SQLIntrospectionWarning(
          kind: .dateEncodingAssumed, table: table, columns: [column], member: column,
          message:
            "\(column) (\(declared)) \(why); assumed \"\(assumed.rawValue)\" (set \"dateEncoding\" in a schema file)")
      )
    }
    let total = counts.values.reduce(0, +) + other
    if best.value < total {
      return (
        best.key,
        SQLIntrospectionWarning(
          kind: .mixedDateValues, table: table, columns: [column], member: column,
          message: "\(column): \(best.value) of \(total) sampled values are \"\(best.key.rawValue)\"; using that, "
            + "so the others compare wrongly (fix the data or set \"dateEncoding\")")
      )
    }
    if best.key.isText && textLengths.count > 1 {
      return (
        best.key,
        SQLIntrospectionWarning(
          kind: .mixedDateValues, table: table, columns: [column], member: column,
          message: "\(column): \"\(best.key.rawValue)\" text of differing lengths (fractional seconds on some values), "
            + "so text comparison may misorder values within one second")
      )
    }
    return (best.key, nil)
  }

  /// `yyyy-MM-dd` → isoDate; `yyyy-MM-dd HH:mm[:ss[.f…]]` → sqliteDateTime;
  /// `yyyy-MM-ddTHH:mm[:ss[.f…]]Z` → iso8601; anything else (offsets, no zone after `T`) nil.
  static func textShape(_ s: String) -> SQLDateEncoding? {
    let b = Array(s.utf8)
    func digits(_ range: Range<Int>) -> Bool {
      range.upperBound <= b.count && range.allSatisfy { b[$0] >= 0x30 && b[$0] <= 0x39 }
    }
    guard b.count >= 10, digits(0..<4), b[4] == 0x2D, digits(5..<7), b[7] == 0x2D, digits(8..<10) else { return nil }
    if b.count == 10 { return .isoDate }
    guard b.count >= 16, b[10] == 0x20 || b[10] == 0x54, digits(11..<13), b[13] == 0x3A, digits(14..<16) else {
      return nil
    }
    var i = 16
    if i < b.count, b[i] == 0x3A {
      guard digits(i + 1..<i + 3) else { return nil }
      i += 3
      if i < b.count, b[i] == 0x2E {
        i += 1
        let start = i
        while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }
        if i == start { return nil }
      }
    }
    if b[10] == 0x20 { return i == b.count ? .sqliteDateTime : nil }
    return i == b.count - 1 && b[i] == 0x5A ? .iso8601 : nil
  }
}
