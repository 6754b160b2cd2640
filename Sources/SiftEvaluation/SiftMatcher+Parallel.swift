import Foundation
import SiftSyntax

extension SiftMatcher {
  /// Positions (in `records`, ascending) of the matching records among `records[range]`,
  /// evaluated on up to `workers` threads at once: the range is cut into parts of
  /// `RangeScan.part` records, the threads take the next part as they finish one (a thread
  /// the machine slows down takes fewer), and the parts' matches are joined in order.
  /// The answer — matches, their order, and under `.strict` the error of the first failing
  /// record (its note names its position in `records`) — is the one a one-thread scan gives.
  /// A range reaching past `records` is cut to fit.
  ///
  /// ```swift
  /// let m = try SiftPredicate(format: "distance < 1").compile()
  /// try m.matchingIndices(venues, in: 0..<venues.count, workers: 2)   // [2, 17, 40]
  /// try m.matchingIndices(venues, in: 4096..<8192)                     // [4101, …]
  /// ```
  public func matchingIndices<R: SiftRecord & Sendable>(
    _ records: [R], in range: Range<Int>, variables: [String: SiftValue] = [:], workers: Int = 1
  ) throws(SiftError) -> [Int] {
    let range = range.clamped(to: records.indices)
    let size = RangeScan.part
    let parts = (range.count + size - 1) / size
    let threads = max(1, min(workers, parts))
    guard threads > 1 else { return try RangeScan.scan(program, records, range, variables) }
    let results = RangeScan.Results(count: parts)
    let program = self.program
    let deadline = program.deadlineFromNow()  // one time limit for all the parts
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while let p = results.next() {
        let lower = range.lowerBound + p * size
        let part = lower..<min(range.upperBound, lower + size)
        results.set(
          p,
          Result { () throws(SiftError) in try RangeScan.scan(program, records, part, variables, deadline: deadline) })
      }
    }
    // The earliest part that failed holds the first failing record: its error is the answer.
    var out: [Int] = []
    for r in results.all {
      switch r {
      case .success(let found)?: out += found
      case .failure(let error)?: throw error
      case nil: break
      }
    }
    return out
  }
}

/// A one-thread scan of part of an array, and the parts' results of a parallel one.
enum RangeScan {
  /// Records in one part of a parallel scan: small enough that threads finish together
  /// when the machine gives one of them less time (equal halves made `parallel_speedup` ~1.0
  /// on a busy 2-core machine), large enough that taking a part costs nothing measurable.
  static let part = 2048

  static func scan<R: SiftRecord>(
    _ program: Program, _ records: [R], _ range: Range<Int>, _ variables: [String: SiftValue],
    deadline: WorkMeter? = nil
  ) throws(SiftError) -> [Int] {
    let run = try program.start(variables, deadline: deadline)
    var out: [Int] = []
    if let layout = RecordArray(records) {
      try run.each(layout, in: range) { i in out.append(i) }
      return out
    }
    for i in range where try run.test(records[i].siftRecordRoot, index: i) { out.append(i) }
    return out
  }

  /// One slot per part, each written by the thread that scanned it, read after every thread
  /// has finished (`concurrentPerform` returns once all iterations have), and the next part
  /// to scan. The lock makes the writes visible to the reader. Parts after one that failed
  /// are not started (the failure before them is the answer). Why threads at all:
  /// `sift-bench --suite scale` `parallel_speedup` (the REPL's `.count` on one thread over
  /// every core).
  final class Results: @unchecked Sendable {
    private var slots: [Result<[Int], SiftError>?]
    private var following = 0
    private var firstFailed = Int.max
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// The next part to scan; nil when none is left (or every one left follows a failure).
    func next() -> Int? {
      lock.lock()
      defer { lock.unlock() }
      guard following < slots.count, following < firstFailed else { return nil }
      following += 1
      return following - 1
    }

    func set(_ i: Int, _ r: Result<[Int], SiftError>) {
      lock.lock()
      defer { lock.unlock() }
      slots[i] = r
      if case .failure = r { firstFailed = min(firstFailed, i) }
    }

    var all: [Result<[Int], SiftError>?] {
      lock.lock()
      defer { lock.unlock() }
      return slots
    }
  }
}
