import Foundation
import SiftSyntax

/// One sort descriptor's keys, read once and laid out so that a comparison touches no
/// reference counts: numbers (or dates) as doubles, binary and case-insensitive strings as
/// UTF-8 bytes in one buffer (folded first for `[c]`), localized strings as strings, anything
/// else (mixed kinds, integers beyond 2^53, arrays…) as `SortKey`s. nil is a flag beside
/// the value. `compare` applies the descriptor's direction and nil placement.
///
/// The buffers are allocated by `init` and freed by `deallocate()`.
struct SortColumn {
  enum Kind { case numbers, bytes, localized, general }

  let kind: Kind
  let ascending: Bool
  let nilsFirst: Bool
  let comparison: SiftSortDescriptor.Comparison
  let nulls: UnsafeMutableBufferPointer<Bool>
  let numbers: UnsafeMutableBufferPointer<Double>
  /// `.bytes`: the strings' UTF-8, back to back; `starts[i]..<starts[i + 1]` is key i.
  let bytes: UnsafeMutableBufferPointer<UInt8>
  let starts: UnsafeMutableBufferPointer<Int>
  let strings: UnsafeMutableBufferPointer<String>
  let general: UnsafeMutableBufferPointer<SortKey>

  init(_ values: [EvalValue], _ d: SiftSortDescriptor) {
    ascending = d.ascending
    nilsFirst = d.nilsFirst
    comparison = d.comparison
    let n = values.count
    nulls = .allocate(capacity: n)
    var allNumbers = true, allDates = true, allStrings = true
    for (i, v) in values.enumerated() {
      nulls.initializeElement(at: i, to: false)
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
    var numbers = UnsafeMutableBufferPointer<Double>.allocate(capacity: 0)
    var bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 0)
    var starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 0)
    var strings = UnsafeMutableBufferPointer<String>.allocate(capacity: 0)
    var general = UnsafeMutableBufferPointer<SortKey>.allocate(capacity: 0)
    if allNumbers || allDates {
      kind = .numbers
      numbers.deallocate()
      numbers = .allocate(capacity: n)
      for (i, v) in values.enumerated() {
        let x: Double
        switch v {
        case .bool(let b): x = b ? 1 : 0
        case .int(let i): x = Double(i)
        case .double(let d): x = d
        case .date(let t): x = t.timeIntervalSince1970
        default: x = 0
        }
        numbers.initializeElement(at: i, to: x)
      }
    } else if allStrings && comparison != .localizedStandard {
      kind = .bytes
      var buffer: [UInt8] = []
      var offsets: [Int] = [0]
      offsets.reserveCapacity(n + 1)
      for v in values {
        if case .string(let s) = v {
          buffer.append(contentsOf: (comparison == .caseInsensitive ? TextFolding.fold(s, .caseInsensitive) : s).utf8)
        }
        offsets.append(buffer.count)
      }
      bytes.deallocate()
      bytes = .allocate(capacity: buffer.count)
      _ = bytes.initialize(from: buffer)
      starts.deallocate()
      starts = .allocate(capacity: offsets.count)
      _ = starts.initialize(from: offsets)
    } else if allStrings {
      kind = .localized
      strings.deallocate()
      strings = .allocate(capacity: n)
      for (i, v) in values.enumerated() {
        if case .string(let s) = v { strings.initializeElement(at: i, to: s) } else { strings.initializeElement(at: i, to: "") }
      }
    } else {
      kind = .general
      general.deallocate()
      general = .allocate(capacity: n)
      for (i, v) in values.enumerated() { general.initializeElement(at: i, to: SortKey(v, d.comparison)) }
    }
    self.numbers = numbers
    self.bytes = bytes
    self.starts = starts
    self.strings = strings
    self.general = general
  }

  func deallocate() {
    nulls.deallocate()
    numbers.deallocate()
    bytes.deallocate()
    starts.deallocate()
    switch kind {
    case .localized: _ = strings.deinitialize()
    case .general: _ = general.deinitialize()
    default: break
    }
    strings.deallocate()
    general.deallocate()
  }

  /// -1, 0 or 1: key i against key j, in the descriptor's order.
  @inline(__always)
  func compare(_ i: Int, _ j: Int) -> Int {
    let ni = nulls[i], nj = nulls[j]
    if ni || nj {
      if ni && nj { return 0 }
      return ni == nilsFirst ? -1 : 1
    }
    var c: Int
    switch kind {
    case .numbers:
      let x = numbers[i], y = numbers[j]
      if x < y { c = -1 } else if x > y { c = 1 } else if x == y { c = 0 } else { c = x.isNaN ? (y.isNaN ? 0 : -1) : 1 }
    case .bytes:
      let a = starts[i], la = starts[i + 1] - a, b = starts[j], lb = starts[j + 1] - b
      c = 0
      if let base = bytes.baseAddress, min(la, lb) > 0 {
        let r = memcmp(base + a, base + b, min(la, lb))
        c = r < 0 ? -1 : (r > 0 ? 1 : 0)
      }
      if c == 0 { c = la < lb ? -1 : (la > lb ? 1 : 0) }
    case .localized:
      c = SiftSortOrder.localizedStandard(strings[i], strings[j])
    case .general:
      c = SortKey.compare(general[i], general[j], comparison)
    }
    return ascending ? c : -c
  }
}
