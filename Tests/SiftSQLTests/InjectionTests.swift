import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// Hostile values and key names never change a statement's shape: values are always bound,
/// identifiers always quoted with embedded quotes doubled, unknown keys rejected.
@Suite("SQL injection")
struct InjectionTests {
  static let hostile: [String] = [
    "'; DROP TABLE venue; --", "\"; DROP TABLE venue; --", "' OR '1'='1", "a'b\"c", "\u{0}nul", "100%", "_",
    "\\", "%_\\%", "?", "$1", "\u{1}", "Robert'); DELETE FROM venue;--", "*", "?ar",
  ]

  static let shapes: [String] = [
    "name == %@", "name != %@", "name BEGINSWITH %@", "name ENDSWITH[c] %@", "name CONTAINS %@", "name LIKE %@",
    "name IN %@", "ANY tags == %@", "name ==[cd] %@",
  ]

  /// The statement for a hostile value has the same text as for a harmless one.
  @Test(arguments: shapes)
  func valuesNeverChangeTheText(_ shape: String) throws {
    for compiler in [SQLFixtures.sqlite, SQLFixtures.postgres] {
      func compile(_ v: String) throws -> SQLStatement {
        let arg: SiftValue = shape.contains(" IN ") ? [.string(v)] : .string(v)
        return try compiler.compileWhere(try SiftPredicate(format: shape, arg), entity: "Venue")
      }
      let reference = try compile("plain")
      for v in Self.hostile {
        let st = try compile(v)
        if shape != "name BEGINSWITH %@" || compiler.dialect.name != "sqlite"
          || !v.unicodeScalars.allSatisfy({ $0.value == 0x10FFFF })
        {
          #expect(st.sql == reference.sql, "\(shape) with \(v.debugDescription)")
        }
        #expect(placeholdersMatch(st, compiler.dialect))
        #expect(!st.sql.contains("DROP") && !st.sql.contains("DELETE"))
      }
    }
  }

  /// Running hostile values against SQLite finds nothing and leaves the table intact.
  @Test(arguments: hostile)
  func hostileValuesAreInert(_ v: String) throws {
    try SQLFixtures.database.with { db in
      for shape in Self.shapes where !shape.contains(" IN ") {
        let p = try SiftPredicate(format: shape, .string(v))
        let hits = try db.matchingIndices(of: p, entity: "Venue", compiler: SQLFixtures.sqlite)
        let memory = try p.compile().matchingIndices(SQLFixtures.records)
        #expect(hits == memory, "\(shape) with \(v.debugDescription)")
      }
      let count = try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM \"venue\""))
      #expect(count.first?.first == .integer(1000))
    }
  }

  /// `%`, `_` and `\` in a CONTAINS/BEGINSWITH needle are literal on PostgreSQL's LIKE path.
  @Test func likeWildcardsAreEscapedForPostgres() throws {
    let st = try SQLFixtures.postgres.compileWhere(
      try SiftPredicate(format: "name CONTAINS %@", "50%_\\"), entity: "Venue")
    #expect(st.sql == #"t0."name" LIKE $1 ESCAPE '\'"#)
    #expect(st.bindings == [.text(#"%50\%\_\\%"#)])
    let like = try SQLFixtures.postgres.compileWhere(
      try SiftPredicate(format: "name LIKE %@", "a%*_?\\*"), entity: "Venue")
    #expect(like.bindings == [.text(#"a\%%\__*"#)])
  }

  /// `%K` naming a key that is not in the schema is an error, never an identifier in SQL.
  @Test(arguments: ["name\"; DROP TABLE venue; --", "a\"b", "nmae", "location.nope"])
  func unknownKeysAreRejected(_ key: String) throws {
    let p = try SiftPredicate(format: "%K == 1", .string(key))
    expectSiftError(id: "unknown-key-path", stage: .sql, at: 0) {
      try SQLFixtures.sqlite.compileWhere(p, entity: "Venue")
    }
  }

  /// A key named `a"b` in the schema is quoted with the quote doubled, and works end to end.
  @Test func quotedKeyInSchema() throws {
    let weird = SQLEntity(
      name: "W\"eird", table: "t\"able; DROP TABLE x; --",
      attributes: [SQLAttribute(name: "a\"b", type: .string), SQLAttribute(name: "tag's", type: .stringArray)])
    let schema = try SQLSchema(entities: [weird])
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    let p = try SiftPredicate(format: "%K == %@ AND ANY %K == %@", "a\"b", "x\"y", "tag's", "'")
    let st = try compiler.compileWhere(p, entity: "W\"eird")
    #expect(st.sql.contains(#"t0."a""b" = ?"#))
    #expect(st.sql.contains(#""t""able; DROP TABLE x; --__tag's""#))
    let db = try SQLiteDatabase()
    let records: [SiftValue] = [["a\"b": "x\"y", "tag's": ["'"]], ["a\"b": "x\"y", "tag's": []]]
    try db.load(records, entity: "W\"eird", schema: schema, dialect: SQLiteDialect())
    #expect(try db.matchingIndices(of: p, entity: "W\"eird", compiler: compiler) == [0])
  }

  /// The DQS misfeature is off: a double-quoted unknown identifier is an error, not a string.
  @Test func doubleQuotedStringsAreIdentifiers() throws {
    let db = try SQLiteDatabase()
    expectSiftError(id: "sqlite-error", stage: .sql, at: 0) {
      try db.execute(SQLStatement(sql: "SELECT \"no_such_column\""))
    }
  }

  /// Mismatched bindings are refused before running.
  @Test func bindingCountIsChecked() throws {
    let db = try SQLiteDatabase()
    expectSiftError(id: "sqlite-error", stage: .sql, at: 0) {
      try db.execute(SQLStatement(sql: "SELECT ?", bindings: []))
    }
  }
}
