import SiftSyntax

/// Renders rows as an aligned, psql-style table: a header, a rule, one line per row;
/// numbers right-aligned, other values left-aligned, long cells cut with "…".
///
/// ```swift
/// let text = TableRenderer(style: REPLStyle(colors: false)).render(
///   columns: ["id", "name"], rows: [[0, "Red bar"], [12, "Tea House"]])
/// //  id | name
/// // ----+-----------
/// //   0 | Red bar
/// //  12 | Tea House
/// ```
struct TableRenderer: Sendable {
  /// Colors for the header and NULL cells.
  var style: REPLStyle
  /// The widest a column may get, in terminal cells.
  var maxCellWidth: Int

  /// Creates a renderer.
  init(style: REPLStyle, maxCellWidth: Int = 32) {
    self.style = style
    self.maxCellWidth = max(4, maxCellWidth)
  }

  /// The table text, each line ending in a newline.
  func render(columns: [String], rows: [[SiftValue]]) -> String {
    let columns = columns.map { CellFormatter.singleLine($0) }
    let cells = rows.map { row in
      columns.indices.map { i -> (String, Bool, Bool) in
        let v = i < row.count ? row[i] : .null
        return (
          TextWidth.truncate(CellFormatter.text(v), to: maxCellWidth),
          CellFormatter.isNumeric(v), v.isNull
        )
      }
    }
    var widths = columns.map { TextWidth.of(TextWidth.truncate($0, to: maxCellWidth)) }
    for row in cells {
      for (i, cell) in row.enumerated() { widths[i] = max(widths[i], TextWidth.of(cell.0)) }
    }
    var out = ""
    let header = columns.enumerated().map { i, name in
      style.bold(TextWidth.pad(TextWidth.truncate(name, to: maxCellWidth), to: widths[i]))
    }
    out += trimmed(" " + header.joined(separator: " | ")) + "\n"
    out += widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "+") + "\n"
    for row in cells {
      let line = row.enumerated().map { i, cell -> String in
        let padded = TextWidth.pad(cell.0, to: widths[i], alignRight: cell.1)
        return cell.2 ? style.dim(padded) : padded
      }
      out += trimmed(" " + line.joined(separator: " | ")) + "\n"
    }
    return out
  }

  /// Renders key/value pairs as a two-column list (for `.status`, `.vars`).
  func renderPairs(_ pairs: [(String, String)]) -> String {
    let width = pairs.map { TextWidth.of($0.0) }.max() ?? 0
    return pairs.map { "  " + TextWidth.pad($0.0, to: width) + "  " + $0.1 + "\n" }.joined()
  }

  private func trimmed(_ s: String) -> String {
    var s = s
    while s.hasSuffix(" ") { s.removeLast() }
    return s
  }
}
