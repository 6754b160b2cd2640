import Foundation
import SiftPostgres
import SiftSyntax
import Testing

@testable import SiftSQL

/// PostgreSQL's `sift_fold` (from `PostgreSQLDialect.setupSQL`) against `TextFolding.fold` on
/// a live server: the sample strings one by one, and every assigned scalar, base + mark pairs
/// and random strings (`PostgresFoldingModelTests.samples`) as lines of long texts, which must
/// fold to the same text line for line. Text in the documented exceptions is left out.
@Suite(
  "PostgreSQL folding",
  .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
struct PostgresFoldingTests {
  static let samples: [String] =
    RandomData.strings + RandomData.tagPool + RandomData.cities + RandomData.labels + [
      "Øre", "Łódź", "Æsir", "Œuvre", "İ", "ı", "ǈ", "ﬀ", "Ⅻ", "Ａ", "ǰ", "ŉ", "ẞ", "ſ", "\u{301}x",
      "a\u{301}\u{5B4}", "ﬀ\u{308}\u{5B4}", "Ａ\u{308}\u{308}", "\u{622}", "\u{5D1}\u{5BC}",
    ]

  static func swiftOptions(_ options: Int) -> ComparisonOptions {
    var o: ComparisonOptions = []
    if options & 1 != 0 { o.insert(.caseInsensitive) }
    if options & 2 != 0 { o.insert(.diacriticInsensitive) }
    return o
  }

  @Test(arguments: [1, 2, 3])
  func siftFoldMatchesTextFolding(options: Int) throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let o = Self.swiftOptions(options)
    var mismatches: [String] = []
    for s in Set(Self.samples).sorted() {
      let rows = try db.execute(
        SQLStatement(sql: "SELECT sift.sift_fold($1, $2::int)", bindings: [.text(s), .integer(Int64(options))]))
      let expected = TextFolding.fold(s, o)
      guard case .text(let got)? = rows.first?[0], got.unicodeScalars.elementsEqual(expected.unicodeScalars) else {
        mismatches.append("\(s) → pg \(rows.first?[0].description ?? "nil") / swift \(expected)")
        continue
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test(arguments: [1, 2, 3])
  func everyScalarFoldsAsInMemory(options: Int) throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let o = Self.swiftOptions(options)
    let lines = PostgresFoldingModelTests.samples().filter { !PostgresFoldingModelTests.isDocumentedException($0, o) }
    var mismatches: [String] = []
    var start = 0
    while start < lines.count {
      let chunk = lines[start..<min(start + 4000, lines.count)]
      start += chunk.count
      let text = chunk.joined(separator: "\n")
      let rows = try db.execute(
        SQLStatement(sql: "SELECT sift.sift_fold($1, $2::int)", bindings: [.text(text), .integer(Int64(options))]))
      let expected = TextFolding.fold(text, o)
      guard case .text(let got)? = rows.first?[0] else {
        mismatches.append("no result")
        continue
      }
      if got.unicodeScalars.elementsEqual(expected.unicodeScalars) { continue }
      let g = got.split(separator: "\n", omittingEmptySubsequences: false)
      let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
      for (i, line) in chunk.enumerated()
      where i >= g.count || i >= e.count || !g[i].unicodeScalars.elementsEqual(e[i].unicodeScalars) {
        let hex = { (x: Substring?) in
          (x ?? "").unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
        }
        mismatches.append(
          hex(Substring(line)) + " → pg " + hex(i < g.count ? g[i] : nil) + " / swift " + hex(i < e.count ? e[i] : nil))
      }
    }
    print("sift_fold opts=\(options): \(lines.count) lines, \(mismatches.count) mismatches \(mismatches.prefix(20))")
    #expect(mismatches.isEmpty)
  }

  @Test func setupIsIdempotent() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.prepareSiftFunctions()
    try db.prepareSiftFunctions()
    let rows = try db.execute(
      SQLStatement(sql: "SELECT sift.sift_fold(NULL, 1), sift.sift_fold('ABC', 0), sift.sift_fold('Straße', 3)"))
    #expect(rows.first == [.null, .text("ABC"), .text("strasse")])
  }
}
