import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

/// `fetchBatchSize`: `SQLDatabase.fetch(_:compiler:batches:)` hands the rows on in batches —
/// the same rows in the same order as one `execute`, on SQLite and PostgreSQL.
@Suite("Fetch batches")
struct FetchBatchTests {

  static func engines() throws -> (FetchThreeWay, [(String, SQLCompiler, any SQLDatabase)]) {
    let three = try FetchThreeWay(records: RandomData.records(seed: 7, count: 80))
    var sql: [(String, SQLCompiler, any SQLDatabase)] = [("sqlite", three.engines.sqliteCompiler, three.engines.sqlite)]
    if let pg = three.engines.postgres { sql.append(("postgresql", three.engines.postgresCompiler, pg)) }
    return (three, sql)
  }

  @Test func batchesAreTheRowsInOrder() throws {
    let (three, sql) = try Self.engines()
    for (name, compiler, db) in sql {
      for size in [nil, 0, 1, 7, 80, 81, 1000] as [Int?] {
        var r = SiftFetchRequest(
          entity: "Thing", predicate: try SiftPredicate(format: "small > -20"),
          sortDescriptors: try SiftSortDescriptor.parseList("name [c], x desc"), resultType: .properties(["name", "x"]))
        r.fetchBatchSize = size
        let whole = try db.execute(try compiler.compile(r))
        var batches: [[[SQLValue]]] = []
        try db.fetch(r, compiler: compiler) { batches.append($0) }
        #expect(batches.flatMap { $0 } == whole, "\(name) size \(size ?? -1)")
        let limit = (size ?? 0) > 0 ? size ?? 0 : whole.count
        #expect(batches.allSatisfy { !$0.isEmpty && $0.count <= limit }, "\(name) size \(size ?? -1)")
        #expect(batches.dropLast().allSatisfy { $0.count == limit }, "\(name) size \(size ?? -1)")
      }
      // Memory's answer is the same rows (ignoring the batch size).
      var r = SiftFetchRequest(entity: "Thing", sortDescriptors: [SiftSortDescriptor("small")], resultType: .count)
      r.fetchBatchSize = 3
      var counted: [[SQLValue]] = []
      try db.fetch(r, compiler: compiler) { counted += $0 }
      if case .count(let n) = try r.execute(on: three.memory) { #expect(counted == [[.integer(Int64(n))]], "\(name)") }
    }
  }

  /// An error thrown by the caller (a `SiftError`, as `body` is typed) stops the reading; the
  /// connection stays usable.
  @Test func theCallerCanStop() throws {
    let (three, sql) = try Self.engines()
    defer { withExtendedLifetime(three) {} }  // it owns the PostgreSQL connection
    for (name, compiler, db) in sql {
      var r = SiftFetchRequest(entity: "Thing", resultType: .properties(["name"]))
      r.fetchBatchSize = 10
      var seen = 0
      expectSiftError(id: "cancelled", stage: .sql) {
        try db.fetch(r, compiler: compiler) { (_: [[SQLValue]]) throws(SiftError) in
          seen += 1
          throw SiftError(stage: .sql, id: .cancelled, message: "stopped by the caller")
        }
      }
      #expect(seen == 1, "\(name)")
      #expect(
        try db.execute(try compiler.compile(SiftFetchRequest(entity: "Thing", resultType: .count))) == [[.integer(80)]],
        "\(name)")
    }
  }

  @Test func aNegativeBatchSizeIsRefused() throws {
    let (three, sql) = try Self.engines()
    defer { withExtendedLifetime(three) {} }
    var r = SiftFetchRequest(entity: "Thing")
    r.fetchBatchSize = -1
    _ = expectSiftError(id: "invalid-fetch-request", stage: .sql) {
      try sql[0].2.fetch(r, compiler: sql[0].1) { _ in }
    }
  }
}

extension FetchBatchTests {
  /// Memory's batches joined are its one answer, and SQLite's rows.
  @Test func memoryBatchesAreTheAnswer() throws {
    let (three, sql) = try Self.engines()
    defer { withExtendedLifetime(three) {} }
    for resultType in [
      SiftFetchRequest.ResultType.properties(["name", "x"]), .indices,
      .expressions([SiftExpressionDescription(name: "twice", expression: try SiftExpression(format: "small * 2"))]),
      .aggregates([SiftAggregate(.count, name: "n")], groupBy: ["flag"]),
    ] {
      for size in [nil, 1, 7, 80, 500] as [Int?] {
        var r = SiftFetchRequest(
          entity: "Thing", predicate: try SiftPredicate(format: "small > -20"),
          sortDescriptors: try SiftSortDescriptor.parseList("name [c], x desc"), limit: 50, offset: 3,
          resultType: resultType)
        r.fetchBatchSize = size
        var batches: [SiftFetchResult] = []
        try r.execute(on: three.memory) { batches.append($0) }
        let whole = try r.execute(on: three.memory)
        let limit = (size ?? 0) > 0 ? size ?? 0 : Int.max
        var joined: [[SiftValue]] = []
        for b in batches {
          switch b {
          case .indices(let p):
            #expect(!p.isEmpty && (p.count <= limit || resultType != .indices))
            joined += p.map { [.int(Int64($0))] }
          case .rows(_, let rows):
            #expect(!rows.isEmpty)
            if case .aggregates = resultType {} else { #expect(rows.count <= limit) }
            joined += rows
          default: Issue.record("unexpected \(b)")
          }
        }
        switch whole {
        case .indices(let p): #expect(joined == p.map { [.int(Int64($0))] }, "\(resultType) \(size ?? -1)")
        case .rows(_, let rows): #expect(joined == rows, "\(resultType) \(size ?? -1)")
        default: Issue.record("unexpected \(whole)")
        }
        if case .properties = resultType, let report = three.check(r) { Issue.record("\(report)") }
      }
    }
    _ = sql
  }
}
