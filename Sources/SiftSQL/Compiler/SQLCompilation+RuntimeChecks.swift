import SiftSyntax

/// Run-time checks the SQL adds where memory would fail (see Grammar/notes/sql.md: "Bitwise
/// operands that overflowed", "Errors where memory has them").
extension SQLCompilation {
  /// A bitwise operand wrapped in the dialect's integer check unless it is a bound constant
  /// (already known to be an integer): a computed value may have overflowed into a double.
  func integerChecked(_ x: SQLExpr) -> SQLExpr {
    guard x.constant == nil, let f = dialect.integerCheckFunction else { return x }
    var checked = x
    if let w = nilWhen(x) {
      // A NaN (stored as NULL) is no integer either: the check gets a double for it.
      let isNil = or(w)
      let arg = SQLFragment("CASE WHEN \(isNil) THEN NULL ELSE COALESCE(\(x), \(bind: .double(0.5))) END")
      checked.sql = raising(true, SQLFragment("\(sql: f)(\(arg))"))
      checked.nilWhen = nil
      return checked
    }
    checked.sql = raising(true, SQLFragment("\(sql: f)(\(x))"))
    return checked
  }

  /// True for a constant integer (or boolean) that is not negative.
  func isNonNegativeInteger(_ v: SiftValue?) -> Bool {
    switch v {
    case .int(let i)?: return i >= 0
    case .bool?: return true
    default: return false
    }
  }

  /// False only for a divisor that is a constant other than the integer zero: any other
  /// may be an integer zero at run time (`division-by-zero`, raised by SQL too).
  func mayBeZero(_ divisor: SQLExpr) -> Bool {
    switch constant(divisor) {
    case nil, .int(0)?, .bool(false)?: return true
    default: return false
    }
  }

  /// The largest SQL fragment an expression or comparison may compile to (1 MiB). Keeping
  /// memory's semantics repeats some operands in the SQL (a side that may fail is evaluated
  /// first, a possibly-NaN value carries its operands' nil tests, XOR is `(a | b) - (a & b)`),
  /// so nesting such constructs grows the SQL geometrically; past the limit the predicate is
  /// refused (`too-large-for-sql`) instead of exhausting memory.
  static let maxFragmentBytes = 1 << 20

  /// `sql`, marked as raising at run time when `raises` (see `SQLExpr.mayRaise`).
  func raising(_ raises: Bool, _ sql: SQLFragment) -> SQLFragment {
    var marked = sql
    marked.mayRaise = marked.mayRaise || raises
    return marked
  }

  func checkedSize(_ e: SQLExpr, _ range: SiftSourceRange) throws(SiftError) {
    guard e.sql.byteCount > SQLCompilation.maxFragmentBytes else { return }
    throw fail(.tooLargeForSQL(maxBytes: SQLCompilation.maxFragmentBytes), range)
  }
}
