import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// The one loader every command and the REPL read JSON record files with: SiftColumnar's
/// parser, straight into columns. It reads a file whose records are all objects (an array,
/// one object, or JSON Lines); for anything else — plain values, invalid JSON, `{"$date": …}`
/// — it gives nil and the caller reads the file the general way, which also words every error
/// (file, line and column) as before.
///
/// ```swift
/// RecordFile.columns(Array(#"[{"a": 1}]"#.utf8), dates: .none)?.count   // 1
/// ```
enum RecordFile {
  /// The records of `bytes` as columns, or nil for the general way.
  static func columns(_ bytes: [UInt8], dates: SiftJSONDates) -> SiftColumnarRecords? {
    SiftColumnarRecords.direct(bytes, dates: dates)
  }
}
