import Foundation
import SiftEvaluation
import SiftSyntax

extension SiftMatcher {
  /// Positions (ascending) of the records of `records` that match: the same answer, errors
  /// included, as `matchingIndices` over the same JSON loaded with `JSONRecords`.
  ///
  /// Comparisons of a key path (nested too) with constants — `==`, `!=`, `<`…`>=`, BETWEEN,
  /// IN a list, BEGINSWITH/ENDSWITH/CONTAINS with `[c]`/`[d]`, ANY/ALL/NONE over arrays,
  /// `@count` — joined by AND/OR/NOT run as kernels over whole columns, on up to `workers`
  /// threads. Any other predicate (functions, arithmetic, SUBQUERY, LIKE, MATCHES, a key of
  /// mixed kinds, a comparison that could fail on these values…) runs on the row evaluator
  /// over the same records; `columnarFallback(for:)` says which.
  ///
  /// ```swift
  /// let m = try SiftPredicate(format: "ANY tags == 'wifi' AND rating >= 4").compile()
  /// let hits = try m.matchingIndices(venues, workers: 2)   // [3, 17, …]
  /// ```
  public func matchingIndices(
    _ records: SiftColumnarRecords, variables: [String: SiftValue] = [:], workers: Int = 1
  ) throws(SiftError) -> [Int] {
    guard let plan = columnarPlan(records, variables).plan else {
      return try matchingIndices(ColumnarRows(records: records), variables: variables)
    }
    return try ColumnarScan.indices(plan, range: 0..<records.count, workers: workers, deadline: scanDeadline())
  }

  /// Positions (ascending, into the whole set) of the records in `range` that match, scanned
  /// as column kernels; nil when the predicate needs the row evaluator (the caller scans its
  /// rows then). The REPL scans a large set a round of ranges at a time, checking Ctrl-C
  /// between rounds.
  ///
  /// ```swift
  /// m.kernelIndices(venues, in: 0..<16_384, workers: 2)   // [3, 17, …]
  /// ```
  package func kernelIndices(
    _ records: SiftColumnarRecords, in range: Range<Int>, variables: [String: SiftValue] = [:], workers: Int = 1
  ) throws(SiftError) -> [Int]? {
    guard let plan = columnarPlan(records, variables).plan else { return nil }
    return try ColumnarScan.indices(
      plan, range: range.clamped(to: 0..<records.count), workers: workers, deadline: scanDeadline())
  }

  /// How many records of `records` match (`matchingIndices(_:).count`, without the list).
  ///
  /// ```swift
  /// try m.count(venues, workers: 2)   // 1234
  /// ```
  public func count(
    _ records: SiftColumnarRecords, variables: [String: SiftValue] = [:], workers: Int = 1
  ) throws(SiftError) -> Int {
    guard let plan = columnarPlan(records, variables).plan else {
      return try matchingIndices(ColumnarRows(records: records), variables: variables).count
    }
    return try ColumnarScan.count(plan, count: records.count, workers: workers, deadline: scanDeadline())
  }

  /// Why this predicate runs on the row evaluator over `records` (the first comparison with
  /// no kernel); nil when it runs as column kernels.
  ///
  /// ```swift
  /// try SiftPredicate(format: "name LIKE 'b*'").compile().columnarFallback(for: venues)
  /// // "name LIKE \"b*\""
  /// ```
  public func columnarFallback(for records: SiftColumnarRecords, variables: [String: SiftValue] = [:]) -> String? {
    let r = columnarPlan(records, variables)
    return r.plan == nil ? (r.reason ?? "the predicate") : nil
  }

  /// The top-level keys the predicate reads when it runs as column kernels; nil when it reads
  /// records some other way (`name == SELF`, a comparison of two keys). Loading only these
  /// keys gives the same count whenever the predicate then runs as kernels over them
  /// (`columnarFallback` nil), which `sift eval --count` checks for each piece it loads.
  ///
  /// ```swift
  /// try SiftPredicate(format: "location.city == 'Oslo' OR rating > 4").compile().columnarKeys()
  /// // ["location", "rating"]
  /// ```
  package func columnarKeys(variables: [String: SiftValue] = [:]) -> Set<String>? {
    // Planning reads the same key paths whatever the data; over no records every comparison
    // is visited (each reads null), so the keys it notes are all the kernels will read.
    let r = columnarPlan(SiftColumnarRecords(root: Column(), count: 0), variables)
    return r.plan == nil ? nil : r.keysRead
  }

  func columnarPlan(_ records: SiftColumnarRecords, _ variables: [String: SiftValue]) -> (
    plan: ColumnarPlan?, reason: String?, keysRead: Set<String>
  ) {
    var predicate = self.predicate
    if !self.variables.isEmpty {
      guard self.variables.allSatisfy({ variables[$0] != nil }) else { return (nil, "a variable without a value", []) }
      predicate = predicate.substituting(variables)
    }
    // The evaluator's plan, lowered: constants folded, key paths split, operators prepared.
    guard let evaluation = predicate.evaluationPlan() else { return (nil, "the predicate", []) }
    var planner = ColumnarPlanner(root: records.root)
    let plan = planner.plan(evaluation)
    return (plan, planner.reason, planner.keysRead)
  }
}

/// The records of a columnar data set as the row evaluator's records (built one at a time,
/// as it reads them): the fallback for predicates with no kernel.
struct ColumnarRows: RandomAccessCollection {
  let records: SiftColumnarRecords
  var startIndex: Int { 0 }
  var endIndex: Int { records.count }
  subscript(i: Int) -> SiftObject { records.object(at: i) }
}

/// Kernel scans in parts, on one thread or several.
enum ColumnarScan {
  /// Rows per part: large enough that a part's per-call work is noise, small enough that two
  /// threads on a busy machine finish together and a part's masks stay in cache.
  static let part = 16_384

  static func indices(
    _ plan: ColumnarPlan, range: Range<Int>, workers: Int, deadline: ScanDeadline? = nil
  ) throws(SiftError) -> [Int] {
    try each(plan, range: range, workers: workers, deadline: deadline) { lo, mask, n in
      var found: [Int] = []
      for k in 0..<n where mask[k] != 0 { found.append(lo + k) }
      return found
    }.flatMap { $0 }
  }

  static func count(_ plan: ColumnarPlan, count: Int, workers: Int, deadline: ScanDeadline? = nil) throws(SiftError)
    -> Int
  {
    try each(plan, range: 0..<count, workers: workers, deadline: deadline) { _, mask, n in
      var c = 0
      for k in 0..<n { c &+= Int(mask[k]) }
      return [c]
    }.reduce(0) { $0 + $1[0] }
  }

  /// Runs `plan` over every part (threads take the next part as they finish one) and hands
  /// each part's first row, mask and size to `body`; the results by part. Past `deadline`
  /// (the matcher's `EvaluationOptions.timeLimit`, read between parts) no part is started and
  /// the scan throws the evaluator's `time-limit` error.
  static func each(
    _ plan: ColumnarPlan, range: Range<Int>, workers: Int, deadline: ScanDeadline?,
    _ body: @escaping @Sendable (Int, UnsafeMutablePointer<UInt8>, Int) -> [Int]
  ) throws(SiftError) -> [[Int]] {
    let base = range.lowerBound
    let count = range.count
    let parts = (count + part - 1) / part
    let queue = PartQueue(parts: parts)
    let threads = max(1, min(workers, parts))
    let work = { @Sendable (caller: Bool) in
      ColumnBuffers.scratch(UInt8.self, part) { mask in
        var spent: UInt64 = 0
        var scanned: UInt64 = 0
        func scan(_ p: Int) {
          let lo = base + p * part
          let n = min(part, range.upperBound - lo)
          ColumnarKernels.run(plan, lo, n, mask)
          queue.set(p, body(lo, mask, n))
          if let deadline, deadline.passed { queue.stop() }
        }
        while let p = queue.next(steal: false) {
          let t0 = caller ? DispatchTime.now().uptimeNanoseconds : 0
          scan(p)
          if caller {
            spent &+= DispatchTime.now().uptimeNanoseconds &- t0
            scanned += 1
          }
        }
        guard caller else { return }
        // No part is left untaken. The caller waits for a helper finishing its last part, up to
        // two of its own part times (rescanning that part at once made the caller finish up to a
        // part later, and the helper's leftover part ran into the next scan); then it scans the
        // parts still open itself, so it never waits long for a thread the machine has not
        // scheduled.
        queue.waitForAll(nanoseconds: scanned > 0 ? 2 * spent / scanned : 100_000)
        while let p = queue.next(steal: true) { scan(p) }
      }
    }
    // Helpers take parts when they get to run; the caller scans too, and then the parts helpers
    // have taken but not finished (the first answer for a part is kept; both are the same).
    // `concurrentPerform` waited for every thread: two threads were 4x slower than one on the
    // loaded 2-core machine (`parallel_speedup` 0.27, `sift-bench --suite columnar`).
    for _ in 1..<threads { DispatchQueue.global().async { work(false) } }
    work(true)
    if let deadline, queue.stopped { throw deadline.error }
    return queue.results
  }

  /// The next part to scan and each part's result (the first one kept); the lock makes the
  /// writes visible to the caller.
  final class PartQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var following = 0
    private var slots: [[Int]?]
    /// Parts with a result.
    private var finished = 0
    /// The first part that may not be done yet (for stealing).
    private var firstOpen = 0
    /// Set when the scan ran out of time: no part is handed out after it.
    private var isStopped = false

    init(parts: Int) { slots = Array(repeating: nil, count: parts) }

    /// An untaken part; with `steal`, when none is left, a taken one not yet done.
    func next(steal: Bool) -> Int? {
      lock.lock()
      defer { lock.unlock() }
      if isStopped { return nil }
      if following < slots.count {
        following += 1
        return following - 1
      }
      guard steal else { return nil }
      while firstOpen < slots.count, slots[firstOpen] != nil { firstOpen += 1 }
      return firstOpen < slots.count ? firstOpen : nil
    }

    func stop() {
      lock.lock()
      isStopped = true
      lock.unlock()
    }

    /// Returns when every part has a result, the scan is stopped, or `nanoseconds` have passed,
    /// yielding the core meanwhile: a helper's last part ends within microseconds, sooner than
    /// a thread parked on a condition is woken (20-25 µs measured on the 2-core machine).
    func waitForAll(nanoseconds: UInt64) {
      let limit = DispatchTime.now().uptimeNanoseconds &+ nanoseconds
      while !allDone, DispatchTime.now().uptimeNanoseconds < limit { sched_yield() }
    }

    private var allDone: Bool {
      lock.lock()
      defer { lock.unlock() }
      return finished == slots.count || isStopped
    }

    var stopped: Bool {
      lock.lock()
      defer { lock.unlock() }
      return isStopped
    }

    func set(_ p: Int, _ r: [Int]) {
      lock.lock()
      defer { lock.unlock() }
      guard slots[p] == nil else { return }
      slots[p] = r
      finished += 1
    }

    var results: [[Int]] {
      lock.lock()
      defer { lock.unlock() }
      return slots.map { $0 ?? [] }
    }
  }
}

extension ColumnarPlan: @unchecked Sendable {}
