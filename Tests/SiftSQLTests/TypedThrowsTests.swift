import Foundation
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftSQL

/// Every public function throws `SiftError` (issue #32): a `Decodable` type's own error comes
/// back as one (`decode-failed`) naming the row and the key, and the signatures are typed (the
/// closures below compile only with `throws(SiftError)`).
@Suite struct TypedThrowsTests {
  enum Mood: String, Decodable { case calm, busy }

  struct Shop: Decodable {
    var id: Int
    var mood: Mood
  }

  static func shop() throws -> (SQLiteDatabase, SQLCompiler) {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE shop (id INTEGER PRIMARY KEY, mood TEXT);
      INSERT INTO shop VALUES (1, 'calm'), (2, 'grumpy');
      """)
    return (db, SQLCompiler(dialect: SQLiteDialect(), schema: try db.introspectSchema().schema))
  }

  @Test func aTypesOwnErrorNamesTheRowAndKey() throws {
    let (db, compiler) = try Self.shop()
    let request = SiftFetchRequest(entity: "shop", sortDescriptors: [SiftSortDescriptor("id")])
    let fetch: () throws(SiftError) -> [Shop] = { () throws(SiftError) in
      try compiler.fetch(request, as: Shop.self, in: db)
    }
    let e = expectSiftError(id: "decode-failed", stage: .decode) { _ = try fetch() }
    #expect(e?.diagnostic.message.hasPrefix("row 1, key 'mood': ") == true, "\(e?.diagnostic.message ?? "")")
    #expect(e?.underlying is DecodingError)
    let rows = try compiler.fetch(request, as: SiftRow.self, in: db)
    let cell = expectSiftError(id: "decode-failed", stage: .decode) { _ = try rows[1].decode(Mood.self, "mood") }
    #expect(cell?.diagnostic.message.hasPrefix("row 1, key 'mood': ") == true)
    let whole = expectSiftError(id: "decode-failed", stage: .decode) { _ = try rows[1].decode(Shop.self) }
    #expect(whole?.diagnostic.message.hasPrefix("row 1, key 'mood': ") == true)
    #expect(try rows[0].decode(Shop.self).mood == .calm)
  }

  @Test func writesAndReadsThrowSiftError() throws {
    let (db, compiler) = try Self.shop()
    let update = BatchUpdateRequest(entity: "shop", assignments: [("mood", .value("calm"))])
    let run: () throws(SiftError) -> SiftBatchResult = { () throws(SiftError) in
      try db.run(update, compiler: compiler)
    }
    #expect(try run().count == 2)
    let count: () throws(SiftError) -> Int = { () throws(SiftError) in
      try compiler.fetchCount(SiftFetchRequest(entity: "shop"), in: db)
    }
    #expect(try count() == 2)
    let statement: () throws(SiftError) -> [[[SQLValue]]] = { () throws(SiftError) in
      try db.executeTransaction([SQLStatement(sql: "SELECT nope FROM shop")])
    }
    expectSiftError(id: "sqlite-error", stage: .sql) { _ = try statement() }
  }
}
