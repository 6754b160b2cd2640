#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The body of every `LLVMFuzzerTestOneInput`: run one oracle, and on a violation print it
/// and abort, so libFuzzer saves the input as a crash reproducer.
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
///   FuzzHarness.run(.parse, data, size)
/// }
/// ```
public enum FuzzHarness {
  /// Inputs run once before fuzzing starts (`LLVMFuzzerInitialize`), so process-wide lazy
  /// setup — the SQLite database, Unicode folding tables, ICU — is not charged to the first
  /// input's `-timeout`.
  public static let warmUpInputs = [
    "name ==[cd] 'x' AND name CONTAINS[c] 'é' AND ANY tags LIKE[cd] 'q*' AND name MATCHES[c] 'a.*'",
    "place.city BEGINSWITH[d] 'm' OR code ENDSWITH[cd] 'SS' OR UPPERCASE(name) == 'A' OR n > 1",
  ]

  /// Runs `warmUpInputs` through `target`, ignoring the verdicts.
  public static func warmUp(_ target: FuzzTarget) -> CInt {
    for input in warmUpInputs { _ = target.check(Array(input.utf8)) }
    return 0
  }

  /// Checks one input; returns 0 (libFuzzer's "keep going") or does not return.
  public static func run(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let failure = target.check(bytes) {
      // stderr is unbuffered: the message must be out before abort().
      let text = Array("FUZZ ORACLE VIOLATION \(failure)\n".utf8)
      _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
      abort()
    }
    return 0
  }
}
