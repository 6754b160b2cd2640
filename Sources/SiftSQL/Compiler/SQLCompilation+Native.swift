import Foundation
import SiftSyntax

/// Native storage of a database Sift did not create: arrays in one column (JSON or a
/// PostgreSQL array), and constants bound in the form of the column they meet (dates in the
/// column's encoding, `numeric` exactly, `uuid` cast). See Grammar/notes/sql.md, "Databases
/// Sift did not create".
extension SQLCompilation {
  /// The elements of an array stored in one column of `row`: `json_each(col)` on SQLite,
  /// `unnest(col) WITH ORDINALITY` or `jsonb_array_elements_text(col) WITH ORDINALITY` on
  /// PostgreSQL. A NULL column is a nil array; positions count from 0 as in side tables.
  mutating func arrayColumn(
    _ row: RowRef, _ a: SQLAttribute, _ columnRef: SQLColumnRef, _ storage: SQLArrayStorage, _ range: SiftSourceRange
  ) throws(SiftError) -> SQLCollection {
    let col = column(row, columnRef, type: .unknown)
    let elementType = SQLType(a.type)
    let alias = newAlias()
    let value = SQLFragment("\(alias).\(sql: q(SQLSchema.valueColumn))")
    var element = SQLExpr(value, type: elementType, nullable: true)
    let from: SQLFragment
    let position: SQLFragment
    let length: SQLFragment
    switch (dialect.nativeTypes, storage) {
    case (.sqlite, .json):
      from = SQLFragment("json_each(\(col)) \(alias)")
      position = SQLFragment("\(alias).\(sql: q("key"))")
      length = SQLFragment("json_array_length(\(col))")
    case (.postgres, .nativeArray):
      from = SQLFragment(
        "unnest(\(col)) WITH ORDINALITY AS \(alias)(\(sql: q(SQLSchema.valueColumn)), \(sql: q(SQLSchema.positionColumn)))"
      )
      position = SQLFragment("(\(alias).\(sql: q(SQLSchema.positionColumn)) - 1)")
      length = SQLFragment("cardinality(\(col))")
    case (.postgres, .json):
      let json = (a.nativeType?.lowercased() ?? "jsonb") == "json" ? "json" : "jsonb"
      from = SQLFragment(
        "\(sql: json)_array_elements_text(\(col)) WITH ORDINALITY AS \(alias)(\(sql: q(SQLSchema.valueColumn)), \(sql: q(SQLSchema.positionColumn)))"
      )
      position = SQLFragment("(\(alias).\(sql: q(SQLSchema.positionColumn)) - 1)")
      length = SQLFragment("\(sql: json)_array_length(\(col))")
      switch elementType {
      case .integer: element.sql = SQLFragment("CAST(\(value) AS \(sql: dialect.integerTypeName))")
      case .double: element.sql = SQLFragment("CAST(\(value) AS \(sql: dialect.doubleTypeName))")
      default: break
      }
    default:
      throw fail(.arrayStorageUnreadable(a.name, storage: storage.rawValue, dialect: dialect.name), range)
    }
    return SQLCollection(
      from: from, condition: .alwaysTrue, element: .value(element), position: position,
      presence: col.typed(.integer, nullable: true), length: SQLExpr(length, type: .integer, nullable: true))
  }

  /// `v` as text when it is a PostgreSQL `uuid` (compared as a string everywhere but in
  /// `uuidEquality`) or another type read as a string (an enum); `v` otherwise.
  func plainValue(_ v: SQLExpr) -> SQLExpr {
    guard v.form == .uuid || v.form == .castToText else { return v }
    var out = collated(
      SQLExpr(SQLFragment("CAST(\(v) AS \(sql: dialect.textTypeName))"), type: .string, nullable: v.nullable))
    out.form = .plain
    return out
  }

  /// `uuidColumn == "…"` / `!=` with a constant string, index-friendly: the bound text is cast
  /// to `uuid` when it is a UUID's canonical (lower-case) text, the only text a `uuid` reads
  /// as; any other string is never equal. Nil when this is not such a comparison.
  func uuidEquality(_ op: ComparisonOperator, _ a: Operand, _ b: Operand, _ c: SiftComparison) -> SQLExpr? {
    guard op == .equal || op == .notEqual, TextFoldCode(c.options).isEmpty,
      case .value(let v) = a, v.form == .uuid, case .constant(.string(let s)) = b
    else { return nil }
    guard let u = UUID(uuidString: s), u.uuidString.lowercased() == s else {
      return op == .equal ? .alwaysFalse : .alwaysTrue
    }
    let bound = SQLFragment("CAST(\(bind: .text(s)) AS uuid)")
    if op == .equal { return condition(SQLFragment("\(v) = \(bound)")) }
    return nullSafeNotEqual(v.sql, bound)
  }

  /// A double constant meeting a PostgreSQL `numeric` column, bound as its exact decimal
  /// text cast to `NUMERIC` (the column stays as it is, so an index serves it).
  func numericAligned(_ x: inout SQLExpr, _ y: inout SQLExpr) {
    guard let exact = dialect.exactNumericTypeName else { return }
    if x.form == .numeric, case .double? = constant(y) { y = exactNumber(y, exact) }
    if y.form == .numeric, case .double? = constant(x) { x = exactNumber(x, exact) }
  }

  // MARK: - Dates

  /// The storage form of a date value: its column's, else the schema's encoding (constants
  /// and computed dates).
  func dateForm(_ e: SQLExpr) -> (form: SQLDateForm, integer: Bool) {
    if case .date(let f, let integer) = e.form { return (f, integer) }
    return (SQLDateForm(schema.dateEncoding, nativeType: ""), false)
  }

  /// Two dates about to be compared with `op`: a date constant is re-bound in the form of
  /// the date it meets (`op` may change: a calendar-date column against a time of day), and
  /// two dates of different forms (or both text) are both converted to seconds since 2001. Returns a folded
  /// result when the answer is known.
  mutating func alignDates(_ op: inout ComparisonOperator, _ x: inout SQLExpr, _ y: inout SQLExpr) throws(SiftError)
    -> SQLExpr?
  {
    guard x.type == .date, y.type == .date else { return nil }
    if case .date(let d)? = constant(y), constant(x) == nil {
      return try rebindDate(d, against: x, &op, &y)
    }
    if case .date(let d)? = constant(x), constant(y) == nil {
      var flipped = op.flipped
      let folded = try rebindDate(d, against: y, &flipped, &x)
      op = flipped.flipped
      return folded
    }
    let (fx, fy) = (dateForm(x), dateForm(y))
    // Text spells one instant several ways, so two text dates are compared as numbers too.
    if fx.form != fy.form || fx.form.encoding.isText {
      x = seconds(x, fx.form)
      y = seconds(y, fy.form)
    }
    return nil
  }

  /// `column op d`: `constant` re-bound as `d` in the column's form, or the whole comparison
  /// for text shapes with several spellings (`textDateCompare`). A calendar date
  /// (`isoDate`, which cannot hold a time of day) against a date with one compares with the
  /// day it falls in: `<`/`<=` become `<=`, `>`/`>=` become `>`, `==` is false, `!=` true.
  func rebindDate(
    _ d: Date, against column: SQLExpr, _ op: inout ComparisonOperator, _ constant: inout SQLExpr
  ) throws(SiftError) -> SQLExpr? {
    let (form, integer) = dateForm(column)
    let encoding = form.encoding
    var d = d
    if let folded = Self.alignToPrecision(&d, &op, step: Self.precision(of: form, integer: integer)) { return folded }
    if let text = try textDateCompare(op, column, d, form) { return text }
    if form == .isoDate {
      let seconds = d.timeIntervalSince1970
      if seconds != (seconds / 86_400).rounded(.down) * 86_400 {
        switch op {
        case .equal: return .alwaysFalse
        case .notEqual: return .alwaysTrue
        case .lessThan, .lessThanOrEqual: op = .lessThanOrEqual
        default: op = .greaterThan
        }
      }
    }
    var sql = try boundDate(d, form, integer: integer)
    if form.castType == nil || dialect.nativeTypes != .postgres, encoding.isText, let c = dialect.codePointCollation {
      sql = SQLFragment("\(sql) COLLATE \(sql: q(c))")
    }
    var out = withConstant(SQLExpr(sql, type: .date, nullable: false), .date(d))
    out.form = column.form
    constant = out
    return nil
  }

  /// The smallest step between two dates a column of `form` can hold, in seconds, when it is
  /// coarser than a `Date`: milliseconds for text (its spelling has three fraction digits at
  /// most) and integer millisecond columns, whole seconds for integer second columns,
  /// microseconds for PostgreSQL's `timestamp`/`timestamptz` (and `date`, compared as a
  /// `timestamp`); nil for doubles (and `isoDate`, whose days `rebindDate` handles itself).
  static func precision(of form: SQLDateForm, integer: Bool) -> Double? {
    switch form {
    case .timestamptz, .timestamp, .date: return 0.000_001
    default: break
    }
    switch form.encoding {
    case .iso8601, .sqliteDateTime: return 0.001
    case .unixMilliseconds: return integer ? 0.001 : nil
    case .unixSeconds, .referenceDateSeconds: return integer ? 1 : nil
    case .isoDate, .native: return nil
    }
  }

  /// `column op d` where the column holds only multiples of `step` and `d` falls between two
  /// (a `Date()` with microseconds against milliseconds): `d` moves to the bound that gives
  /// memory's answer for every stored value — `>=`/`>` the next multiple up (as `>=`),
  /// `<`/`<=` the one below (as `<=`) — and `==` is false, `!=` true (nil too, as in memory).
  /// Nil when the comparison goes on with `d` (maybe moved); else the folded answer.
  static func alignToPrecision(_ d: inout Date, _ op: inout ComparisonOperator, step: Double?) -> SQLExpr? {
    guard let step else { return nil }
    let seconds = d.timeIntervalSince1970
    let perSecond = (1 / step).rounded()  // 1, 1000 or 1,000,000: whole numbers, so steps are exact quotients
    let units = seconds * perSecond
    guard units.isFinite, abs(units) < 9e15 else { return nil }
    let lo = units.rounded(.down), hi = units.rounded(.up)
    // On a step (also when the product lost a last bit: `lo / perSecond` is the same instant).
    if lo == hi || lo / perSecond == seconds || hi / perSecond == seconds { return nil }
    switch op {
    case .equal: return .alwaysFalse
    case .notEqual: return .alwaysTrue
    case .greaterThan, .greaterThanOrEqual:
      op = .greaterThanOrEqual
      d = Date(timeIntervalSince1970: hi / perSecond)
    case .lessThan, .lessThanOrEqual:
      op = .lessThanOrEqual
      d = Date(timeIntervalSince1970: lo / perSecond)
    default:
      break
    }
    return nil
  }

  /// `d` bound as a column of `form` stores it: a number (an integer when `integer` and whole),
  /// text in the column's spelling, or ISO-8601 text cast to PostgreSQL's native type.
  func boundDate(_ d: Date, _ form: SQLDateForm, integer: Bool) throws(SiftError) -> SQLFragment {
    var value: SQLValue
    do {
      value = try form.encoding.sqlValue(d)
    } catch {
      throw fail(.dateOutOfRange(error.diagnostic.message), SiftSourceRange(start: 0, end: source.utf8.count))
    }
    if integer, case .double(let n) = value, n == n.rounded(), let i = Int64(exactly: n) { value = .integer(i) }
    let sql = SQLFragment(binding: value)
    guard let cast = form.castType, dialect.nativeTypes == .postgres else { return sql }
    return SQLFragment("CAST(\(sql) AS \(sql: cast))")
  }

  /// The value a batch update writes into attribute `a`: a date constant in the column's own
  /// form (an `isoDate` column keeps the day); a computed date only into a column of the
  /// form it already has (else `unsupported-in-sql`). Other values unchanged.
  func assigned(_ v: SQLExpr, to a: SQLAttribute, _ range: SiftSourceRange) throws(SiftError) -> SQLExpr {
    guard a.type == .date,
      case .date(let form, let integer) = SQLValueForm(a, schemaDates: schema.dateEncoding, dialect: dialect)
    else { return v }
    if case .date(let d)? = constant(v) {
      return SQLExpr(try boundDate(d, form, integer: integer), type: .date, nullable: false)
    }
    if v.type != .date || dateForm(v).form == form { return v }
    throw fail(.computedDateNotWritable(to: a.name, encoding: form.encoding.rawValue), range)
  }

  /// A sort key ordered as memory orders it: a text date (several spellings per instant, ISO
  /// whole seconds after fractions) as seconds since 2001; anything else unchanged.
  func sortable(_ v: SQLExpr) -> SQLExpr {
    guard case .date(let form, _) = v.form, form.encoding.isText else { return v }
    return seconds(v, form)
  }

  /// A date as seconds since 2001 (a double), for comparing dates stored in different forms:
  /// the number a `Date` holds, reached by the same arithmetic memory's decoding does
  /// (`Date(timeIntervalSince1970: x)` is `x - 978307200`), so two forms of one instant compare
  /// in SQL as they do in memory, to the last bit (the native-encodings fuzz target found
  /// `cd < when` true in memory and false in SQL when both converted to seconds since 1970).
  func seconds(_ e: SQLExpr, _ form: SQLDateForm) -> SQLExpr {
    let pg = dialect.nativeTypes == .postgres
    let double = dialect.doubleTypeName
    let sql: SQLFragment
    switch form {
    case .unixSeconds: sql = SQLFragment("(CAST(\(e) AS \(sql: double)) - 978307200)")
    case .referenceSeconds: sql = SQLFragment("CAST(\(e) AS \(sql: double))")
    case .unixMilliseconds: sql = SQLFragment("(CAST(\(e) AS \(sql: double)) / 1000 - 978307200)")
    case .iso8601, .sqliteDateTime, .isoDate:
      if pg {
        let type = form == .iso8601 ? "timestamptz" : "timestamp"
        sql = SQLFragment("(CAST(EXTRACT(EPOCH FROM CAST(\(e) AS \(sql: type))) AS double precision) - 978307200)")
      } else {
        sql = SQLFragment("(ROUND((julianday(\(e)) - 2440587.5) * 86400000.0) / 1000.0 - 978307200)")
      }
    case .timestamptz, .timestamp, .date:
      sql = SQLFragment("(CAST(EXTRACT(EPOCH FROM \(e)) AS double precision) - 978307200)")
    }
    var out = SQLExpr(sql, type: .date, nullable: e.nullable)
    out.form = .date(.referenceSeconds, integer: false)
    out.nilWhen = e.nilWhen  // NULL exactly when `e` is: a NaN date stays a NaN, not nil
    return out
  }
}

/// Text dates compared with a constant without converting the column (an index serves
/// every form), exact for every shape a column may mix (Grammar/notes/sql.md, "Text dates").
extension SQLCompilation {
  /// `column op d` for an `iso8601` or `sqliteDateTime` text column, or nil for other forms.
  ///
  /// One instant has several spellings (`09:30`, `09:30:00`, `09:30:00.000`; `…00Z` and
  /// `…00.000Z`), and text order is time order between different instants except that the
  /// ISO-8601 whole-second spelling `PZ` sorts after every fractional spelling `P.mmmZ` of the
  /// same second. So: `sqliteDateTime` compares with the shortest (`>=`, `<`) or longest
  /// (`>`, `<=`) spelling of `d` and `==` is the range between them; `iso8601` compares with
  /// the fractional spelling and adds or removes the one string `PZ` (`d`'s whole second)
  /// by whether that instant satisfies the comparison.
  func textDateCompare(
    _ op: ComparisonOperator, _ x: SQLExpr, _ d: Date, _ form: SQLDateForm
  ) throws(SiftError) -> SQLExpr? {
    guard form == .iso8601 || form == .sqliteDateTime else { return nil }
    let separator = form == .iso8601 ? "T" : " "
    guard let full = SQLDateEncoding.text(d, separator: separator, zone: "") else {
      let error = SQLDateEncoding.outOfRange(d.timeIntervalSince1970, form.encoding)
      throw fail(.dateOutOfRange(error.diagnostic.message), SiftSourceRange(start: 0, end: source.utf8.count))
    }
    let p = String(full.prefix(19))
    let ms = full.count > 20 ? Int(full.dropFirst(20)) ?? 0 : 0
    let frac = p + "." + String(full.count > 20 ? String(full.dropFirst(20)) : "000")
    let coll = dialect.codePointCollation.map { " COLLATE " + q($0) } ?? ""
    func cmp(_ symbol: String, _ text: String) -> SQLExpr {
      condition(SQLFragment("\(x)\(sql: coll) \(sql: symbol) \(bind: .text(text))"))
    }
    if op == .notEqual {
      var eq = try textDateCompare(.equal, x, d, form) ?? .alwaysFalse
      eq = eq.typed(.boolean, nullable: true)
      return condition(SQLFragment("(\(eq)) IS NOT TRUE"))
    }
    if form == .sqliteDateTime {
      var shortest = ms == 0 ? p : frac
      if ms == 0, shortest.hasSuffix(":00") { shortest = String(shortest.dropLast(3)) }
      switch op {
      case .greaterThanOrEqual: return cmp(">=", shortest)
      case .lessThan: return cmp("<", shortest)
      case .greaterThan: return cmp(">", frac)
      case .lessThanOrEqual: return cmp("<=", frac)
      default: return and([cmp(">=", shortest), cmp("<=", frac)])
      }
    }
    let whole = p + "Z"
    switch op {
    case .equal:
      return ms == 0 ? or([cmp("=", whole), cmp("=", frac + "Z")]) : cmp("=", frac + "Z")
    case .greaterThanOrEqual:
      return ms == 0 ? cmp(">=", p) : and([cmp(">=", frac), cmp("<>", whole)])
    case .greaterThan:
      return and([cmp(">", frac + "Z"), cmp("<>", whole)])
    case .lessThan:
      return ms == 0 ? cmp("<", p) : or([cmp("<", frac), cmp("=", whole)])
    default:
      return or([cmp("<=", frac + "Z"), cmp("=", whole)])
    }
  }
}
