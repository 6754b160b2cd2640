import Foundation

/// How a column stores its values, where that decides how a constant meeting it is bound:
/// a date column's encoding, or a PostgreSQL `numeric` or `uuid` column. Everything else is
/// `.plain`. Carried by `SQLExpr.form` from the schema (`SQLAttribute.dateEncoding`,
/// `nativeType`) to the comparison, which binds the constant in the column's own form so an
/// index on the column serves it (Grammar/notes/sql.md, "Databases Sift did not create").
enum SQLValueForm: Sendable, Equatable {
  case plain
  /// A date column: its encoding, and whether a numeric encoding is stored as whole numbers
  /// (an `INTEGER`/`bigint` column: the constant binds as an integer when it is whole).
  case date(SQLDateForm, integer: Bool)
  /// PostgreSQL `numeric`/`decimal`: double constants are bound as exact decimal text cast to
  /// `NUMERIC` (the column is never converted to a double).
  case numeric
  /// PostgreSQL `uuid`: compared as its text; `==`/`!=` with a constant cast the bound text.
  case uuid
  /// Another PostgreSQL type read as a string that does not meet `text` by itself (an enum,
  /// `inet` kept as a string by a schema file, …): compared as `CAST(col AS TEXT)`.
  case castToText

  /// The form of attribute `a`, whose schema stores dates as `schemaDates`.
  init(_ a: SQLAttribute, schemaDates: SQLDateEncoding, dialect: any SQLDialect) {
    let native = a.nativeType?.lowercased() ?? ""
    switch a.type {
    case .date:
      let form = SQLDateForm(a.dateEncoding ?? schemaDates, nativeType: native)
      self = .date(form, integer: native.contains("int"))
    case .double where dialect.nativeTypes == .postgres && (native.hasPrefix("numeric") || native.hasPrefix("decimal")):
      self = .numeric
    case .string where dialect.nativeTypes == .postgres && native == "uuid":
      self = .uuid
    case .string where dialect.nativeTypes == .postgres && !native.isEmpty && !SQLValueForm.isTextType(native):
      self = .castToText
    default:
      self = .plain
    }
  }
}

extension SQLValueForm {
  /// PostgreSQL's character types (and `citext`), which meet a bound text as they are.
  static func isTextType(_ native: String) -> Bool {
    let base = native.split(separator: "(").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? native
    return ["text", "varchar", "character varying", "char", "character", "bpchar", "name", "citext"].contains(base)
  }
}

/// A date column's storage, with PostgreSQL's native types told apart.
enum SQLDateForm: UInt8, Sendable, Equatable {
  case unixSeconds, referenceSeconds, unixMilliseconds, iso8601, sqliteDateTime, isoDate
  /// PostgreSQL `timestamptz`, `timestamp` (UTC assumed), `date` (midnight UTC).
  case timestamptz, timestamp, date

  init(_ encoding: SQLDateEncoding, nativeType: String) {
    switch encoding {
    case .unixSeconds: self = .unixSeconds
    case .referenceDateSeconds: self = .referenceSeconds
    case .unixMilliseconds: self = .unixMilliseconds
    case .iso8601: self = .iso8601
    case .sqliteDateTime: self = .sqliteDateTime
    case .isoDate: self = .isoDate
    case .native:
      if nativeType.hasPrefix("timestamptz") || nativeType.contains("with time zone") {
        self = .timestamptz
      } else if nativeType.hasPrefix("timestamp") {
        self = .timestamp
      } else if nativeType == "date" {
        self = .date
      } else {
        self = .timestamptz
      }
    }
  }

  /// The schema-level encoding this form is bound with.
  var encoding: SQLDateEncoding {
    switch self {
    case .unixSeconds: return .unixSeconds
    case .referenceSeconds: return .referenceDateSeconds
    case .unixMilliseconds: return .unixMilliseconds
    case .iso8601: return .iso8601
    case .sqliteDateTime: return .sqliteDateTime
    case .isoDate: return .isoDate
    case .timestamptz, .timestamp, .date: return .native
    }
  }

  /// The PostgreSQL type a bound text is cast to (a `date` column meets a `timestamp`, so a
  /// constant with a time of day keeps it).
  var castType: String? {
    switch self {
    case .timestamptz: return "timestamptz"
    case .timestamp, .date: return "timestamp"
    default: return nil
    }
  }
}
