import Foundation
import SiftSyntax

/// Every error of the data stage raised here (JSON records, Swift values as records), in one
/// place: one builder per condition, its id from the one list (`DiagnosticID`), its message
/// written once. Stage `.data`, no text to point into.
///
/// ```swift
/// throw DataDiagnostics.notAnArray(found: "a number")
/// ```
enum DataDiagnostics {
  /// The records parsed, but the date strategy refused one of their values.
  static func datesFailed(_ error: any Error) -> SiftError {
    SiftError(stage: .data, id: .invalidRecords, message: "\(error)")
  }

  static func invalidJSON(_ error: any Error) -> SiftError {
    SiftError(stage: .data, id: .invalidRecords, message: "invalid JSON: \(error)")
  }

  /// A JSON Lines document whose line `line` (1-based) is not a value.
  static func invalidJSON(line: Int, _ error: any Error) -> SiftError {
    SiftError(stage: .data, id: .invalidRecords, message: "invalid JSON on line \(line): \(error)")
  }

  static func recordNotAnObject(_ index: Int, kind: String) -> SiftError {
    SiftError(
      stage: .data, id: .invalidRecords,
      message: "record \(index) is \(kind), not an object (plain values are records too: evaluate the values "
        + "themselves, see values(bytes:))")
  }

  static func notAnArray(found kind: String) -> SiftError {
    SiftError(stage: .data, id: .invalidRecords, message: "expected an array of objects, found \(kind)")
  }

  /// A value that cannot be encoded as a record; `error` (the value's own, when it threw) is kept.
  static func notEncodable(_ message: String, _ error: any Error & Sendable) -> SiftError {
    SiftError(stage: .data, id: .notEncodable, message: message, underlying: error)
  }
}
