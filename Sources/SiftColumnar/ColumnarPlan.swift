import Foundation
import SiftEvaluation
import SiftSyntax

/// A predicate lowered to kernels over the columns of one data set. Only comparisons whose
/// answer can never be an error on these columns become kernels; the answer for a row whose
/// value is null or missing is the evaluator's own (`ComparisonPlan.answerOverEmptyRecord`),
/// so nil rules cannot drift. AND/OR/NOT combine the kernels' answers; with no
/// error possible, evaluation order makes no difference.
indirect enum ColumnarPlan {
  case constant(Bool)
  case and([ColumnarPlan])
  case or([ColumnarPlan])
  case not(ColumnarPlan)
  case leaf(ColumnarLeaf)
}

/// One vectorized comparison: a test over a column's values, and the row evaluator's answer
/// for rows where the value is null or missing.
struct ColumnarLeaf {
  let column: Column
  let test: ColumnarTest
  let nullAnswer: UInt8

  init(column: Column, test: ColumnarTest, nullAnswer: UInt8) {
    self.column = column
    self.test = test
    self.nullAnswer = nullAnswer
  }

  init(column: Column, test: ColumnarTest, nullAnswer: Bool) {
    self.init(column: column, test: test, nullAnswer: UInt8(nullAnswer ? 1 : 0))
  }
}

indirect enum ColumnarTest {
  /// Integers in `lo...hi`.
  case ints(Int64, Int64)
  /// Numbers (or dates, as seconds since 2001) in `lo...hi`.
  case doubles(Double, Double)
  /// Booleans (0, 1) in `lo...hi`.
  case bools(UInt8, UInt8)
  /// No value matches (a value of another kind, a nil operand).
  case nothing
  case strings(StringTest)
  /// ANY/ALL/NONE over an array column: the element test and its answer for null elements.
  case quantified(SiftQuantifier, ColumnarLeaf)
  /// Array element counts in `lo...hi`.
  case counts(Int64, Int64)
  /// Integers in a set (`IN` a long list, `ColumnarPlanner.membershipTest`).
  case intSet(Set<Int64>)
  /// Numbers (or dates, as seconds since 2001) in a set.
  case doubleSet(Set<Double>)
  /// Strings whose bytes, folded with `fold` (empty: as stored), are in a set.
  case stringSet(ByteStringSet, fold: TextFoldCode)
}

/// A string test over plain or folded bytes (`TextFoldCode.fold`, the evaluator's text rule),
/// searched and ordered through `TextSearch`.
struct StringTest {
  enum Operation {
    case equal
    /// BEGINSWITH, ENDSWITH, CONTAINS: where the needle must occur.
    case search(TextSearch.Position)
    case range
  }
  let operation: Operation
  let needle: [UInt8]
  /// `.range`: bounds (folded), each inclusive or not; nil for none.
  let lower: (bytes: [UInt8], inclusive: Bool)?
  let upper: (bytes: [UInt8], inclusive: Bool)?
  /// How the column's strings are folded first (`.none`: the bytes as stored).
  let fold: TextFoldCode
}

/// Lowers the evaluator's plan (`PredicatePlan`: constants folded, key paths split, operators
/// prepared with their text rule) to kernels; nil wherever a kernel could differ from the row
/// evaluator (that predicate then runs on the row evaluator, over the same columns).
struct ColumnarPlanner {
  let root: Column
  /// Why the last plan fell back (for `--explain`-style reports and the bench).
  var reason: String?
  /// The top-level keys the plan's comparisons read.
  var keysRead: Set<String> = []

  init(root: Column) { self.root = root }

  mutating func plan(_ p: PredicatePlan) -> ColumnarPlan? {
    switch p {
    case .constant(let b): return .constant(b)
    case .not(let inner): return plan(inner).map { .not($0) }
    case .and(let terms, _), .or(let terms, _):
      var out: [ColumnarPlan] = []
      for t in terms {
        guard let x = plan(t) else { return nil }
        out.append(x)
      }
      if case .and = p { return .and(Self.mergingRanges(out)) }
      return .or(out)
    case .comparison(let c):
      let r = comparison(c)
      if r == nil, reason == nil { reason = "\(PredicateNode(.comparison(c.node)))" }
      return r
    }
  }

  /// A comparison of a key path from the record with a constant (either side: `constant IN
  /// keyPath` is `keyPath CONTAINS constant`).
  mutating func comparison(_ c: ComparisonPlan) -> ColumnarPlan? {
    let kp: SiftKeyPath
    let rhs: SiftValue
    var op = c.node.op
    if c.node.quantifier == nil, op == .in, let k = c.constantLeft, let right = c.rightKeyPath {
      (kp, rhs, op) = (right, k, .contains)
    } else if let left = c.leftKeyPath, let k = c.constantRight {
      (kp, rhs) = (left, k)
    } else {
      return nil
    }
    var keys: [String] = []
    var counted = false
    for (i, part) in kp.components.enumerated() {
      switch part {
      case .key(let k) where k != "self" && !k.isEmpty: keys.append(k)
      case .operator(.count) where i == kp.components.count - 1 && i > 0: counted = true
      default: return nil
      }
    }
    // The evaluator's own answer where the key path reads nil.
    guard let nullAnswer = c.answerOverEmptyRecord else { return nil }
    if let first = keys.first { keysRead.insert(first) }
    guard let column = resolve(keys) else {
      return resolvedNothing(keys) ? .constant(nullAnswer) : nil
    }
    if column.kind == .empty { return .constant(nullAnswer) }
    let fold = c.fold
    if counted {
      guard c.node.quantifier == nil, column.kind == .array, let (lo, hi) = intBounds(op, rhs) else { return nil }
      return .leaf(ColumnarLeaf(column: column, test: lo > hi ? .nothing : .counts(lo, hi), nullAnswer: nullAnswer))
    }
    // ANY/ALL/NONE, and `array CONTAINS x` (ANY element == x): a test of each element.
    let quantifier = c.node.quantifier ?? (op == .contains && column.kind == .array ? .any : nil)
    if let q = quantifier {
      guard column.kind == .array, let elements = column.elements, let elementNull = c.answerForNullElement else {
        return nil
      }
      let test: ColumnarTest
      if elements.kind == .empty {
        test = .nothing
      } else {
        let elementOp = c.node.quantifier == nil ? .equal : op
        guard case .leaf(let e)? = plainTest(elements, elementOp, fold, rhs) else { return nil }
        test = e.test
      }
      let element = ColumnarLeaf(column: elements, test: test, nullAnswer: elementNull)
      return .leaf(ColumnarLeaf(column: column, test: .quantified(q, element), nullAnswer: nullAnswer))
    }
    guard let t = plainTest(column, op, fold, rhs) else { return nil }
    return attach(t, nullAnswer, column)
  }

  /// Replaces the null answer of every leaf in `plan` built by `plainTest` (which leaves it 0).
  func attach(_ plan: ColumnarPlan, _ nullAnswer: Bool, _ column: Column) -> ColumnarPlan {
    switch plan {
    case .leaf(let l): return .leaf(ColumnarLeaf(column: l.column, test: l.test, nullAnswer: nullAnswer ? 1 : 0))
    case .not(.leaf(let l)):
      // `!=`: the evaluator's own answer for null rows is already the negated one.
      return .not(.leaf(ColumnarLeaf(column: l.column, test: l.test, nullAnswer: nullAnswer ? 0 : 1)))
    case .or(let items):
      // IN: null rows answer once, through the first item.
      var out = items.map { x -> ColumnarPlan in
        if case .leaf(let l) = x { return .leaf(ColumnarLeaf(column: l.column, test: l.test, nullAnswer: 0)) }
        return x
      }
      if nullAnswer { out.append(.leaf(ColumnarLeaf(column: column, test: .nothing, nullAnswer: 1))) }
      return .or(out)
    default: return plan
    }
  }

  /// A comparison of `column`'s values (not null) with constant `rhs`; nil when some value
  /// could make the evaluator fail, or the operation has no kernel.
  func plainTest(_ column: Column, _ op: ComparisonOperator, _ fold: TextFoldCode, _ rhs: SiftValue) -> ColumnarPlan? {
    func leaf(_ t: ColumnarTest) -> ColumnarPlan { .leaf(ColumnarLeaf(column: column, test: t, nullAnswer: 0)) }
    switch op {
    case .notEqual:
      return plainTest(column, .equal, fold, rhs).map { .not($0) }
    case .in:
      guard case .array(let items) = rhs else { return nil }
      if items.count >= ConstantSet.minimumCount { return membershipTest(column, fold, items).map(leaf) }
      var out: [ColumnarPlan] = []
      for item in items {
        guard let p = plainTest(column, .equal, fold, item) else { return nil }
        out.append(p)
      }
      return .or(out)
    case .equal, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between:
      break
    case .beginsWith, .endsWith, .contains:
      guard column.kind == .string else { return nil }
      if rhs == .null { return leaf(.nothing) }
      guard case .string(let s) = rhs, let position = TextSearch.Position(op) else { return nil }
      let needle = Array(fold.fold(s).utf8)
      if needle.isEmpty { return leaf(.nothing) }
      return leaf(
        .strings(StringTest(operation: .search(position), needle: needle, lower: nil, upper: nil, fold: fold)))
    default:
      return nil
    }
    let ordering = op != .equal
    var bounds: [SiftValue]
    if op == .between {
      guard case .array(let b) = rhs, b.count == 2 else { return nil }
      if b.contains(.null) { return leaf(.nothing) }
      bounds = b
    } else {
      if rhs == .null { return leaf(.nothing) }
      bounds = [rhs]
    }
    switch column.kind {
    case .int, .double, .bool:
      guard bounds.allSatisfy({ $0.isNumeric }) else { return ordering ? nil : leaf(.nothing) }
      if column.kind == .double {
        guard let (lo, hi) = doubleBounds(op, bounds) else { return nil }
        return leaf(lo <= hi ? .doubles(lo, hi) : .nothing)
      }
      guard let (lo, hi) = intBounds(op, op == .between ? .array(bounds) : bounds[0]) else { return nil }
      if column.kind == .bool {
        let a = max(lo, 0), b = min(hi, 1)
        return leaf(a <= b ? .bools(UInt8(a), UInt8(b)) : .nothing)
      }
      return leaf(lo <= hi ? .ints(lo, hi) : .nothing)
    case .date:
      guard bounds.allSatisfy({ if case .date = $0 { true } else { false } }) else {
        return ordering ? nil : leaf(.nothing)
      }
      let secs = bounds.map { v -> SiftValue in
        if case .date(let d) = v { return .double(d.timeIntervalSinceReferenceDate) }
        return v
      }
      guard let (lo, hi) = doubleBounds(op, secs) else { return nil }
      return leaf(lo <= hi ? .doubles(lo, hi) : .nothing)
    case .string:
      var texts: [String] = []
      for b in bounds {
        guard case .string(let s) = b else { return ordering ? nil : leaf(.nothing) }
        texts.append(s)
      }
      let folded = texts.map { Array(fold.fold($0).utf8) }
      let t: StringTest
      switch op {
      case .equal: t = StringTest(operation: .equal, needle: folded[0], lower: nil, upper: nil, fold: fold)
      case .lessThan: t = StringTest(operation: .range, needle: [], lower: nil, upper: (folded[0], false), fold: fold)
      case .lessThanOrEqual:
        t = StringTest(operation: .range, needle: [], lower: nil, upper: (folded[0], true), fold: fold)
      case .greaterThan:
        t = StringTest(operation: .range, needle: [], lower: (folded[0], false), upper: nil, fold: fold)
      case .greaterThanOrEqual:
        t = StringTest(operation: .range, needle: [], lower: (folded[0], true), upper: nil, fold: fold)
      default:
        t = StringTest(operation: .range, needle: [], lower: (folded[0], true), upper: (folded[1], true), fold: fold)
      }
      return leaf(.strings(t))
    default:
      return nil
    }
  }

  /// The column at `keys` through object columns; nil when the path leaves them.
  func resolve(_ keys: [String]) -> Column? {
    var c = root
    for k in keys {
      guard c.kind == .object, let next = c.fields[k] else { return nil }
      c = next
    }
    return c
  }

  /// True when `keys` leads nowhere: some key along it is in no record (or every value
  /// before it is null), so every row reads null.
  func resolvedNothing(_ keys: [String]) -> Bool {
    var c = root
    for k in keys {
      if c.kind == .empty { return true }
      guard c.kind == .object else { return false }
      guard let next = c.fields[k] else { return true }
      c = next
    }
    return c.kind == .empty
  }
}

extension SiftValue {
  var isNumeric: Bool {
    switch self {
    case .int, .double, .bool: return true
    default: return false
    }
  }
}
