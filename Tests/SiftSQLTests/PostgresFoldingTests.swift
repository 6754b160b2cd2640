import Foundation
import SiftPostgres
import SiftSQL
import SiftSyntax
import Testing

/// PostgreSQL's `sift_fold` (from `PostgreSQLDialect.setupSQL`) against `TextFolding.fold`,
/// string by string. Where they differ, `[c]`/`[d]` comparisons differ between PostgreSQL and
/// memory (`KnownGap.postgresFolding`). The test also measures a candidate replacement
/// (NFD + combining-mark removal instead of `unaccent`, plus the full-folding specials) so
/// the SiftSQL owner can see what it would fix.
@Suite(
  "PostgreSQL folding",
  .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
struct PostgresFoldingTests {
  static let samples: [String] =
    RandomData.strings + RandomData.tagPool + RandomData.cities + RandomData.labels + [
      "Øre", "Łódź", "Æsir", "Œuvre", "İ", "ı", "ǈ", "ﬀ", "Ⅻ", "Ａ", "ǰ", "ŉ", "ẞ", "ſ",
    ]

  /// A folding closer to `TextFolding.fold`, for comparison only.
  static let candidate = """
    CREATE OR REPLACE FUNCTION sift_fold_candidate(s text, opts integer) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN s IS NULL THEN NULL ELSE normalize(
        CASE WHEN (opts & 1) = 1
          THEN replace(replace(translate(lower(t), 'ςſ', 'σs'), 'ß', 'ss'), 'ﬁ', 'fi') ELSE t END, NFC)
      END FROM (SELECT CASE WHEN (opts & 2) = 2
        THEN regexp_replace(normalize(s, NFD), '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]', '', 'g')
        ELSE s END AS t) AS x
    $$
    """

  @Test(arguments: [1, 2, 3])
  func siftFoldMatchesTextFolding(options: Int) throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.executeScript(Self.candidate)
    var swiftOptions: ComparisonOptions = []
    if options & 1 != 0 { swiftOptions.insert(.caseInsensitive) }
    if options & 2 != 0 { swiftOptions.insert(.diacriticInsensitive) }
    var dialectMismatches: [String] = []
    var candidateMismatches: [String] = []
    for s in Set(Self.samples).sorted() {
      let rows = try db.execute(
        SQLStatement(
          sql: "SELECT sift_fold($1, $2::int), sift_fold_candidate($1, $2::int)",
          bindings: [.text(s.precomposedStringWithCanonicalMapping), .integer(Int64(options))]))
      let expected = TextFolding.fold(s, swiftOptions).precomposedStringWithCanonicalMapping
      if case .text(let got)? = rows.first?[0], got != expected {
        dialectMismatches.append("\(s) → pg \(got) / swift \(expected)")
      }
      if case .text(let got)? = rows.first?[1], got != expected {
        candidateMismatches.append("\(s) → candidate \(got) / swift \(expected)")
      }
    }
    print("sift_fold opts=\(options): \(dialectMismatches.count) mismatches: \(dialectMismatches)")
    print("candidate opts=\(options): \(candidateMismatches.count) mismatches: \(candidateMismatches)")
    withKnownIssue("postgres-folding (see KnownGap)") {
      #expect(dialectMismatches.isEmpty)
    }
  }
}
