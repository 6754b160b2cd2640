import SiftSyntax

/// The fuzzing oracles, one per libFuzzer executable and per `Fuzz/Regressions/<name>/` folder.
///
/// ```swift
/// FuzzTarget.parse.check(Array("a == 1".utf8))   // nil: no violation
/// ```
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// Bytes never crash the parser; what parses prints and re-parses to the same tree.
  case parse
  /// Parsed predicates over `FuzzRecords.all` throw only documented evaluation errors.
  case evaluate
  /// Both dialects compile with placeholders == bindings; SQLite prepares every statement.
  case sql
  /// In-memory results equal SQLite results on `FuzzRecords.all`.
  case differential
  /// In-memory results equal SQL results on a table Sift did not create, read through its
  /// introspected native encodings (`NativeOracle`).
  case native
  /// JSON bytes read by the columnar loader and the general reader: the same records, or both
  /// refused (`LoadOracle`).
  case load
  /// Batches of edits written through live tables to a database with declared foreign keys:
  /// the model's verdict, a clean `foreign_key_check`, memory == SQL (`WriteOracle`).
  case write
  /// MATCHES patterns (counted repetition welcome) over long subjects under a time limit, in
  /// memory and SQLite: the answer, or `time-limit` within the bound — never late
  /// (`RegexTimeOracle`).
  case regex

  /// Inputs longer than this are cut (libFuzzer runs with the same `-max_len`).
  public static let maxInputBytes = 4096

  /// Runs the oracle on raw bytes (decoded as UTF-8 with replacement, but for `load` and
  /// `write`, which read the bytes themselves); nil means it held.
  public func check(_ bytes: [UInt8]) -> FuzzFailure? {
    let text = FuzzTarget.decode(bytes)
    switch self {
    case .parse: return ParseOracle.check(text)
    case .evaluate: return EvaluateOracle.check(text)
    case .sql: return SQLOracle.check(text)
    case .differential: return DifferentialOracle.check(text)
    case .native: return NativeOracle.check(text)
    case .load: return LoadOracle.check(bytes)
    case .write: return WriteOracle.check(bytes)
    case .regex: return RegexTimeOracle.check(text)
    }
  }

  /// The first `maxInputBytes` bytes as a string (invalid UTF-8 becomes U+FFFD).
  public static func decode(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.prefix(maxInputBytes), as: UTF8.self)
  }
}
