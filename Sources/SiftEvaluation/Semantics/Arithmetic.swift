import Foundation
import SiftSyntax

/// Arithmetic and bitwise operators (also behind `add:to:`, `modulus:by:`, `bitwiseAnd:with:`…).
///
/// - Numbers only (booleans are 1/0); a nil operand gives nil; strings and collections are
///   errors (`not-a-number`). Dates: `date ± seconds` is a date and `date - date` is seconds.
/// - Integer ∘ integer stays an integer; on overflow the result is computed in `Double`
///   instead (never traps). Integer `/` truncates; integer division or modulus by zero is the
///   error `division-by-zero`; with a double operand IEEE rules apply (±inf, NaN).
/// - `**` is exact for integer bases and non-negative integer exponents that fit, else `pow`.
/// - Bitwise operators need integers (`bitwise-needs-integers`); shifts by 64 or more give 0
///   (or -1 for a negative value shifted right) and negative shifts shift the other way.
enum Arithmetic {
  static func binary(_ op: BinaryOperator, _ a: EvalValue, _ b: EvalValue, at r: SiftSourceRange)
    throws(EvalFailure) -> EvalValue
  {
    if op.isSetOperator { return try SetOperations.apply(op, a, b, at: r) }
    if a.isNull || b.isNull { return .null }
    switch op {
    case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
      let x = try integer(a, at: r), y = try integer(b, at: r)
      switch op {
      case .bitwiseAnd: return .int(x & y)
      case .bitwiseOr: return .int(x | y)
      case .bitwiseXor: return .int(x ^ y)
      case .leftShift: return .int(x << y)
      default: return .int(x >> y)
      }
    default: break
    }
    if case .date(let d) = a, let n = b.number, op == .add || op == .subtract {
      let s = double(n)
      return .date(d.addingTimeInterval(op == .add ? s : -s))
    }
    if case .date(let d) = b, let n = a.number, op == .add { return .date(d.addingTimeInterval(double(n))) }
    if case .date(let x) = a, case .date(let y) = b, op == .subtract {
      return .double(x.timeIntervalSinceReferenceDate - y.timeIntervalSinceReferenceDate)
    }
    guard let x = a.number, let y = b.number else { throw EvalDiagnostics.wrongOperands("'\(op.symbol)'", a, b, at: r) }
    return try numeric(op, x, y, at: r)
  }

  static func numeric(_ op: BinaryOperator, _ a: Number, _ b: Number, at r: SiftSourceRange) throws(EvalFailure)
    -> EvalValue
  {
    if case .int(let x) = a, case .int(let y) = b {
      switch op {
      case .add:
        let (v, o) = x.addingReportingOverflow(y)
        return o ? .double(Double(x) + Double(y)) : .int(v)
      case .subtract:
        let (v, o) = x.subtractingReportingOverflow(y)
        return o ? .double(Double(x) - Double(y)) : .int(v)
      case .multiply:
        let (v, o) = x.multipliedReportingOverflow(by: y)
        return o ? .double(Double(x) * Double(y)) : .int(v)
      case .divide:
        if y == 0 { throw EvalDiagnostics.divisionByZero(at: r) }
        let (v, o) = x.dividedReportingOverflow(by: y)
        return o ? .double(Double(x) / Double(y)) : .int(v)
      case .power:
        if let v = NumberRules.exactPower(x, y) { return .int(v) }
        return .double(Foundation.pow(Double(x), Double(y)))
      default: break
      }
    }
    let x = double(a), y = double(b)
    switch op {
    case .add: return .double(x + y)
    case .subtract: return .double(x - y)
    case .multiply: return .double(x * y)
    case .divide: return .double(x / y)
    case .power: return .double(Foundation.pow(x, y))
    default: return .null
    }
  }

  /// `a % b` (`modulus:by:`): integers truncate toward zero like Swift's `%`; zero divisor is
  /// `division-by-zero`; with a double operand, `fmod` semantics.
  static func modulus(_ a: EvalValue, _ b: EvalValue, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    if a.isNull || b.isNull { return .null }
    guard let x = a.number, let y = b.number else { throw EvalDiagnostics.wrongOperands("modulus:by:", a, b, at: r) }
    if case .int(let i) = x, case .int(let j) = y {
      if j == 0 { throw EvalDiagnostics.divisionByZero(at: r) }
      return .int(i.remainderReportingOverflow(dividingBy: j).partialValue)
    }
    return .double(double(x).truncatingRemainder(dividingBy: double(y)))
  }

  static func negate(_ v: EvalValue, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    switch v {
    case .null: return .null
    case .double(let d): return .double(-d)
    default:
      guard case .int(let i)? = v.number else { throw EvalDiagnostics.needsNumber("'-'", v, at: r) }
      let (n, o) = Int64(0).subtractingReportingOverflow(i)
      return o ? .double(-Double(i)) : .int(n)
    }
  }

  static func bitwiseNot(_ v: EvalValue, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    if v.isNull { return .null }
    return .int(~(try integer(v, at: r)))
  }

  static func integer(_ v: EvalValue, at r: SiftSourceRange) throws(EvalFailure) -> Int64 {
    guard case .int(let i)? = v.number else { throw EvalDiagnostics.bitwiseNeedsIntegers(v, at: r) }
    return i
  }

  @inline(__always)
  static func double(_ n: Number) -> Double {
    switch n {
    case .int(let i): return Double(i)
    case .double(let d): return d
    }
  }
}
