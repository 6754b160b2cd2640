import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// A hand-written schema whose primary-key attribute is named apart from its column
/// (`categoryID` stored in `id`, or `id` stored in `category_id`) has a single-column key: it
/// can be a relationship's target (issue #35, item 8b: "targets Category, which has no
/// single-column primary key") and answers through it.
@Suite("A primary key named apart from its column")
struct RenamedPrimaryKeyTests {
  static func database() throws -> SQLiteDatabase {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE category (category_id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE product (id INTEGER PRIMARY KEY, title TEXT, category INTEGER REFERENCES category(category_id));
      INSERT INTO category VALUES (1, 'tea'), (2, 'cake');
      INSERT INTO product VALUES (10, 'oolong', 1), (11, 'sencha', 1), (12, 'scone', 2);
      """)
    return db
  }

  static let json = #"""
    {"layout": "existing", "entities": {
      "Category": {"table": "category", "primaryKey": "id",
        "attributes": {"id": {"type": "integer", "column": "category_id"}, "name": "string"},
        "relationships": {"products": {"toMany": "Product", "inverseForeignKey": "category"}}},
      "Product": {"table": "product", "primaryKey": "productID",
        "attributes": {"productID": {"type": "integer", "column": "id"}, "title": "string"},
        "relationships": {"category": {"toOne": "Category", "foreignKey": "category"}}}}}
    """#

  @Test func aSchemaFileWithRenamedKeysWorks() throws {
    let schema = try SQLSchema(json: Self.json)
    let category = try #require(schema.entity("Category"))
    #expect(category.hasSingleColumnKey && category.primaryKeyColumns == ["category_id"])
    #expect(schema.entity("Product")?.primaryKeyColumns == ["id"])
    let db = try Self.database()
    let teas = try db.fetch(
      SiftFetchRequest(entity: "Product", predicate: try SiftPredicate(format: "category.name == 'tea'")),
      as: SiftRow.self, schema: schema)
    #expect(teas.map { $0["productID"] } == [.int(10), .int(11)])
    let busy = try db.fetch(
      SiftFetchRequest(entity: "Category", predicate: try SiftPredicate(format: "products.@count > 1")),
      as: SiftRow.self, schema: schema)
    #expect(busy.map { $0["id"] } == [.int(1)])
    // The schema written back reads the same.
    #expect(try SQLSchema(json: schema.jsonText) == schema)
  }

  @Test func theSameInCode() throws {
    let category = SQLEntity(
      name: "Category", table: "category", primaryKey: "categoryID",
      attributes: [
        SQLAttribute(name: "categoryID", column: "category_id", type: .integer),
        SQLAttribute(name: "name", type: .string),
      ])
    #expect(category.primaryKeyColumns == ["category_id"] && category.hasSingleColumnKey)
    let product = SQLEntity(
      name: "Product", table: "product",
      attributes: [SQLAttribute(name: "title", type: .string)],
      relationships: [SQLRelationship(name: "category", target: "Category", kind: .toOne(foreignKey: "category"))])
    let schema = try SQLSchema(entities: [category, product], layout: .existing)
    let rows = try Self.database().fetch(
      SiftFetchRequest(entity: "Product", predicate: try SiftPredicate(format: "category.categoryID == 2")),
      as: SiftRow.self, schema: schema)
    #expect(rows.map { $0["title"] } == [.string("scone")])
  }
}
