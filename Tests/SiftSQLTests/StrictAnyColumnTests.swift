import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// A column that keeps any kind (a STRICT table's `ANY` column, a column with no declared
/// type) is read as `.any` (issue #35, item 8c: it was left out, `keypath 'a' not found`), and
/// each row compares by the kind it stores, as memory compares the same rows read as records.
@Suite("STRICT tables with ANY columns")
struct StrictAnyColumnTests {
  /// `a` mixes every kind; `n` holds numbers, `s` text; `k` and `t` are typed columns.
  static let script = """
    CREATE TABLE t (id INTEGER PRIMARY KEY, a ANY, n ANY, s ANY, k INTEGER, t TEXT) STRICT;
    INSERT INTO t VALUES
      (1, 42, 1, 'abc', 42, '42'),
      (2, 42.0, 2.5, 'Abc', 7, 'x'),
      (3, '42', 3, 'b', 42, '42'),
      (4, 'abc', NULL, NULL, NULL, NULL),
      (5, x'3432', 7, 'xyz', 1, 'abc'),
      (6, NULL, 4, 'ab', 0, NULL),
      (7, 1, 1, 'Ab', 1, 'ABC'),
      (8, 4.5, 0, '', 5, '');
    """

  static func database() throws -> SQLiteDatabase {
    let db = try SQLiteDatabase()
    try db.executeScript(script)
    return db
  }

  /// The rows as memory sees them: each column read back as the kind SQLite stores.
  static func records(_ db: SQLiteDatabase) throws -> [[String: SiftValue]] {
    try db.fetch(SiftFetchRequest(entity: "t"), as: SiftRow.self).map { row in
      var r: [String: SiftValue] = [:]
      for key in ["id", "a", "n", "s", "k", "t"] { r[key] = row[key] ?? .null }
      return r
    }
  }

  enum Outcome: Equatable, CustomStringConvertible {
    case ids([Int64])
    case failed(String)
    var description: String {
      switch self {
      case .ids(let ids): return "\(ids)"
      case .failed(let id): return "error \(id)"
      }
    }
  }

  static func ids(_ rows: [[String: SiftValue]]) -> Outcome {
    .ids(rows.compactMap { if case .int(let i)? = $0["id"] { return i } else { return nil } }.sorted())
  }

  @Test func theColumnIsReadAsAnyAndDecodedAsStored() throws {
    let db = try StrictAnyColumnTests.database()
    let read = try db.introspectSchema()
    let entity = try #require(read.schema.entity("t"))
    for name in ["a", "n", "s"] { #expect(entity.attribute(name)?.type == .any, "\(name)") }
    #expect(entity.attribute("k")?.type == .integer)
    // A saved schema says so, and reads back the same.
    #expect(try SQLSchema(json: read.schema.jsonText).entity("t")?.attribute("a")?.type == .any)
    let a = try StrictAnyColumnTests.records(db).map { $0["a"] ?? .null }
    #expect(
      a == [.int(42), .double(42), .string("42"), .string("abc"), .data(Data("42".utf8)), .null, .int(1), .double(4.5)])
  }

  @Test(
    arguments: [
      "a == 42", "a == '42'", "a == nil", "a != nil", "a != 42", "a == 4.5", "a == true",
      "a IN {42, 'abc', nil}", "a ==[c] '42'", "a IN {'42', 4.5}", "a IN {}", "NOT a IN {1, 'abc'}", "a ==[c] 'ABC'",
      "a ==[c] 'abc' OR a == 42", "a IN[c] {'ABC', 4.5}", "a == k", "a == t", "a != k", "a == n", "s ==[c] t",
      "a == CAST(0, 'NSDate')", "a != CAST(0, 'NSDate')",
      // ordering and string operators over rows that hold what memory can order or search
      "n < 3", "n >= 2.5", "n <= 3 AND n > -1", "n BETWEEN {1, 3}", "n > k", "n < 2 OR n == nil", "3 > n",
      "s < 'b'", "s >=[c] 'AB'", "s BEGINSWITH 'a'", "s BEGINSWITH[c] 'A'", "s ENDSWITH 'c'", "s CONTAINS 'b'",
      "s CONTAINS[cd] 'B'", "s LIKE 'a*'", "s LIKE[c] 'A?'", "s MATCHES 'a.*'", "s IN 'xxabcxx'", "'xxabc' CONTAINS s",
      "s == t", "s < t",
      // memory stops at the first deciding term, so the rows it orders are numbers only
      "a IN {42, 1, 4.5} AND a < 10", "a == nil OR a == 'abc' OR a == '42' OR a == %@ OR a > 5",
      "NOT (a IN {'42', 'abc'} OR a == nil OR a == %@) AND a BETWEEN {1, 42}",
      // rows memory cannot order or search: an error in both
      "a < 50", "a > 'a'", "a >= n", "n < s", "a BEGINSWITH '4'", "a CONTAINS 'b'", "a LIKE '*'", "a MATCHES '.*'",
      "n ENDSWITH '1'", "'x' IN a", "a BETWEEN {1, 100}", "s > 5",
      "uppercase(s) == 'AB'", "lowercase(s) BEGINSWITH 'a'", "uppercase(a) == 'ABC'", "n.@count > 1", "n.@sum > 1",
    ])
  func memoryAndSQLiteAgree(_ format: String) throws {
    let db = try StrictAnyColumnTests.database()
    let records = try StrictAnyColumnTests.records(db)
    let blob = SiftValue.data(Data("42".utf8))
    let predicate = try SiftPredicate(format: format, arguments: format.contains("%@") ? [blob] : [])
    let memory: Outcome
    do {
      memory = StrictAnyColumnTests.ids(try predicate.compile().filter(records))
    } catch {
      memory = .failed(error.diagnostic.id)
    }
    let sqlite: Outcome
    do {
      let rows = try db.fetch(SiftFetchRequest(entity: "t", predicate: predicate), as: SiftRow.self)
      sqlite = .ids(rows.compactMap { if case .int(let i)? = $0["id"] { return i } else { return nil } }.sorted())
    } catch {
      sqlite = .failed(error.diagnostic.id)
    }
    #expect(memory == sqlite, "\(format): memory \(memory), SQLite \(sqlite)")
    if case .failed = memory {
    } else {
      #expect(memory != .ids([]) || format.contains("IN {}") || format.contains("NSDate"), "\(format) selects nothing")
    }
  }

  /// A long `IN` list (one bound JSON array, `json_each`) keeps each kind too.
  @Test func longInListsCompareByKind() throws {
    let db = try StrictAnyColumnTests.database()
    let records = try StrictAnyColumnTests.records(db)
    let list: [SiftValue] = (1000..<1300).map { .int($0) } + [.string("42"), .double(4.5), .string("ABC")]
    let predicate = try SiftPredicate(format: "a IN %@", SiftValue.array(list))
    let memory = try predicate.compile().filter(records).map { $0["id"] }
    let sqlite = try db.fetch(SiftFetchRequest(entity: "t", predicate: predicate), as: SiftRow.self).map { $0["id"] }
    #expect(memory == [.int(3), .int(8)])
    #expect(sqlite == memory)
  }

  /// Sorting: NULL, numbers, text, blobs in both engines; text rows by the descriptor's comparison.
  @Test(
    arguments: [
      [SiftSortDescriptor("a"), SiftSortDescriptor("id")],
      [SiftSortDescriptor("a", ascending: false), SiftSortDescriptor("id")],
      [SiftSortDescriptor("s", comparison: .caseInsensitive), SiftSortDescriptor("id")],
      [SiftSortDescriptor("s", ascending: false, comparison: .localizedStandard), SiftSortDescriptor("id")],
    ])
  func sortsAsMemory(_ sorts: [SiftSortDescriptor]) throws {
    let db = try StrictAnyColumnTests.database()
    let records = try StrictAnyColumnTests.records(db)
    let request = SiftFetchRequest(entity: "t", sortDescriptors: sorts)
    let memory = try request.matchingIndices(in: records).map { records[$0]["id"] }
    let sqlite = try db.fetch(request, as: SiftRow.self).map { $0["id"] }
    #expect(memory == sqlite)
  }

  /// What SQL does not do with such a column is refused when compiled, naming why.
  @Test func arithmeticAndDateOrderingAreRefused() throws {
    let db = try StrictAnyColumnTests.database()
    let refused = [
      ("n + 1 > 2", "not-a-number"), ("abs(n) > 1", "not-a-number"), ("n < CAST(0, 'NSDate')", "incomparable-values"),
    ]
    for (format, id) in refused {
      do {
        _ = try db.fetch(SiftFetchRequest(entity: "t", predicate: try SiftPredicate(format: format)), as: SiftRow.self)
        Issue.record("\(format) was not refused")
      } catch {
        #expect(error.diagnostic.id == id, "\(format): \(error)")
        #expect(error.diagnostic.message.contains("any kind") == true, "\(format): \(error)")
      }
    }
  }

  /// PostgreSQL has no column that keeps any kind: a schema saying so is refused there.
  @Test func postgresRefusesTheType() throws {
    let schema = try SQLSchema(
      json:
        #"{"layout": "existing", "entities": {"T": {"primaryKey": "id", "attributes": {"id": "integer", "a": "any"}}}}"#
    )
    #expect(schema.entity("T")?.attribute("a")?.type == .any)
    let request = SiftFetchRequest(entity: "T", predicate: try SiftPredicate(format: "a == 1"))
    #expect(throws: SiftError.self) { try SQLCompiler(dialect: PostgreSQLDialect(), schema: schema).compile(request) }
    do {
      _ = try SQLCompiler(dialect: PostgreSQLDialect(), schema: schema).compile(request)
    } catch {
      #expect(error.diagnostic.id == DiagnosticID.unsupportedInSql.rawValue)
    }
    _ = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).compile(request)
  }

  /// Which columns qualify: a column with no declared type whose values mix kinds (BLOB
  /// affinity) is `.any`; one whose values share a kind takes it; a non-STRICT `ANY` column
  /// has NUMERIC affinity (the text '42' of a comparison becomes 42), so a mixed one is left out.
  @Test func whichColumnsKeepAnyKind() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE u (id INTEGER PRIMARY KEY, plain, same, loose ANY);
      INSERT INTO u VALUES (1, 42, 1, 'x'), (2, '42', 2, 2);
      """)
    let read = try db.introspectSchema()
    let entity = try #require(read.schema.entity("u"))
    #expect(entity.attribute("plain")?.type == .any)
    #expect(entity.attribute("same")?.type == .integer)
    #expect(entity.attribute("loose") == nil)
    #expect(read.warnings.contains { $0.message.contains("loose is declared ANY outside a STRICT table") })
    let rows = try db.fetch(
      SiftFetchRequest(entity: "u", predicate: try SiftPredicate(format: "plain == '42'")), as: SiftRow.self)
    #expect(rows.map { $0["id"] } == [.int(2)])
  }
}
