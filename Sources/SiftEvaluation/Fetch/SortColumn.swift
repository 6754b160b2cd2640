import Foundation
import SiftSyntax

/// One sort descriptor's keys for the fetch's sort, read once and laid out so that a
/// comparison touches no reference counts: numbers (or dates) as doubles, binary and
/// case-insensitive strings as UTF-8 bytes in one array (folded first for `[c]`), localized
/// strings as strings, anything else (mixed kinds, integers beyond 2^53, arrays…) as
/// `SortKey`s. nil is a flag beside the value. A layout, not a second order: every kind
/// compares with `SiftSortOrder`'s primitives, and direction and nil placement are the
/// descriptor's `SortPlan` (`nilOrder`, `directed`), the same the live results' `SiftSortKeyReader` uses
/// (`SortOrderPropertyTests` holds them to one order).
struct SortColumn {
  enum Kind { case numbers, bytes, localized, general }

  let kind: Kind
  let plan: SortPlan
  var comparison: SiftSortDescriptor.Comparison { plan.comparison }
  let nulls: [Bool]
  var numbers: [Double] = []
  /// `.bytes`: the strings' UTF-8, back to back; `starts[i]..<starts[i + 1]` is key i.
  var bytes: [UInt8] = []
  var starts: [Int] = []
  var strings: [String] = []
  /// `.localized`: each string's compatibility form (`SiftSortOrder.compatibilityForm`).
  var forms: [String] = []
  var general: [SortKey] = []

  /// A column of numbers (or dates as seconds since 1970) with no nil, as `init(_:_:)` lays
  /// out the same values (typed sort keys read through key paths: `SiftFetchRequest.typedOrder`).
  init(numbers: [Double], _ d: SiftSortDescriptor) {
    plan = SortPlan(d)
    kind = .numbers
    nulls = [Bool](repeating: false, count: numbers.count)
    self.numbers = numbers
  }

  init(_ values: [EvalValue], _ d: SiftSortDescriptor) {
    plan = SortPlan(d)
    let comparison = d.comparison
    var nulls = [Bool](repeating: false, count: values.count)
    var allNumbers = true, allDates = true, allStrings = true
    for (i, v) in values.enumerated() {
      switch v {
      case .null: nulls[i] = true
      case .bool, .double: (allDates, allStrings) = (false, false)
      case .int(let x):
        (allDates, allStrings) = (false, false)
        if x.magnitude > 1 << 53 { allNumbers = false }
      case .date: (allNumbers, allStrings) = (false, false)
      case .string: (allNumbers, allDates) = (false, false)
      default: (allNumbers, allDates, allStrings) = (false, false, false)
      }
    }
    self.nulls = nulls
    if allNumbers || allDates {
      kind = .numbers
      numbers = values.map { v in
        switch v {
        case .bool(let b): return b ? 1 : 0
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .date(let t): return t.timeIntervalSince1970
        default: return 0
        }
      }
    } else if allStrings && (comparison == .binary || comparison == .caseInsensitive) {
      kind = .bytes
      starts.reserveCapacity(values.count + 1)
      starts.append(0)
      for v in values {
        if case .string(let s) = v {
          bytes.append(contentsOf: (comparison == .caseInsensitive ? TextFolding.fold(s, .caseInsensitive) : s).utf8)
        }
        starts.append(bytes.count)
      }
    } else if allStrings {
      kind = .localized
      strings = values.map { v in
        if case .string(let s) = v { return s }
        return ""
      }
      // Each string's compatibility form once, not once per comparison.
      forms = strings.map(SiftSortOrder.compatibilityForm)
    } else {
      kind = .general
      general = values.map { SortKey($0, d.comparison) }
    }
  }

  /// -1, 0 or 1: key i against key j, in the descriptor's order.
  @inline(__always)
  func compare(_ i: Int, _ j: Int) -> Int {
    let ni = nulls[i], nj = nulls[j]
    if ni || nj { return plan.nilOrder(ni, nj) }
    let c: Int
    switch kind {
    case .numbers: c = SiftSortOrder.compareDoubles(numbers[i], numbers[j])
    case .bytes: c = SiftSortOrder.compareBytes(bytes[starts[i]..<starts[i + 1]], bytes[starts[j]..<starts[j + 1]])
    case .localized:
      c =
        plan.comparison == .localized
        ? SiftSortOrder.localized(forms: forms[i], forms[j], strings[i], strings[j])
        : SiftSortOrder.localizedStandard(forms: forms[i], forms[j], strings[i], strings[j])
    case .general: c = SortKey.compare(general[i], general[j], plan.comparison)
    }
    return plan.directed(c)
  }
}
