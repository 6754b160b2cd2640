import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// `SQLDatabase.load` into SQLite inserts batches on a second thread while the next batch is
/// made: many batches must arrive whole and in order, and a failing INSERT in any batch must
/// stop the load, roll it back and leave the connection usable.
@Suite("SQLite bulk load")
struct BulkLoadTests {
  static let schema = try? SQLSchema(
    json: #"""
      {"entities": {"Item": {"attributes": {"id": "integer", "name": "string", "tags": "stringArray"}}}}
      """#)

  static func records(_ n: Int) -> [SiftValue] {
    (0..<n).map { i in
      ["id": .int(Int64(i)), "name": .string("item \(i)"), "tags": .array((0..<(i % 3)).map { .string("t\($0)") })]
    }
  }

  @Test("many batches arrive whole and in order; memory and SQLite agree")
  func manyBatches() throws {
    let schema = try #require(Self.schema)
    let records = Self.records(30_000)
    let db = try SQLiteDatabase()
    try db.load(records, entity: "Item", schema: schema, dialect: SQLiteDialect())
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    for format in [
      "id >= 0", "name ENDSWITH '7'", "ANY tags == 't1'", "tags.@count == 0", "id > 12000 AND ANY tags == 't0'",
    ] {
      let p = try SiftPredicate(format: format)
      #expect(
        try db.matchingIndices(of: p, entity: "Item", compiler: compiler) == p.compile().matchingIndices(records),
        "\(format)")
    }
    let rows = try db.execute(SQLStatement(sql: #"SELECT COUNT(*), SUM("id") FROM "item""#, bindings: []))
    #expect(rows.first == [.integer(30_000), .integer(Int64(30_000 * 29_999 / 2))])
  }

  /// A duplicate key far into the records fails in a later batch, on the inserting thread.
  @Test("a failing INSERT in a later batch stops the load and rolls it back", arguments: [5, 25_000])
  func failureRollsBack(at: Int) throws {
    let schema = try #require(Self.schema)
    var records = Self.records(30_000)
    records[at] = ["id": 3, "name": "again"]
    let db = try SQLiteDatabase()
    #expect {
      try db.load(records, entity: "Item", schema: schema, dialect: SQLiteDialect())
    } throws: { error in
      (error as? SiftError)?.diagnostic.id == "sqlite-error" && "\(error)".contains("UNIQUE")
    }
    let rows = try db.execute(SQLStatement(sql: #"SELECT COUNT(*) FROM "item""#, bindings: []))
    #expect(rows.first == [.integer(0)])
    // The connection is the caller's again: a new load works.
    try db.load(Self.records(10), entity: "Item", schema: schema, dialect: SQLiteDialect())
    #expect(try db.execute(SQLStatement(sql: #"SELECT COUNT(*) FROM "item""#, bindings: [])).first == [.integer(10)])
  }
}
