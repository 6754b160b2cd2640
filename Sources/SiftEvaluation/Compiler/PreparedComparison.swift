import Foundation
import SiftSyntax

/// One comparison operator with its options, prepared once: the string rule, and, when the
/// right side is a constant, the folded needle, LIKE pattern or regular expression.
///
/// Semantics (see Grammar/notes/evaluation.md):
/// - `==`/`!=`: `ValueComparison.equal`; nil equals only nil.
/// - ordering: a nil operand gives false, except nil `<=`/`>=` nil is true; numbers, strings
///   and dates order among themselves; any other pair is the error `incomparable-values`.
/// - `BETWEEN`: inclusive, the right side must be a two-element array.
/// - `IN`/`CONTAINS`: membership in an array or a dictionary's values, or substring when the
///   container is a string; nil container or needle gives false; other containers are errors.
/// - `BEGINSWITH`/`ENDSWITH`/`LIKE`/`MATCHES`/`UTI-…`: both sides strings (nil gives false, another
///   kind is `not-a-string`); an empty needle never begins/ends/is contained.
/// - A nil operand of a string operator, `IN` or `CONTAINS` gives false before the other
///   operand's kind is checked, as Apple's operators test nil first: `5 LIKE nil` is false.
struct PreparedComparison: Sendable {
  let op: ComparisonOperator
  let rule: TextRule
  let range: SiftSourceRange
  let lhsRange: SiftSourceRange
  let rhsRange: SiftSourceRange
  /// Prepared constant right side, when there is one.
  let needle: PreparedText?
  /// Where BEGINSWITH/ENDSWITH look for the needle (`TextSearch.Position(op)`); nil for others.
  let position: TextSearch.Position?
  let like: LikePattern?
  let regex: RegexPattern?
  /// Whether `regex.quickMatch` decides the constant pattern without a clock (set by
  /// `Specializer`).
  var quickRegex = false
  /// `IN` a constant list of at least `ConstantSet.minimumCount` elements, hashed (set by
  /// `Specializer`).
  var constantSet: ConstantSet?

  /// Prepares `c`, reporting what can never evaluate: an invalid literal MATCHES pattern.
  init(_ c: SiftComparison, constantRHS: EvalValue?) throws(EvalFailure) {
    self.init(preparing: c, constantRHS: constantRHS)
    if op == .matches, regex == nil, case .string(let s)? = constantRHS, case .constant = c.rhs.kind {
      // A literal (or bound) pattern fails compile(); one folded from an expression
      // (`uppercase("(")`) fails when evaluated, like every other folded error.
      do { _ = try RegexPattern(s, options: rule.options) } catch {
        throw EvalDiagnostics.invalidRegex(error.description, at: c.rhs.range)
      }
    }
  }

  /// Prepares `c`; a constant pattern that does not compile is left to fail when evaluated.
  init(preparing c: SiftComparison, constantRHS: EvalValue?) {
    op = c.op
    rule = TextRule(c.options)
    range = c.operatorRange
    lhsRange = c.lhs.range
    rhsRange = c.rhs.range
    position = c.op == .contains ? nil : TextSearch.Position(c.op)
    var needle: PreparedText?
    var like: LikePattern?
    var regex: RegexPattern?
    if case .string(let s)? = constantRHS {
      needle = rule.prepare(s)
      if op == .like { like = LikePattern(s, options: rule.options) }
      if op == .matches { regex = try? RegexPattern(s, options: rule.options) }
    }
    self.needle = needle
    self.like = like
    self.regex = regex
  }

  /// Applies the operator to evaluated operands. `clock` is the call's work meter, whose
  /// deadline MATCHES reads while it matches (a costly pattern stops inside one subject);
  /// callers without one are the fast paths, which `Specializer` never builds for a
  /// MATCHES that `RegexPattern.quickMatch` does not decide.
  @inline(__always)
  func test(_ l: EvalValue, _ r: EvalValue, clock: WorkMeter? = nil) throws(EvalFailure) -> Bool {
    switch op {
    case .equal: return equal(l, r)
    case .notEqual: return !equal(l, r)
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
      if l.isNull || r.isNull {
        return l.isNull && r.isNull && (op == .lessThanOrEqual || op == .greaterThanOrEqual)
      }
      guard let c = ValueComparison.order(l, r, rule) else { throw EvalDiagnostics.incomparable(l, r, at: range) }
      if c == ValueComparison.unordered { return false }
      switch op {
      case .lessThan: return c < 0
      case .lessThanOrEqual: return c <= 0
      case .greaterThan: return c > 0
      default: return c >= 0
      }
    case .between: return try between(l, r)
    case .in: return try membership(l, in: r, needlePrepared: false)
    case .contains: return try membership(r, in: l, needlePrepared: true)
    case .beginsWith, .endsWith:
      guard let (s, n) = try strings(l, r), let position else { return false }
      return rule.find(n, in: s, position)
    case .like:
      if r.isNull { return false }  // nil before kinds: `5 LIKE nil` is false
      guard case .string(let s)? = try checkedString(l, lhsRange) else { return false }
      if let like, case .string = r { return like.matches(s) }
      guard case .string(let p)? = try checkedString(r, rhsRange) else { return false }
      return LikePattern(p, options: rule.options).matches(s)
    case .matches:
      if r.isNull { return false }
      guard case .string(let s)? = try checkedString(l, lhsRange) else { return false }
      if let regex, case .string = r {
        return try PreparedComparison.match(regex, s, clock: clock, at: rhsRange)
      }
      guard case .string(let p)? = try checkedString(r, rhsRange) else { return false }
      let pattern: RegexPattern
      do { pattern = try RegexPattern(p, options: rule.options) } catch {
        throw EvalDiagnostics.invalidRegex(error.description, at: rhsRange)
      }
      return try PreparedComparison.match(pattern, s, clock: clock, at: rhsRange)
    case .utiConformsTo, .utiEquals:
      // Exact identifiers; conformance through Apple's public hierarchy (`SystemTypeIdentifiers`).
      if r.isNull { return false }
      guard case .string(let t)? = try checkedString(l, lhsRange),
        case .string(let u)? = try checkedString(r, rhsRange)
      else { return false }
      return op == .utiEquals ? t == u : SystemTypeIdentifiers.conforms(t, to: u)
    }
  }

  /// A whole-string match under the call's deadline (`clock`): a pattern ICU runs that uses
  /// up its steps is the error `regex-limit` naming it, a match still running at the deadline
  /// is `time-limit` — never a silent "no match".
  static func match(
    _ regex: RegexPattern, _ s: String, clock: WorkMeter?, at range: SiftSourceRange
  ) throws(EvalFailure) -> Bool {
    do { return try regex.match(s, deadline: clock?.deadline ?? 0) } catch {
      switch error {
      case .steps(let e): throw EvalDiagnostics.regexLimit(e, at: range)
      case .deadline: throw EvalDiagnostics.timeLimit(clock?.milliseconds ?? 0, at: range)
      }
    }
  }

  /// True when the fast paths (`ConstantTest`, which have no clock) must leave this
  /// comparison to the generic closure: a MATCHES that `RegexPattern.quickMatch` does not decide can run
  /// long on one subject, and only the generic closure hands it the call's deadline.
  var needsClock: Bool { op == .matches && !quickRegex }

  @inline(__always)
  func equal(_ l: EvalValue, _ r: EvalValue) -> Bool {
    if let needle, case .string(let s) = l, case .string = r { return rule.equal(s, needle) }
    return ValueComparison.equal(l, r, rule)
  }

  func between(_ l: EvalValue, _ r: EvalValue) throws(EvalFailure) -> Bool {
    guard let bounds = r.list, bounds.count == 2 else { throw EvalDiagnostics.betweenNeedsTwoBounds(r, at: rhsRange) }
    let lo = bounds[0], hi = bounds[1]
    if l.isNull || lo.isNull || hi.isNull { return false }
    guard let a = ValueComparison.order(l, lo, rule) else { throw EvalDiagnostics.incomparable(l, lo, at: range) }
    guard let b = ValueComparison.order(l, hi, rule) else { throw EvalDiagnostics.incomparable(l, hi, at: range) }
    if a == ValueComparison.unordered || b == ValueComparison.unordered { return false }
    return a >= 0 && b <= 0
  }

  /// Is `needle` an element (or value, or substring) of `container`? `needlePrepared` says the
  /// needle is the comparison's right side (so a prepared constant applies).
  func membership(_ needle: EvalValue, in container: EvalValue, needlePrepared: Bool) throws(EvalFailure) -> Bool {
    switch container {
    case .null: return false
    case .string(let hay):
      if needle.isNull { return false }
      guard case .string(let n) = needle else {
        throw EvalDiagnostics.needsString("\(op.keyword) on a string", needle, at: needlePrepared ? rhsRange : lhsRange)
      }
      let prepared = (needlePrepared ? self.needle : nil) ?? rule.prepare(n)
      return rule.find(prepared, in: hay, .anywhere)
    case .array, .values:
      if let constantSet, !needlePrepared { return constantSet.contains(needle) }  // `IN` the constant list
      guard let items = container.list else { return false }
      for i in 0..<items.count where ValueComparison.equal(needle, items[i], rule) { return true }
      return false
    case .dict, .object:
      guard let k = Keyed(container) else { return false }
      return k.values.contains { ValueComparison.equal(needle, $0, rule) }
    default:
      if needle.isNull { return false }  // nil before kinds: `5 CONTAINS nil` is false
      throw EvalDiagnostics.needsCollection(
        "\(op.keyword)", container, at: op == .in ? rhsRange : lhsRange)
    }
  }

  /// Both operands as strings; nil when either is nil; an error for other kinds.
  @inline(__always)
  func strings(_ l: EvalValue, _ r: EvalValue) throws(EvalFailure) -> (String, PreparedText)? {
    if r.isNull { return nil }  // nil before kinds: `5 BEGINSWITH nil` is false
    guard case .string(let s)? = try checkedString(l, lhsRange) else { return nil }
    if let needle, case .string = r { return (s, needle) }
    guard case .string(let n)? = try checkedString(r, rhsRange) else { return nil }
    return (s, rule.prepare(n))
  }

  @inline(__always)
  func checkedString(_ v: EvalValue, _ at: SiftSourceRange) throws(EvalFailure) -> EvalValue? {
    switch v {
    case .string: return v
    case .null: return nil
    default: throw EvalDiagnostics.needsString(op.keyword, v, at: at)
    }
  }
}
