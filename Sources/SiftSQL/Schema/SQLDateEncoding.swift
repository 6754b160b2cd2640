import Foundation

/// How dates are stored and bound. The default is seconds since 1970-01-01 UTC as a double
/// (`REAL` / `double precision`); Core Data's seconds since 2001-01-01 is offered too.
///
/// A schema's own `dateEncoding` (every date attribute of a database Sift created) is one of
/// the two seconds encodings. The others describe a single column of a database Sift did not
/// create (`SQLAttribute.dateEncoding`, read by introspection or set in a schema file):
/// integer milliseconds, three text shapes, and PostgreSQL's native date types.
///
/// ```swift
/// SQLDateEncoding.referenceDateSeconds.encode(Date(timeIntervalSinceReferenceDate: 5))   // 5.0
/// SQLDateEncoding.iso8601.sqlValue(Date(timeIntervalSince1970: 0))   // .text("1970-01-01T00:00:00.000Z")
/// ```
public enum SQLDateEncoding: String, Sendable, Hashable, CaseIterable {
  /// Seconds since 1970-01-01 00:00 UTC (the default).
  case unixSeconds = "secondsSince1970"
  /// Seconds since 2001-01-01 00:00 UTC (Core Data).
  case referenceDateSeconds = "secondsSince2001"
  /// Milliseconds since 1970-01-01 00:00 UTC, usually an INTEGER column.
  case unixMilliseconds = "millisecondsSince1970"
  /// ISO-8601 text with a `T` and a UTC `Z`: `2024-03-01T09:30:00Z`, `2024-03-01T09:30:00.250Z`.
  case iso8601 = "iso8601"
  /// SQLite's own text shape (`datetime()`, `CURRENT_TIMESTAMP`), UTC without a zone:
  /// `2024-03-01 09:30:00`, `2024-03-01 09:30:00.250`.
  case sqliteDateTime = "sqliteDateTime"
  /// A calendar date as text, `2024-03-01` (midnight UTC).
  case isoDate = "isoDate"
  /// The database's own date type (PostgreSQL `timestamptz`, `timestamp`, `date`; the
  /// attribute's `nativeType` says which). Bound as ISO-8601 text and cast to that type.
  case native = "native"

  /// True for the encodings stored as a number (seconds or milliseconds).
  public var isNumeric: Bool {
    switch self {
    case .unixSeconds, .referenceDateSeconds, .unixMilliseconds: return true
    case .iso8601, .sqliteDateTime, .isoDate, .native: return false
    }
  }

  /// The text encoding whose shape `text` has, or nil (offsets, a `T` without `Z`, other
  /// formats): what introspection reads from a sample of a date column.
  ///
  /// ```swift
  /// SQLDateEncoding.textEncoding(of: "2024-01-05 10:30:00")   // .sqliteDateTime
  /// ```
  public static func textEncoding(of text: String) -> SQLDateEncoding? { IntrospectedColumn.textShape(text) }

  /// True for the encodings stored as text.
  public var isText: Bool { self == .iso8601 || self == .sqliteDateTime || self == .isoDate }

  /// The stored number for a date: seconds (or milliseconds for `.unixMilliseconds`). For the
  /// text and native encodings, which store no number, the seconds since 1970; use `sqlValue`.
  public func encode(_ date: Date) -> Double {
    switch self {
    case .unixSeconds: return date.timeIntervalSince1970
    case .referenceDateSeconds: return date.timeIntervalSinceReferenceDate
    case .unixMilliseconds: return date.timeIntervalSince1970 * 1000
    case .iso8601, .sqliteDateTime, .isoDate, .native: return date.timeIntervalSince1970
    }
  }

  /// The value a date is bound as in a column of this encoding: a double for the numeric
  /// encodings, text in the column's own shape for the text encodings, ISO-8601 text with
  /// milliseconds and `Z` for `.native` (to be cast to the column's type in SQL).
  public func sqlValue(_ date: Date) -> SQLValue {
    switch self {
    case .unixSeconds, .referenceDateSeconds, .unixMilliseconds: return .double(encode(date))
    case .iso8601, .native: return .text(SQLDateEncoding.text(date, separator: "T", zone: "Z"))
    case .sqliteDateTime: return .text(SQLDateEncoding.text(date, separator: " ", zone: ""))
    case .isoDate: return .text(String(SQLDateEncoding.text(date, separator: "T", zone: "").prefix(10)))
    }
  }

  /// `yyyy-MM-dd<separator>HH:mm:ss[.SSS]<zone>` in UTC; milliseconds only when non-zero.
  static func text(_ date: Date, separator: String, zone: String) -> String {
    let seconds = date.timeIntervalSince1970
    let whole = seconds.rounded(.down)
    var millis = Int(((seconds - whole) * 1000).rounded())
    var day = Int64(whole) / 86_400
    var rest = Int64(whole) % 86_400
    if rest < 0 { rest += 86_400; day -= 1 }
    if millis == 1000 { millis = 0; rest += 1 }
    // Civil-from-days (Howard Hinnant), proleptic Gregorian.
    let z = day + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
    func pad(_ n: Int64, _ width: Int) -> String {
      let s = String(n)
      return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    var out = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))\(separator)"
    out += "\(pad(rest / 3600, 2)):\(pad(rest % 3600 / 60, 2)):\(pad(rest % 60, 2))"
    if millis != 0 { out += "." + pad(Int64(millis), 3) }
    return out + zone
  }
}
