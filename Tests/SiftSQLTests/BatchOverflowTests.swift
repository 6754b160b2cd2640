import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// A batch update that computes an integer column (`visits + 1`) never stores the double an
/// overflowed integer sum becomes in SQLite: the whole update is refused with
/// `integer-overflow` and no row changes (review: `Int64.max + 1` was written as the REAL
/// 9.22337203685478e+18 into an INTEGER column).
@Suite("Batch updates of integer columns do not overflow into reals")
struct BatchOverflowTests {
  @Test func anOverflowedSumIsRefusedAndNothingChanges() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE venue (id INTEGER PRIMARY KEY, visits INTEGER NOT NULL);
      INSERT INTO venue VALUES (1, 5), (2, 9223372036854775807);
      """)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: try db.introspectSchema().schema)
    let plusOne = try SiftExpression(format: "visits + 1")
    let update = BatchUpdateRequest(
      entity: "venue", predicate: nil, assignments: [("visits", .expression(plusOne.root, source: plusOne.source))])
    expectSiftError(id: "integer-overflow", stage: .sql) { _ = try db.run(update, compiler: compiler) }
    let rows = try db.execute(SQLStatement(sql: "SELECT id, visits, typeof(visits) FROM venue ORDER BY id"))
    #expect(rows == [[.integer(1), .integer(5), .text("integer")], [.integer(2), .integer(.max), .text("integer")]])
    // Within range, the same update writes integers.
    let small = BatchUpdateRequest(
      entity: "venue", predicate: try SiftPredicate(format: "id == 1"),
      assignments: [("visits", .expression(plusOne.root, source: plusOne.source))])
    #expect(try db.run(small, compiler: compiler).count == 1)
    #expect(try db.execute(SQLStatement(sql: "SELECT visits FROM venue WHERE id = 1")) == [[.integer(6)]])
  }
}
