import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// The hand-written fixtures of `IntrospectionTests`, read by introspection and queried with
/// the schema as read (no schema file): read-only connections, keys of the matching rows.
@Suite("Querying introspected databases")
struct ExistingIntrospectedTests {
  static func date(_ iso: String) -> SiftValue { .date(SiftJSON.parseDate(iso) ?? Date(timeIntervalSince1970: 0)) }

  static func keys(
    _ db: any SQLDatabase, _ compiler: SQLCompiler, _ entity: String, _ key: String, _ format: String,
    _ args: [SiftValue] = []
  ) throws -> [String] {
    let w = try compiler.compileWhere(try SiftPredicate(format: format, arguments: args), entity: entity)
    let from = try compiler.fromClause(entity: entity)
    let st = SQLStatement(sql: "SELECT t0.\"\(key)\" FROM \(from) WHERE \(w.sql) ORDER BY 1", bindings: w.bindings)
    #expect(!st.sql.contains("__sift"), "\(format): \(st.sql)")
    return try db.execute(st).map { row in
      switch row.first {
      case .integer(let n)?: return String(n)
      case .text(let s)?: return s
      default: return "?"
      }
    }
  }

  @Test func sqliteNotes() throws {
    let (dir, path) = try IntrospectionTests.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let db = try SQLiteDatabase(readOnly: path)
    let c = SQLCompiler(dialect: SQLiteDialect(), schema: try db.introspectSchema().schema)
    func note(_ format: String, _ args: SiftValue...) throws -> [String] {
      try Self.keys(db, c, "note", "id", format, args)
    }
    // ISO-8601 text, INTEGER milliseconds and ISO date columns, each bound in its own form.
    #expect(try note("created_at > %@", Self.date("2024-01-05T12:00:00Z")) == ["2", "4"])
    #expect(try note("created_at == %@", Self.date("2024-01-06T09:00:00Z")) == ["2"])
    #expect(try note("updated_at >= %@", Self.date("2024-01-06T09:00:00Z")) == ["2", "4"])
    #expect(try note("due_on < %@", Self.date("2024-03-01T00:00:00Z")) == ["3"])
    #expect(try note("due_on <= %@", Self.date("2024-01-02T15:00:00Z")) == ["3"])
    #expect(try note("due_on == nil") == ["2", "4"])
    // A JSON array column; a NULL column is a nil array.
    #expect(try note("ANY labels == 'q1'") == ["1"])
    #expect(try note("labels.@count == 0") == ["3"])
    #expect(try note("labels == nil") == ["4"])
    #expect(try note("labels[FIRST] == 'daily'") == ["2"])
    // Relationships as read: to-one, to-many, many-to-many through the join table.
    #expect(try note("category.name == 'work'") == ["1"])
    #expect(try note("author.display_name BEGINSWITH 'A'") == ["1", "3"])
    #expect(try note("comment.@count > 1") == ["1"])
    #expect(try note("comment == nil") == [])
    #expect(try note("tag.@count == 2") == ["4"])
    #expect(try note("ANY tag.label == 'urgent'") == ["1", "2"])
    #expect(try Self.keys(db, c, "author", "id", "joined_at < %@", [Self.date("2023-12-24T17:00:00Z")]) == ["1"])
    #expect(try Self.keys(db, c, "author", "id", "joined_at <= %@", [Self.date("2023-12-24T17:00:00Z")]) == ["1", "2"])
    #expect(try Self.keys(db, c, "category", "id", "note.@count == 1") == ["1", "2", "3"])
    #expect(try Self.keys(db, c, "category", "id", "category.@count == 1 AND parent == nil") == ["1"])
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresShop() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.run(SQLFixtures.text("existing/shop.postgres.sql"))
    let name = try #require(db.schemaName)
    let c = SQLCompiler(dialect: PostgreSQLDialect(), schema: try db.introspectSchema(named: name).schema)
    func keys(_ entity: String, _ key: String, _ format: String, _ args: SiftValue...) throws -> [String] {
      try Self.keys(db, c, entity, key, format, args)
    }
    let ada = "7d3f0c2e-0000-4000-8000-000000000001"
    let bob = "7d3f0c2e-0000-4000-8000-000000000002"
    // An enum, a to-one through a uuid key, timestamptz, numeric.
    #expect(try keys("order", "id", "status == 'paid'") == ["1"])
    #expect(try keys("order", "id", "status IN {'open', 'shipped'}") == ["2"])
    #expect(try keys("order", "id", "customer.email == 'ada@example.com'") == ["1"])
    #expect(try keys("order", "id", "customer == nil") == ["2"])
    #expect(try keys("order", "id", "placed_at > %@", Self.date("2024-03-01T12:00:00Z")) == ["2"])
    #expect(try keys("order", "id", "total == 15.49") == ["1"])
    #expect(try keys("order", "id", "total < 3") == ["2"])
    // uuid keys, text[], date, boolean, a to-many through a uuid foreign key.
    #expect(try keys("customer", "email", "id == %@", .string(bob)) == ["bob@example.com"])
    #expect(try keys("customer", "email", "id BEGINSWITH '7d3f' AND id != %@", .string(ada)) == ["bob@example.com"])
    #expect(try keys("customer", "email", "tags.@count == 0") == ["bob@example.com"])
    #expect(try keys("customer", "email", "ANY tags == 'beta'") == ["ada@example.com"])
    #expect(try keys("customer", "email", "birthday < %@", Self.date("2000-01-01T00:00:00Z")) == ["ada@example.com"])
    #expect(try keys("customer", "email", "is_vip == YES") == ["ada@example.com"])
    #expect(try keys("customer", "email", "order.@count > 0") == ["ada@example.com"])
    // bob signed up at 08:00+01, 07:00 UTC.
    #expect(
      try keys("customer", "email", "signed_up_at < %@", Self.date("2024-02-01T06:30:00Z")) == ["ada@example.com"])
    #expect(
      try keys("customer", "email", "signed_up_at == %@", Self.date("2024-02-01T07:00:00Z")) == ["bob@example.com"])
    // integer[], double precision[], jsonb arrays, timestamp, bytea, many-to-many.
    #expect(try keys("product", "sku", "ANY ratings > 4") == ["HAM-1"])
    #expect(try keys("product", "sku", "ratings == nil") == ["SEED-7"])
    #expect(try keys("product", "sku", "dimensions.@sum > 40") == ["HAM-1"])
    #expect(try keys("product", "sku", "dimensions[LAST] == 3") == ["HAM-1"])
    #expect(try keys("product", "sku", "'garden' IN keywords") == ["SEED-7"])
    #expect(try keys("product", "sku", "keywords.@count == 2") == ["HAM-1"])
    #expect(try keys("product", "sku", "created_at < %@", Self.date("2024-01-01T00:00:00Z")) == ["HAM-1"])
    #expect(try keys("product", "sku", "image != nil") == ["SEED-7"])
    #expect(try keys("product", "sku", "price == 2.99") == ["SEED-7"])
    #expect(try keys("product", "sku", "ANY category.name == 'garden'") == ["SEED-7"])
  }
}
