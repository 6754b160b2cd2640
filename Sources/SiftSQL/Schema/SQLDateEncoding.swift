import Foundation
import SiftSyntax

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
/// try SQLDateEncoding.iso8601.sqlValue(Date(timeIntervalSince1970: 0))   // .text("1970-01-01T00:00:00Z")
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

  /// The value a date is stored and bound as in a column of this encoding: a double for the
  /// numeric encodings, text in the column's own shape for the text encodings, ISO-8601 text
  /// with milliseconds (microseconds when the date has them) and `Z` for `.native` (to be cast to the column's type in SQL). The one
  /// rule for writing a date (`SQLColumnCodec` and the SQL compiler use it).
  ///
  /// ```swift
  /// try SQLDateEncoding.sqliteDateTime.sqlValue(Date(timeIntervalSince1970: 0))   // .text("1970-01-01 00:00:00")
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `date-out-of-range`) for a date that is not a
  ///   number (NaN), whose stored number is not finite, or outside the years 0000–9999 for a
  ///   text or native encoding (no four-digit spelling).
  public func sqlValue(_ date: Date) throws(SiftError) -> SQLValue {
    let seconds = date.timeIntervalSince1970
    switch self {
    case .unixSeconds, .referenceDateSeconds, .unixMilliseconds:
      let n = encode(date)
      guard n.isFinite else { throw SQLDateEncoding.outOfRange(seconds, self) }
      return .double(n)
    case .iso8601, .native, .sqliteDateTime, .isoDate:
      let separator = self == .sqliteDateTime ? " " : "T"
      let zone = self == .iso8601 || self == .native ? "Z" : ""
      guard let text = SQLDateEncoding.text(date, separator: separator, zone: zone, microseconds: self == .native)
      else {
        throw SQLDateEncoding.outOfRange(seconds, self)
      }
      return .text(self == .isoDate ? String(text.prefix(10)) : text)
    }
  }

  /// The date a stored value of this encoding holds, or nil when it holds none (text that is
  /// not a date, a number in a text column, `infinity`). Numbers in numeric encodings; text
  /// of every ISO-8601 precision (with `T` or a space, with `Z`, an offset `+05:30`/`+0530`/`+05`
  /// or no zone, which is UTC) in text and native encodings, as PostgreSQL prints
  /// `timestamptz`, `timestamp` and `date`.
  ///
  /// ```swift
  /// SQLDateEncoding.referenceDateSeconds.date(from: .double(0))   // 2001-01-01T00:00:00Z
  /// SQLDateEncoding.native.date(from: .text("2024-01-05 10:30:00.25+00"))
  /// ```
  public func date(from value: SQLValue) -> Date? {
    switch (self, value) {
    case (.unixSeconds, .integer(let n)): return Date(timeIntervalSince1970: Double(n))
    case (.unixSeconds, .double(let d)) where !d.isNaN: return Date(timeIntervalSince1970: d)
    case (.referenceDateSeconds, .integer(let n)): return Date(timeIntervalSinceReferenceDate: Double(n))
    case (.referenceDateSeconds, .double(let d)) where !d.isNaN: return Date(timeIntervalSinceReferenceDate: d)
    case (.unixMilliseconds, .integer(let n)): return Date(timeIntervalSince1970: Double(n) / 1000)
    case (.unixMilliseconds, .double(let d)) where !d.isNaN: return Date(timeIntervalSince1970: d / 1000)
    case (.iso8601, .text(let s)), (.sqliteDateTime, .text(let s)), (.isoDate, .text(let s)), (.native, .text(let s)):
      return SiftDateParser.parse(s)
    default: return nil
    }
  }

  static func outOfRange(_ seconds: Double, _ encoding: SQLDateEncoding) -> SiftError {
    let what = seconds.isNaN ? "a date that is not a number (NaN)" : "the date \(seconds) seconds since 1970"
    let why = encoding.isNumeric ? "has no finite number" : "is outside the years 0000-9999 its text can spell"
    return SiftError(
      stage: .sql,
      diagnostic: SiftDiagnostic(id: .dateOutOfRange, message: "\(what) \(why) in \(encoding.rawValue)", range: .at(0)),
      source: "")
  }

  /// Seconds since 1970 of 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the dates with a
  /// four-digit year, which the text encodings spell.
  static let textSeconds: Range<Double> = -62_167_219_200..<253_402_300_800

  /// `yyyy-MM-dd<separator>HH:mm:ss[.SSS]<zone>` in UTC; milliseconds only when non-zero;
  /// nil outside the years 0000–9999 (and for NaN), so no conversion below can trap.
  /// With `microseconds`, six fraction digits when the date is not on a millisecond (PostgreSQL's
  /// `timestamp`/`timestamptz` hold microseconds).
  static func text(_ date: Date, separator: String, zone: String, microseconds: Bool = false) -> String? {
    let seconds = date.timeIntervalSince1970
    guard textSeconds.contains(seconds) else { return nil }
    let whole = seconds.rounded(.down)
    let perSecond = microseconds ? 1_000_000 : 1000
    var fraction = Int(((seconds - whole) * Double(perSecond)).rounded())
    var day = Int64(whole) / 86_400
    var rest = Int64(whole) % 86_400
    if rest < 0 { rest += 86_400; day -= 1 }
    if fraction == perSecond { fraction = 0; rest += 1 }
    if rest == 86_400 { rest = 0; day += 1 }
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
    if fraction != 0 {
      let digits = microseconds && fraction % 1000 != 0 ? 6 : 3
      out += "." + pad(Int64(microseconds && digits == 3 ? fraction / 1000 : fraction), digits)
    }
    return out + zone
  }
}
