import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// The conformance cases on databases Sift did not make: the sample venues kept by hand
/// (Tests/Fixtures/existing/venues.*.sql: snake_case columns, JSON text or native arrays, a
/// foreign key to `location`, `menu_item` rows pointing back), the schema read by
/// introspection from a read-only connection and completed by a schema file that names
/// members as the cases do. Every case memory answers: memory == expected == SQLite ==
/// PostgreSQL.
@Suite("Differential: conformance cases on hand-made databases")
struct ExistingConformanceTests {
  /// The camelCase names the cases use, over the snake_case columns, and `menu` for the
  /// to-many introspection names `menu_item` (a rename: exclude, then add).
  static let names = """
    {"entities": {"venue": {
      "exclude": ["price_category", "special_count", "tip_count", "created_at", "menu_item"],
      "attributes": {
        "priceCategory": {"type": "string", "column": "price_category"},
        "specialCount": {"type": "integer", "column": "special_count"},
        "tipCount": {"type": "integer", "column": "tip_count"},
        "createdAt": {"type": "integer", "column": "created_at"}},
      "relationships": {"menu": {"toMany": "menu_item", "inverseForeignKey": "venue_id"}}}}}
    """

  static func field(_ r: SiftValue, _ key: String) -> SiftValue {
    if case .dictionary(let d) = r { return d[key] ?? .null }
    return .null
  }

  static func sqlValue(_ v: SiftValue, postgres: Bool) -> SQLValue {
    switch v {
    case .int(let i): return .integer(i)
    case .double(let d): return .double(d)
    case .string(let s): return .text(s)
    case .bool(let b): return postgres ? .bool(b) : .integer(b ? 1 : 0)
    case .array: return .text(SiftJSON.serialize(v))
    default: return .null
    }
  }

  /// Inserts the sample: one location per venue (same id), its menu items.
  static func load(_ records: [SiftValue], into db: any SQLDatabase, postgres: Bool) throws {
    func p(_ n: Int) -> String { postgres ? "$\(n)" : "?" }
    let array = { (n: Int, type: String) in
      postgres ? "ARRAY(SELECT CAST(jsonb_array_elements_text(CAST($\(n) AS jsonb)) AS \(type)))" : "?"
    }
    let location = "INSERT INTO location (id, city, distance, zip) VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)))"
    let venue =
      "INSERT INTO venue (id, name, price_category, special_count, distance, tip_count, favorite, created_at, rating, "
      + "phone, code, tags, scores, location_id) VALUES (" + (1...11).map(p).joined(separator: ", ")
      + ", \(array(12, "text")), \(array(13, "integer")), \(p(14)))"
    let menu = "INSERT INTO menu_item (venue_id, item, price, vegan) VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)))"
    try db.executeScript("BEGIN")
    for r in records {
      let v = { (key: String) in sqlValue(field(r, key), postgres: postgres) }
      let loc = field(r, "location")
      if case .dictionary = loc {
        _ = try db.execute(
          SQLStatement(
            sql: location,
            bindings: [v("id")]
              + ["city", "distance", "zip"].map {
                sqlValue(field(loc, $0), postgres: postgres)
              }))
      }
      let keys = [
        "id", "name", "priceCategory", "specialCount", "distance", "tipCount", "favorite", "createdAt", "rating",
        "phone", "code", "tags", "scores",
      ]
      var bindings = keys.map(v)
      if case .dictionary = loc { bindings.append(v("id")) } else { bindings.append(.null) }
      _ = try db.execute(SQLStatement(sql: venue, bindings: bindings))
      if case .array(let items) = field(r, "menu") {
        for item in items {
          _ = try db.execute(
            SQLStatement(
              sql: menu,
              bindings: [v("id")]
                + ["item", "price", "vegan"].map {
                  sqlValue(field(item, $0), postgres: postgres)
                }))
        }
      }
    }
    try db.executeScript("COMMIT")
  }

  /// The ids of the matching venues, or the error's text.
  static func ids(_ p: SiftPredicate, _ compiler: SQLCompiler, _ db: any SQLDatabase) -> String {
    do {
      let w = try compiler.compileWhere(p, entity: "venue")
      #expect(!w.sql.contains("__sift"), "\(w.sql)")
      let st = SQLStatement(
        sql: "SELECT t0.\"id\" FROM \"venue\" t0 WHERE \(w.sql) ORDER BY t0.\"id\"", bindings: w.bindings)
      return "\(try db.execute(st).compactMap { $0.first?.intValue.map { Int($0) } })"
    } catch {
      return "error: \(error)"
    }
  }

  @Test func everyCaseAgreesOnHandMadeDatabases() throws {
    let records = try DifferentialSchemas.venueRecords()
    let cases = try DifferentialSchemas.conformanceCases()
    let dir = try scratchDirectory("sift-existing-conformance")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("venues.sqlite").path
    do {
      let writer = try SQLiteDatabase(path: path)
      try writer.executeScript(SQLFixtures.text("existing/venues.sqlite.sql"))
      try Self.load(records, into: writer, postgres: false)
    }
    let sqlite = try SQLiteDatabase(readOnly: path)
    let read = try sqlite.introspectSchema()
    var engines: [(String, SQLCompiler, any SQLDatabase)] = [
      ("sqlite", SQLCompiler(dialect: SQLiteDialect(), schema: try read.schema.merging(json: Self.names)), sqlite)
    ]
    var postgres: PostgresDatabase?
    if PostgresTestServer.isAvailable {
      let pg = try PostgresTestServer.open()
      postgres = pg
      try pg.run(SQLFixtures.text("existing/venues.postgres.sql"))
      try Self.load(records, into: pg, postgres: true)
      let schema = try pg.introspectSchema(named: try #require(pg.schemaName)).schema.merging(json: Self.names)
      engines.append(("postgresql", SQLCompiler(dialect: PostgreSQLDialect(), schema: schema), pg))
    } else {
      print("note: PostgreSQL leg skipped. \(PostgresTestServer.skipMessage)")
    }
    defer { postgres?.close() }
    #expect(read.schema.layout == .existing)

    var compared = 0
    var disagreements: [String] = []
    for c in cases {
      guard let expected = c.expected, let p = try? SiftPredicate(format: c.format, arguments: c.args) else { continue }
      compared += 1
      #expect(try p.compile().matchingIndices(records) == expected, "\(c.id): memory")
      for (name, compiler, db) in engines {
        let got = Self.ids(p, compiler, db)
        if got != "\(expected)" {
          disagreements.append("\(c.id) [\(name)] \(c.format): expected \(expected), got \(got)")
        }
      }
    }
    for d in disagreements { print(d) }
    print("existing conformance: \(compared) cases compared on memory, \(engines.map(\.0).joined(separator: ", "))")
    #expect(compared >= 100, "only \(compared) cases compared")
    #expect(disagreements.isEmpty, "\(disagreements.count) disagreements (printed above)")
  }
}
