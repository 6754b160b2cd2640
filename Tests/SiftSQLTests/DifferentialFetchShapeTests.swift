import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// `havingPredicate`, `returnsDistinctResults` over several properties and
/// `includesSubentities = false`: memory == SQLite == PostgreSQL (Grammar/notes/fetch.md).
@Suite("Differential: having, distinct rows, own rows")
struct DifferentialFetchShapeTests {
  static let aggregates = [
    SiftAggregate(.count, name: "n"), SiftAggregate(.sum, "small", name: "total"),
    SiftAggregate(.avg, "x", name: "mean"), SiftAggregate(.max, "name", name: "latest"),
    SiftAggregate(.min, "when", name: "earliest"),
  ]

  static func havingRequests() throws -> [SiftFetchRequest] {
    var out: [SiftFetchRequest] = []
    let cases: [([String], SiftPredicate)] = [
      (["flag"], try SiftPredicate(format: "n > 20")),
      (["place.city"], try SiftPredicate(format: "n >= 3 AND total > 0")),
      (["name"], try SiftPredicate(format: "$n > 1")),
      (["flag", "small"], try SiftPredicate(format: "total != 0 OR mean < 0")),
      (["place.city"], try SiftPredicate(format: "place.city BEGINSWITH[c] 'b' OR latest CONTAINS 'e'")),
      ([], try SiftPredicate(format: "n > 0")),
      (["code"], try SiftPredicate(format: "earliest > %@", Date(timeIntervalSince1970: 1e9))),
      (["small"], try SiftPredicate(format: "small > 0 AND n == 1")),
      (["flag"], try SiftPredicate(format: "flag == nil OR mean == nil")),
      (["name"], try SiftPredicate(format: "name IN {'a', 'b'} OR $total BETWEEN {-5, 5}")),
    ]
    for (groupBy, having) in cases {
      for (limit, offset) in [(nil, nil), (3, 1)] as [(Int?, Int?)] {
        var r = SiftFetchRequest(
          entity: "Thing", predicate: try SiftPredicate(format: "small >= -25"), limit: limit, offset: offset,
          resultType: .aggregates(aggregates, groupBy: groupBy))
        r.havingPredicate = having
        out.append(r)
      }
    }
    return out
  }

  static func distinctRequests() throws -> [SiftFetchRequest] {
    var out: [SiftFetchRequest] = []
    let cases: [([String], String)] = [
      (["flag", "small"], ""), (["place.city", "flag"], "flag desc"),
      (["name", "code"], "name [c], code desc nulls first"),
      (["small"], "small desc"), (["name", "flag"], "name [l]"),
      (["when", "place.city"], "place.city desc nulls last"),
      (["x", "flag", "place.dist"], "x, place.dist desc"),
    ]
    for (properties, sort) in cases {
      let sorts = sort.isEmpty ? [] : try SiftSortDescriptor.parseList(sort)
      for (limit, offset) in [(nil, nil), (4, 2), (nil, 500)] as [(Int?, Int?)] {
        var r = SiftFetchRequest(
          entity: "Thing", sortDescriptors: sorts, limit: limit, offset: offset, resultType: .properties(properties))
        r.returnsDistinctResults = true
        out.append(r)
      }
    }
    return out
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func havingAndDistinctAgree(seed: UInt64) throws {
    let engines = try FetchThreeWay(records: RandomData.records(seed: seed, count: 90))
    let requests = try Self.havingRequests() + Self.distinctRequests()
    DifferentialFetchTests.expectAgreement(requests.compactMap(engines.check), "seed \(seed)")
    // Not vacuous: some groups are dropped, and some distinct rows stand for several records.
    let all = SiftFetchRequest(entity: "Thing", resultType: .aggregates(Self.aggregates, groupBy: ["flag", "small"]))
    var kept = all
    kept.havingPredicate = try SiftPredicate(format: "n > 1")
    if case .rows(let a) = engines.memoryOutcome(all), case .rows(let b) = engines.memoryOutcome(kept) {
      #expect(b.count < a.count && !b.isEmpty)
    }
  }

  @Test func edgeKeysAgree() throws {
    let engines = try FetchThreeWay(records: DifferentialFetchTests.edgeRecords)
    var requests = try Self.distinctRequests().filter { r in
      guard case .properties(let p) = r.resultType else { return false }
      return p.allSatisfy { ["name", "small", "x"].contains($0) }
    }
    for (p, s) in [(["name", "small"], "name [c]"), (["x", "small"], "x desc"), (["name"], "name [l]")] {
      var r = SiftFetchRequest(
        entity: "Thing", sortDescriptors: try SiftSortDescriptor.parseList(s), resultType: .properties(p))
      r.returnsDistinctResults = true
      requests.append(r)
    }
    var grouped = SiftFetchRequest(
      entity: "Thing", resultType: .aggregates([SiftAggregate(.count, name: "n")], groupBy: ["name"]))
    grouped.havingPredicate = try SiftPredicate(format: "name ==[c] 'e' OR name BEGINSWITH 'f'")
    requests.append(grouped)
    DifferentialFetchTests.expectAgreement(requests.compactMap(engines.check), "edge keys")
  }

  /// Refusals: the same id in every engine.
  @Test func refusalsAgree() throws {
    let engines = try FetchThreeWay(records: DifferentialFetchTests.edgeRecords)
    var notGrouped = SiftFetchRequest(entity: "Thing", resultType: .properties(["name"]))
    notGrouped.havingPredicate = try SiftPredicate(format: "name == 'e'")
    var unknown = SiftFetchRequest(
      entity: "Thing", resultType: .aggregates([SiftAggregate(.count, name: "n")], groupBy: ["name"]))
    unknown.havingPredicate = try SiftPredicate(format: "n > 1 AND small > 0")
    var unsorted = SiftFetchRequest(
      entity: "Thing", sortDescriptors: [SiftSortDescriptor("x")], resultType: .properties(["name"]))
    unsorted.returnsDistinctResults = true
    var notProperties = SiftFetchRequest(entity: "Thing", resultType: .count)
    notProperties.returnsDistinctResults = true
    for (r, id) in [
      (notGrouped, "invalid-fetch-request"), (unknown, "unknown-having-key"), (unsorted, "invalid-fetch-request"),
      (notProperties, "invalid-fetch-request"),
    ] {
      _ = expectSiftError(id: id, stage: .evaluate) { try r.execute(on: engines.memory) }
      _ = expectSiftError(id: id, stage: .sql) { try engines.engines.sqliteCompiler.compile(r) }
      if let report = engines.check(r) { Issue.record("\(report)") }
    }
    let e = expectSiftError(id: "unknown-having-key", stage: .sql, at: 10) {
      try engines.engines.sqliteCompiler.compile(unknown)
    }
    #expect(e?.diagnostic.message.contains("'small' is not a column") == true)
  }

  /// The having predicate's values are bound, never written into the SQL.
  @Test func havingValuesAreBound() throws {
    let schema = try DifferentialSchemas.thing()
    var r = SiftFetchRequest(
      entity: "Thing", resultType: .aggregates([SiftAggregate(.count, name: "n")], groupBy: ["name"]))
    r.havingPredicate = try SiftPredicate(format: "n > 41 AND name != %@", "x'; DROP")
    for dialect in [SQLiteDialect(), PostgreSQLDialect()] as [any SQLDialect] {
      let st = try SQLCompiler(dialect: dialect, schema: schema).compile(r)
      #expect(!st.sql.contains("41") && !st.sql.contains("DROP"))
      #expect(st.bindings.contains(.integer(41)))
    }
  }
}

/// `includesSubentities = false` over Core Data's layout: one table for a hierarchy, `Z_ENT`
/// telling the entities apart.
@Suite("Differential: includesSubentities")
struct IncludesSubentitiesTests {
  // Item (1) ⊃ Book (2) ⊃ Novel (3).
  static let rows: [(pk: Int, ent: Int, title: String, pages: Int)] = [
    (1, 1, "box", 0), (2, 2, "atlas", 300), (3, 3, "emma", 400), (4, 2, "dune", 500), (5, 1, "cup", 0),
    (6, 3, "beloved", 320),
  ]
  static let names = [1: "Item", 2: "Book", 3: "Novel"]
  static let hierarchy = ["Item": [1, 2, 3], "Book": [2, 3], "Novel": [3]]

  static func schema() throws -> SQLSchema {
    let attributes = [
      SQLAttribute(name: "Z_PK", type: .integer), SQLAttribute(name: "title", column: "ZTITLE", type: .string),
      SQLAttribute(name: "pages", column: "ZPAGES", type: .integer),
    ]
    var item = SQLEntity(name: "Item", table: "ZITEM", primaryKey: "Z_PK", attributes: attributes)
    item.ownRows = SQLRowFilter(column: "Z_ENT", values: [1])
    var book = SQLEntity(
      name: "Book", table: "ZITEM", primaryKey: "Z_PK", attributes: attributes,
      rowFilter: SQLRowFilter(column: "Z_ENT", values: [2, 3]))
    book.ownRows = SQLRowFilter(column: "Z_ENT", values: [2])
    let novel = SQLEntity(
      name: "Novel", table: "ZITEM", primaryKey: "Z_PK", attributes: attributes,
      rowFilter: SQLRowFilter(column: "Z_ENT", values: [3]))
    return try SQLSchema(entities: [item, book, novel], dateEncoding: .referenceDateSeconds, layout: .existing)
  }

  static var script: String {
    "CREATE TABLE \"ZITEM\" (\"Z_PK\" integer PRIMARY KEY, \"Z_ENT\" integer, \"ZTITLE\" text, \"ZPAGES\" integer);"
      + "INSERT INTO \"ZITEM\" VALUES "
      + rows.map { "(\($0.pk), \($0.ent), '\($0.title)', \($0.pages))" }.joined(separator: ", ")
  }

  @Test func ownRowsAgree() throws {
    let schema = try Self.schema()
    let sqlite = try SQLiteDatabase()
    try sqlite.executeScript(Self.script)
    var engines: [(String, any SQLDatabase, SQLCompiler)] = [
      ("sqlite", sqlite, SQLCompiler(dialect: SQLiteDialect(), schema: schema))
    ]
    var pg: PostgresDatabase?
    if let info = PostgresTestServer.conninfo {
      let db = try PostgresDatabase(conninfo: info, schema: .temporary(prefix: "sift_subent"))
      try db.run(Self.script)
      pg = db
      engines.append(("postgresql", db, SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)))
    }
    defer { pg?.close() }
    var checked = 0
    for entity in ["Item", "Book", "Novel"] {
      for includes in [true, false] {
        for predicate in [nil, try SiftPredicate(format: "pages > 100 OR title BEGINSWITH 'c'")] {
          var r = SiftFetchRequest(
            entity: entity, predicate: predicate, sortDescriptors: [SiftSortDescriptor("title")],
            resultType: .properties(["Z_PK", "title"]))
          r.includesSubentities = includes
          // Memory is given the entity's hierarchy, each record with its entity's name.
          let members = Self.rows.filter { Self.hierarchy[entity]?.contains($0.ent) == true }
          let records: [[String: SiftValue]] = members.map {
            ["Z_PK": .int(Int64($0.pk)), "title": .string($0.title), "pages": .int(Int64($0.pages))]
          }
          let memory = try r.execute(on: records, entities: members.map { Self.names[$0.ent] ?? "" }).dictionaries
          let expected = members.filter { includes || Self.names[$0.ent] == entity }.count
          if predicate == nil { #expect(memory.count == expected, "\(entity) \(includes)") }
          for (name, db, compiler) in engines {
            let rows = try db.execute(try compiler.compile(r)).map { $0.map(FetchThreeWay.normalize) }
            let mem = memory.map { [$0["Z_PK"] ?? .null, $0["title"] ?? .null] }
            #expect(rows == mem, "\(name) \(entity) includesSubentities \(includes)")
            checked += 1
          }
        }
      }
    }
    #expect(checked >= 12)
  }

  @Test func memoryNeedsOneEntityPerRecord() {
    var r = SiftFetchRequest(entity: "Book")
    r.includesSubentities = false
    let records: [[String: SiftValue]] = [["title": "a"], ["title": "b"]]
    _ = expectSiftError(id: "invalid-fetch-request", stage: .evaluate) {
      try r.execute(on: records, entities: ["Book"])
    }
  }

  @Test func schemaFilesCarryOwnRows() throws {
    let schema = try Self.schema()
    let again = try SQLSchema(json: schema.jsonText)
    #expect(again.entity("Item")?.ownRows == SQLRowFilter(column: "Z_ENT", values: [1]))
    #expect(again.entity("Book")?.ownRows == SQLRowFilter(column: "Z_ENT", values: [2]))
    #expect(again.entity("Book")?.rowFilter == SQLRowFilter(column: "Z_ENT", values: [2, 3]))
    #expect(again.entity("Novel")?.ownRows == nil)
  }
}
