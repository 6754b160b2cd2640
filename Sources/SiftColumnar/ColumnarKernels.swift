import Foundation
import SiftSyntax

/// Runs a plan over rows `lo..<lo+n`, writing 1 (match) or 0 per row into `out`. The loops
/// read the columns through the pointers `ColumnBuffers.lend` lends (checked once per run).
enum ColumnarKernels {
  static func run(_ plan: ColumnarPlan, _ lo: Int, _ n: Int, _ out: UnsafeMutablePointer<UInt8>) {
    guard n > 0 else { return }
    switch plan {
    case .constant(let b): out.initialize(repeating: b ? 1 : 0, count: n)
    case .leaf(let leaf): run(leaf, lo, n, out)
    case .not(let inner):
      run(inner, lo, n, out)
      for k in 0..<n { out[k] ^= 1 }
    case .and(let terms), .or(let terms):
      let isAnd: Bool
      if case .and = plan { isAnd = true } else { isAnd = false }
      guard let first = terms.first else {
        out.initialize(repeating: isAnd ? 1 : 0, count: n)
        return
      }
      run(first, lo, n, out)
      guard terms.count > 1 else { return }
      ColumnBuffers.scratch(UInt8.self, n) { tmp in
        for t in terms.dropFirst() {
          run(t, lo, n, tmp)
          if isAnd {
            for k in 0..<n { out[k] &= tmp[k] }
          } else {
            for k in 0..<n { out[k] |= tmp[k] }
          }
        }
      }
    }
  }

  static func run(_ leaf: ColumnarLeaf, _ lo: Int, _ n: Int, _ out: UnsafeMutablePointer<UInt8>) {
    guard n > 0 else { return }
    let column = leaf.column
    let na = leaf.nullAnswer
    ColumnBuffers.lend(column.state, from: lo, count: n) { st in
      switch leaf.test {
      case .nothing:
        for k in 0..<n { out[k] = st[k] < Column.value ? na : 0 }
      case .ints(let a, let b):
        ColumnBuffers.lend(column.ints, from: lo, count: n) { v in
          for k in 0..<n {
            let valid = st[k] >> 1
            let hit: UInt8 = (v[k] >= a ? 1 : 0) & (v[k] <= b ? 1 : 0)
            out[k] = (valid & hit) | ((valid ^ 1) & na)
          }
        }
      case .doubles(let a, let b):
        ColumnBuffers.lend(column.doubles, from: lo, count: n) { v in
          for k in 0..<n {
            let valid = st[k] >> 1
            let hit: UInt8 = (v[k] >= a ? 1 : 0) & (v[k] <= b ? 1 : 0)
            out[k] = (valid & hit) | ((valid ^ 1) & na)
          }
        }
      case .bools(let a, let b):
        for k in 0..<n {
          let s = st[k]
          let valid = s >> 1
          let v = s & 1
          let hit: UInt8 = (v >= a ? 1 : 0) & (v <= b ? 1 : 0)
          out[k] = (valid & hit) | ((valid ^ 1) & na)
        }
      case .counts(let a, let b):
        var start = lo == 0 ? 0 : Int64(column.ends[lo - 1])
        ColumnBuffers.lend(column.ends, from: lo, count: n) { ends in
          for k in 0..<n {
            let end = Int64(ends[k])
            let c = end - start
            out[k] = st[k] < Column.value ? na : (c >= a && c <= b ? 1 : 0)
            start = end
          }
        }
      case .intSet(let set):
        ColumnBuffers.lend(column.ints, from: lo, count: n) { v in
          for k in 0..<n { out[k] = st[k] < Column.value ? na : (set.contains(v[k]) ? 1 : 0) }
        }
      case .doubleSet(let set):
        ColumnBuffers.lend(column.doubles, from: lo, count: n) { v in
          for k in 0..<n { out[k] = st[k] < Column.value ? na : (set.contains(v[k]) ? 1 : 0) }
        }
      case .stringSet(let set, let fold):
        stringSet(set, fold, column, lo, n, st, na, out)
      case .strings(let t):
        strings(t, column, lo, n, st, na, out)
      case .quantified(let q, let element):
        quantified(q, element, column, lo, n, st, na, out)
      }
    }
  }

  /// ANY/ALL/NONE: the element test over every element of the rows, then each row's number of
  /// matching elements as the difference of running counts at its two ends. No loop runs over
  /// one row's elements: its varying length cost about one mispredicted branch a row (callgrind
  /// `--branch-sim=yes` over `ANY tags == "wifi"`, see `sift-bench --suite columnar`).
  static func quantified(
    _ q: SiftQuantifier, _ element: ColumnarLeaf, _ column: Column, _ lo: Int, _ n: Int, _ st: UnsafePointer<UInt8>,
    _ na: UInt8, _ out: UnsafeMutablePointer<UInt8>
  ) {
    let allEnds = column.ends
    let eLo = lo == 0 ? 0 : Int(allEnds[lo - 1])
    let m = Int(allEnds[lo + n - 1]) - eLo
    ColumnBuffers.lend(allEnds, from: lo, count: n) { ends in
      ColumnBuffers.scratch(UInt8.self, m) { inner in
        ColumnBuffers.scratch(UInt32.self, m + 1) { counts in
          run(element, eLo, m, inner)
          // counts[e]: matching elements before element e (of this part).
          var c: UInt32 = 0
          counts[0] = 0
          for e in 0..<m {
            c &+= UInt32(inner[e])
            counts[e + 1] = c
          }
          // ANY: hits != 0; NONE: hits == 0; ALL: hits == elements.
          let everyOne: UInt32 = q == .all ? .max : 0
          let flip: UInt8 = q == .any ? 1 : 0
          var start = 0
          for k in 0..<n {
            let end = Int(ends[k]) - eLo
            let hits = counts[end] &- counts[start]
            let target = UInt32(truncatingIfNeeded: end &- start) & everyOne
            let answer = (hits == target ? 1 : 0) ^ flip
            out[k] = st[k] < Column.value ? na : answer
            start = end
          }
        }
      }
    }
  }

  static func strings(
    _ t: StringTest, _ column: Column, _ lo: Int, _ n: Int, _ st: UnsafePointer<UInt8>, _ na: UInt8,
    _ out: UnsafeMutablePointer<UInt8>
  ) {
    let folded = t.fold.isEmpty ? nil : column.folded(t.fold)
    let bytes = folded?.bytes ?? column.bytes
    let ends = folded?.ends ?? column.ends
    let m = t.needle.count
    let start = lo == 0 ? 0 : Int(ends[lo - 1])
    // `TextSearch` answers each row into `out` (a call for the whole part), then null and
    // missing rows take the null answer.
    ColumnBuffers.lend(bytes, from: 0, count: bytes.count) { base in
      ColumnBuffers.lend(ends, from: lo, count: n) { ends in
        switch t.operation {
        case .equal:
          ColumnBuffers.lend(t.needle, from: 0, count: m) { nd in
            TextSearch.equal(runs: base, from: start, ends: ends, count: n, to: nd, count: m, into: out)
          }
        case .search(let position):
          ColumnBuffers.lend(t.needle, from: 0, count: m) { nd in
            TextSearch.find(nd, count: m, inRuns: base, from: start, ends: ends, count: n, position, into: out)
          }
        case .range:
          // Each bound's order of every row: at least 0 against an inclusive lower bound (1
          // exclusive), at most 0 against an inclusive upper one (-1 exclusive).
          for k in 0..<n { out[k] = 1 }
          ColumnBuffers.scratch(Int8.self, n) { orders in
            func order(against b: [UInt8]) {
              ColumnBuffers.lend(b, from: 0, count: b.count) { bp in
                TextSearch.order(
                  runs: base, from: start, ends: ends, count: n, against: bp, count: b.count, into: orders)
              }
            }
            if let (b, inclusive) = t.lower {
              order(against: b)
              let least: Int8 = inclusive ? 0 : 1
              for k in 0..<n { out[k] &= orders[k] >= least ? 1 : 0 }
            }
            if let (b, inclusive) = t.upper {
              order(against: b)
              let most: Int8 = inclusive ? 0 : -1
              for k in 0..<n { out[k] &= orders[k] <= most ? 1 : 0 }
            }
          }
        }
      }
    }
    for k in 0..<n where st[k] < Column.value { out[k] = na }
  }

  /// Strings looked up in a set, their bytes folded as `fold` says.
  static func stringSet(
    _ set: ByteStringSet, _ fold: TextFoldCode, _ column: Column, _ lo: Int, _ n: Int,
    _ st: UnsafePointer<UInt8>, _ na: UInt8, _ out: UnsafeMutablePointer<UInt8>
  ) {
    let folded = fold.isEmpty ? nil : column.folded(fold)
    let bytes = folded?.bytes ?? column.bytes
    let ends = folded?.ends ?? column.ends
    var start = lo == 0 ? 0 : Int(ends[lo - 1])
    ColumnBuffers.lend(bytes, from: 0, count: bytes.count) { base in
      ColumnBuffers.lend(ends, from: lo, count: n) { ends in
        for k in 0..<n {
          let end = Int(ends[k])
          out[k] = st[k] < Column.value ? na : (set.contains(base + start, end - start) ? 1 : 0)
          start = end
        }
      }
    }
  }
}
