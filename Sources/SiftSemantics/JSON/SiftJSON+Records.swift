extension SiftJSON {
  /// Where a records file is broken: the whole text, or one line of a JSON Lines file (1-based,
  /// counted in the file; the error's own line and column are within that line).
  package enum RecordsError: Error, Sendable {
    case document(SyntaxError)
    case line(Int, SyntaxError)
  }

  /// The values a records file holds: a JSON array's elements, one value, or JSON Lines (one
  /// value a line, blank lines skipped). The one rule for telling them apart, for every loader:
  /// a text that is not one JSON value is JSON Lines only when its first non-blank line is a
  /// value on its own; otherwise the whole text's error stands, so an array broken on line 30
  /// is reported on line 30 rather than as a JSON Lines file broken on line 1.
  ///
  /// ```swift
  /// try SiftJSON.records(bytes: Array("{\"a\": 1}\n{\"a\": 2}".utf8)).count   // 2
  /// try SiftJSON.records(bytes: Array("[{\"a\": 1},\n{\"a\": 2,}]".utf8))    // .document(2:9: …)
  /// ```
  package static func records(bytes: [UInt8]) throws(RecordsError) -> [SiftValue] {
    let value: SiftValue
    do {
      value = try parse(bytes: bytes)
    } catch {
      let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      func blank(_ line: ArraySlice<UInt8>) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
      guard lines.count > 1, let first = lines.first(where: { !blank($0) }),
        (try? parse(bytes: Array(first))) != nil
      else { throw .document(error) }
      var items: [SiftValue] = []
      for (n, line) in lines.enumerated() where !blank(line) {
        do { items.append(try parse(bytes: Array(line))) } catch { throw .line(n + 1, error) }
      }
      return items
    }
    if case .array(let items) = value { return items }
    return [value]
  }
}
