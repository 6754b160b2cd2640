import Foundation
import SiftPostgres
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

/// Hostile values and key names against a live PostgreSQL: they never change a statement's
/// shape, they match literally, and the table survives. Text with NUL is a clear error.
@Suite(
  "PostgreSQL injection",
  .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
struct PostgresInjectionTests {
  static let schemaJSON = #"""
    {"entities": {"Venue": {"table": "venue", "attributes": {
      "id": "integer", "name": "string", "a\"b": "string", "it's": "integer",
      "x; DROP TABLE venue; --": "string", "tags": "stringArray"}}}}
    """#

  static let hostile: [String] = [
    "'; DROP TABLE venue; --", "\"; DROP TABLE venue; --", "' OR '1'='1", "%", "_", "\\", "%_\\",
    "$1", "$$; DROP TABLE venue; $$", "\\x00", "a'b\"c", "*", "?", "E'\\047'", ");--",
  ]

  static let records: [SiftValue] =
    hostile.enumerated().map { i, s in
      [
        "name": .string(s), "a\"b": .string(s), "it's": .int(Int64(i)),
        "x; DROP TABLE venue; --": .string(s), "tags": [.string(s), "plain"],
      ]
    } + [["name": "plain", "a\"b": "plain", "it's": 99, "tags": []]]

  private func open() throws -> (PostgresDatabase, SQLCompiler) {
    let schema = try SQLSchema(json: Self.schemaJSON)
    let db = try PostgresTestServer.open()
    try db.load(Self.records, entity: "Venue", schema: schema, dialect: PostgreSQLDialect())
    return (db, SQLCompiler(dialect: PostgreSQLDialect(), schema: schema))
  }

  private func rowCount(_ db: PostgresDatabase) throws -> Int64? {
    try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM \"venue\"")).first?.first?.intValue
  }

  @Test(arguments: ["name", "a\"b", "x; DROP TABLE venue; --"])
  func hostileValuesMatchLiterallyAndKeepTheShape(key: String) throws {
    let (db, compiler) = try open()
    defer { db.close() }
    for op in ["==", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "==[c]", "CONTAINS[cd]"] {
      let benign = try compiler.compileMatchingIndices(
        try SiftPredicate(format: "%K \(op) %@", arguments: [.string(key), "plain"]), entity: "Venue")
      for (i, value) in Self.hostile.enumerated() {
        let p = try SiftPredicate(format: "%K \(op) %@", arguments: [.string(key), .string(value)])
        let st = try compiler.compileMatchingIndices(p, entity: "Venue")
        #expect(st.sql == benign.sql, "\(op) \(value) changed the statement")
        #expect(st.bindings.contains { $0.description.contains("plain") } == false)
        #expect(!st.sql.contains("DROP") || key.contains("DROP"))
        let hits = try db.matchingIndices(of: p, entity: "Venue", compiler: compiler)
        if op == "==" || op == "==[c]" {
          #expect(hits.contains(i), "\(key) \(op) \(value) missed its own record")
        }
        if op == "LIKE" && !value.contains("*") && !value.contains("?") && !value.contains("\\") {
          #expect(hits == [i], "\(key) LIKE \(value) is not literal: \(hits)")
        }
      }
    }
    #expect(try rowCount(db) == Int64(Self.records.count))
  }

  @Test func hostileKeyNamesAreQuotedIdentifiers() throws {
    let (db, compiler) = try open()
    defer { db.close() }
    let p = try SiftPredicate(format: "%K == 3 AND %K != nil", arguments: ["it's", "a\"b"])
    let st = try compiler.compileMatchingIndices(p, entity: "Venue")
    #expect(st.sql.contains(#""a""b""#))
    #expect(try db.matchingIndices(of: p, entity: "Venue", compiler: compiler) == [3])
    #expect(try rowCount(db) == Int64(Self.records.count))
  }

  @Test func unknownHostileKeyIsACompileErrorNotSQL() throws {
    let (db, compiler) = try open()
    defer { db.close() }
    let p = try SiftPredicate(format: "%K == 1", arguments: ["id\" = 1; DROP TABLE venue; --"])
    expectSiftError(id: "unknown-key-path", stage: .sql, at: 0) {
      _ = try compiler.compileMatchingIndices(p, entity: "Venue")
    }
    #expect(try rowCount(db) == Int64(Self.records.count))
  }

  /// PostgreSQL `text` cannot hold U+0000: binding one is a `PostgresError` of kind
  /// `.unsupportedValue` naming the parameter, the connection stays usable, the table survives.
  @Test func nulInAPredicateValueIsAClearError() throws {
    let (db, compiler) = try open()
    defer { db.close() }
    let p = try SiftPredicate(format: "name == %@", "a\u{0}b")
    do {
      _ = try db.matchingIndices(of: p, entity: "Venue", compiler: compiler)
      Issue.record("NUL was accepted")
    } catch {
      #expect(error.kind == .unsupportedValue)
      #expect(error.message.contains("NUL"))
    }
    #expect(try rowCount(db) == Int64(Self.records.count))
  }

  @Test func nulInLoadedDataIsAClearErrorAndRollsBack() throws {
    let schema = try SQLSchema(json: Self.schemaJSON)
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let bad: [SiftValue] = [["name": "ok"], ["name": "bad\u{0}value"]]
    expectSiftError(id: "postgres-unsupported-value", stage: .sql) {
      try db.load(bad, entity: "Venue", schema: schema, dialect: PostgreSQLDialect())
    }
    #expect(try rowCount(db) == 0)
  }
}
