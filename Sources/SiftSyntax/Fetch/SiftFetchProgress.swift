/// How far an asynchronous fetch has got: records scanned of the total, and matches so far.
///
/// ```swift
/// let p = SiftFetchProgress(scanned: 4096, total: 10_000, matched: 12)
/// p.fractionCompleted   // 0.4096
/// ```
public struct SiftFetchProgress: Sendable, Hashable {
  /// Records (or, in SQL, rows) read so far.
  public var scanned: Int
  /// Records to read in all; nil when unknown (SQL).
  public var total: Int?
  /// Records the predicate matched so far (memory) or rows returned so far (SQL).
  public var matched: Int

  /// Creates a progress report.
  public init(scanned: Int, total: Int?, matched: Int) {
    self.scanned = scanned
    self.total = total
    self.matched = matched
  }

  /// `scanned / total` (1 when there is nothing to scan; nil when the total is unknown).
  public var fractionCompleted: Double? {
    guard let total else { return nil }
    return total == 0 ? 1 : Double(scanned) / Double(total)
  }
}

extension SiftError {
  /// The error a cancelled asynchronous fetch throws (id `cancelled`).
  ///
  /// ```swift
  /// catch let e as SiftError where e.diagnostic.id == "cancelled" { … }
  /// ```
  public static func cancelled(stage: SiftError.Stage) -> SiftError {
    SiftError(
      stage: stage, diagnostic: SiftDiagnostic(id: .cancelled, message: "the fetch was cancelled", range: .at(0)),
      source: "")
  }
}
