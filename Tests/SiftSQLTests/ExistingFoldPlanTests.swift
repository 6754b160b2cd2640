import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// `[c]`/`[d]` comparisons served by an expression index on `sift_fold(column, options)`, the
/// The Existing databases article's index recipe (SiftSQL.docc/ExistingDatabases.md): `==[c]`,
/// `IN[c]` and `BEGINSWITH[c]` (a range on the folded column: `>=`/`<`
/// on SQLite, the byte-order `~>=~`/`~<~` on PostgreSQL, exact, so no row is rechecked with
/// another sift_fold call) on the 100,000-row `reading` table of `ExistingPlanTests`, with the
/// number of rows each must find.
@Suite("Query plans for [c]/[d] on existing databases")
struct ExistingFoldPlanTests {
  static let cases: [(String, [SiftValue], Int)] = [
    ("label ==[c] %@", ["l000123"], 1),
    ("label ==[cd] %@", ["L000123"], 1),
    ("label IN[c] %@", [.array(["l000001", "L000002", "l000003"])], 3),
    ("label BEGINSWITH[c] %@", ["l00012"], 10),
    ("label BEGINSWITH[c] %@", ["l0001"], 100),
  ]

  func count(_ db: any SQLDatabase, _ st: SQLStatement, _ postgres: Bool) throws -> Int64? {
    try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM (\(st.sql))\(postgres ? " s" : "")", bindings: st.bindings))
      .first?.first?.intValue
  }

  @Test func sqliteExpressionIndexServesFoldedComparisons() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(ExistingPlanTests.sqliteScript)
    try db.executeScript(
      """
      CREATE INDEX reading_label_fold_idx ON reading (sift_fold(label, 1));
      CREATE INDEX reading_label_fold3_idx ON reading (sift_fold(label, 3)); ANALYZE
      """)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: try ExistingPlanTests.schema(postgres: false))
    for (format, args, n) in Self.cases {
      let st = try ExistingPlanTests.statement(format, args, compiler)
      let plan = try db.explainQueryPlan(st)
      let index = format.contains("[cd]") ? "reading_label_fold3_idx" : "reading_label_fold_idx"
      #expect(
        plan.contains { $0.hasPrefix("SEARCH") && $0.contains("INDEX \(index) ") }, "\(format): \(plan) \(st.sql)")
      #expect(try count(db, st, false) == Int64(n), "\(format)")
    }
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresExpressionIndexServesFoldedComparisons() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.run(ExistingPlanTests.postgresScript)
    // text_pattern_ops: one index for equality and for LIKE 'prefix%' in any database collation.
    try db.run(
      """
      CREATE INDEX reading_label_fold_idx ON reading (sift.sift_fold(label, 1) text_pattern_ops);
      CREATE INDEX reading_label_fold3_idx ON reading (sift.sift_fold(label, 3) text_pattern_ops); ANALYZE reading;
      SET enable_seqscan = off
      """)
    let compiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: try ExistingPlanTests.schema(postgres: true))
    for (format, args, n) in Self.cases {
      let st = try ExistingPlanTests.statement(format, args, compiler)
      let plan = try db.execute(SQLStatement(sql: "EXPLAIN " + st.sql, bindings: st.bindings)).compactMap {
        row -> String? in
        if case .text(let s)? = row.first { return s }
        return nil
      }
      let index = format.contains("[cd]") ? "reading_label_fold3_idx" : "reading_label_fold_idx"
      #expect(!plan.contains { $0.contains("Seq Scan") }, "\(format): \(plan.joined(separator: " | ")) \(st.sql)")
      #expect(!plan.contains { $0.contains("Filter") }, "\(format) rechecks rows: \(plan.joined(separator: " | "))")
      #expect(
        plan.contains { $0.contains(index + " ") || $0.hasSuffix(index) },
        "\(format): \(plan.joined(separator: " | ")) \(st.sql)")
      #expect(try count(db, st, true) == Int64(n), "\(format)")
    }
  }
}
