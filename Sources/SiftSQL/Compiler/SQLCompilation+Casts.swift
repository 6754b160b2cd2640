import Foundation
import SiftSyntax

/// CAST between kinds and `FUNCTION(receiver, 'selector')`, as memory runs them
/// (Grammar/notes/sql.md, "CAST and selectors"): constants fold with the SiftSyntax rules, the
/// rest compiles to plain SQL where that gives memory's answer and to Sift's conversion
/// functions (`SQLConversion`) where it does not.
extension SQLCompilation {
  /// `FUNCTION(receiver, 'name', arguments…)`: a selector of `SiftSelector`'s table, compiled as
  /// the tree it lowers to (`length` by `sift_utf16_length`). Functions registered in Swift run
  /// in memory only: SQL knows only the table, so a registration never changes what SQL answers.
  mutating func selector(
    _ receiver: ExpressionNode, _ name: String, _ arguments: [ExpressionNode], _ range: SiftSourceRange
  ) throws(SiftError) -> Operand {
    guard let selector = SiftSelector(rawValue: name) else { throw fail(.unknownSelector(name), range) }
    guard arguments.isEmpty else { throw fail(.wrongArgumentCount("FUNCTION(…, '\(name)')", takes: 0), range) }
    if let tree = selector.lowered(receiver, at: range) { return try expression(tree) }
    var o = try expression(receiver)
    if case .constant(let c) = o {
      switch c {
      case .null: return .constant(.null)
      case .string(let s): return .constant(.int(Int64(SiftSelector.utf16Length(s))))
      default: break
      }
    }
    let x = try scalar(&o, hint: .string, receiver.range)
    guard x.type == .string || x.type.family == 0 else { throw fail(.functionNeedsString(name), range) }
    let f = try conversion(.utf16Length, "FUNCTION(…, 'length')", range)
    return .value(SQLExpr(SQLFragment("\(sql: f)(\(x))"), type: .integer, nullable: x.nullable))
  }

  /// `CAST(x, "Class")`: memory's `Cast.apply` rules (SiftEvaluation/Semantics/Functions.swift).
  mutating func cast(_ x: ExpressionNode, _ type: CastType, _ range: SiftSourceRange) throws(SiftError) -> Operand {
    let o = try expression(x)
    if case .constant(let v) = o, let folded = try castConstant(v, type, range) { return .constant(folded) }
    var copy = o
    let v = try scalar(&copy, hint: nil, x.range)
    func refuse() -> SiftError { fail(.castNotCompilable(to: type.className, from: v.type), range) }
    func call(_ c: SQLConversion, _ arg: SQLExpr, _ t: SQLType, raises: Bool = false) throws(SiftError) -> SQLExpr {
      let f = try conversion(c, "CAST(…, \"\(type.className)\") of \(v.type)", range)
      return SQLExpr(raising(raises, SQLFragment("\(sql: f)(\(arg))")), type: t, nullable: true)
    }
    if v.type == .null { return .value(v) }
    switch type {
    case .number, .decimalNumber:
      switch v.type {
      case .integer, .double: return .value(v)
      case .boolean: return .value(booleanNumber(v))
      case .date: return .value(seconds(v, dateForm(v).form).typed(.double, nullable: v.nullable))
      case .string: return .value(try call(.textNumber, v, .double))
      default: throw refuse()
      }
    case .string:
      switch v.type {
      case .string: return .value(v)
      case .integer where dialect.integerCheckFunction == nil:
        return .value(
          collated(
            SQLExpr(SQLFragment("CAST(\(v) AS \(sql: dialect.textTypeName))"), type: .string, nullable: v.nullable)))
      case .integer, .double:
        // An integer-typed value is a double at run time where integer arithmetic that overflows
        // gives one (SQLite, the dialects with an integer check): `n + 1` of Int64.max is
        // 9.223372036854776e+18 in memory, and SQLite's own text of it has 15 digits.
        return .value(nanAsText(v, try call(.numberText, v, .string)))
      case .boolean: return .value(booleanText(v))
      case .date:
        let s = seconds(v, dateForm(v).form)
        return .value(nanAsText(s, try call(.dateText, s, .string)))
      default: throw refuse()
      }
    case .date:
      var out: SQLExpr
      switch v.type {
      case .date: return .value(v)
      case .integer, .double:
        out = SQLExpr(SQLFragment("CAST(\(v) AS \(sql: dialect.doubleTypeName))"), type: .date, nullable: v.nullable)
        out.nilWhen = v.nilWhen  // a NaN is a date too (not nil), as in memory
      case .string: out = try call(.textDate, v, .date, raises: true)
      default: throw refuse()
      }
      out.form = .date(.referenceSeconds, integer: false)
      return .value(out)
    case .array:
      throw refuse()
    }
  }

  /// A constant cast at compile time by memory's rules; nil when the rule needs the engine
  /// (a collection), which then refuses it.
  func castConstant(_ v: SiftValue, _ type: CastType, _ range: SiftSourceRange) throws(SiftError) -> SiftValue? {
    if case .null = v { return .null }
    switch (type, v) {
    case (.date, .int(let i)): return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
    case (.date, .double(let d)): return .date(Date(timeIntervalSinceReferenceDate: d))
    case (.date, .date): return v
    // Text that names a date was folded when parsing; any other text is refused here.
    case (.date, .string(let s)): throw fail(.notADate(s), range)
    case (.number, .int), (.number, .double), (.decimalNumber, .int), (.decimalNumber, .double): return v
    case (.number, .bool(let b)), (.decimalNumber, .bool(let b)): return .int(b ? 1 : 0)
    case (.number, .date(let d)), (.decimalNumber, .date(let d)): return .double(d.timeIntervalSinceReferenceDate)
    case (.number, .string(let s)), (.decimalNumber, .string(let s)): return SiftNumberText.number(s) ?? .null
    case (.string, .string): return v
    case (.string, .int(let i)): return .string(String(i))
    case (.string, .double(let d)): return .string(SiftNumberText.text(d))
    case (.string, .bool(let b)): return .string(b ? "1" : "0")
    case (.string, .date(let d)): return .string(SiftJSON.formatDate(d))
    default: return nil
    }
  }

  /// `text`, the text of `v`, or memory's `nan` where `v` is a NaN (or a date that many seconds
  /// from 2001) that SQLite stored as NULL but that is not nil (`v.nilWhen`, see "NaN").
  func nanAsText(_ v: SQLExpr, _ text: SQLExpr) -> SQLExpr {
    guard dialect.nanBecomesNull, let nilWhen = v.nilWhen else { return text }
    let sql = SQLFragment(
      "CASE WHEN \(v) IS NULL AND NOT (\(or(nilWhen))) THEN \(bind: .text("nan")) ELSE \(text) END")
    return SQLExpr(sql, type: .string, nullable: true)
  }

  /// A boolean as the integer 1 or 0.
  func booleanNumber(_ v: SQLExpr) -> SQLExpr {
    if dialect.booleansAreIntegers { return v.typed(.integer, nullable: v.nullable) }
    let sql = SQLFragment("CAST(\(v) AS \(sql: dialect.booleanIntegerTypeName))")
    return SQLExpr(sql, type: .integer, nullable: v.nullable)
  }

  /// A boolean as the text `1` or `0`, as memory prints it.
  func booleanText(_ v: SQLExpr) -> SQLExpr {
    let sql = SQLFragment("CAST(\(booleanNumber(v)) AS \(sql: dialect.textTypeName))")
    return collated(SQLExpr(sql, type: .string, nullable: v.nullable))
  }

  /// The name `dialect` calls `c` by, or the refusal of `what` on this dialect.
  func conversion(_ c: SQLConversion, _ what: String, _ range: SiftSourceRange) throws(SiftError) -> String {
    guard let f = dialect.conversionFunction(c) else { throw fail(.notCompilable(what, for: dialect.name), range) }
    return f
  }
}
