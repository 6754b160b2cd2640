import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// The one loader every command and the REPL read JSON record files with: SiftColumnar's
/// parser, straight into columns. It reads a file whose records are all objects (an array,
/// one object, or JSON Lines); for anything else — plain values, invalid JSON, `{"$date": …}`
/// — it gives nil and the caller reads the file the general way (`values`), which also words
/// every error (file, line and column).
///
/// ```swift
/// RecordFile.columns(Array(#"[{"a": 1}]"#.utf8), dates: .none)?.count   // 1
/// try RecordFile.values(Array("{\"a\": 1}\n7\n".utf8), path: "x.jsonl", dates: .none)   // [["a": 1], 7]
/// ```
enum RecordFile {
  /// The records of `bytes` as columns, or nil for the general way.
  static func columns(_ bytes: [UInt8], dates: SiftJSONDates) -> SiftColumnarRecords? {
    SiftColumnarRecords.direct(bytes, dates: dates)
  }

  /// The general way: the records of the file at `path` (its contents `bytes`) as values, told
  /// apart by `SiftJSON.records` (a top-level array, one value, or JSON Lines — by the contents,
  /// never the file's name), with `dates` applied. Errors read `path:line:column: message`, the
  /// line counted in the file, as every command and the REPL's `.load` report them.
  static func values(
    _ bytes: [UInt8], path: String, dates: SiftJSONDates
  ) throws(CommandInputs.Failure) -> [SiftValue] {
    let items: [SiftValue]
    do { items = try SiftJSON.records(bytes: bytes) } catch {
      switch error {
      case .document(let e): throw .init(description: "\(path):\(e.line):\(e.column): \(e.message)")
      case .line(let n, let e): throw .init(description: "\(path):\(n):\(e.column): \(e.message)")
      }
    }
    if dates.isNone { return items }
    do {
      guard case .array(let converted) = try dates.apply(to: .array(items)) else { return items }
      return converted
    } catch {
      throw .init(description: "\(path): \(error)")
    }
  }
}
