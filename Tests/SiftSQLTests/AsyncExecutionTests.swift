import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Collects values reported from another task.
final class Collected<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [T] = []
  func add(_ item: T) { lock.lock(); items.append(item); lock.unlock() }
  var all: [T] { lock.lock(); defer { lock.unlock() }; return items }
}

/// A connection handed to one child task at a time (SQLiteDatabase is not `Sendable`).
struct Handed<T>: @unchecked Sendable { let value: T }

/// `executeAsync` on SQLite and PostgreSQL: the rows `execute` gives, progress every N rows,
/// and cancellation — mid-rows and during a long scan — checked deterministically (the task is
/// cancelled from its own progress report, or once the server shows the statement running).
@Suite("Async execution (SQLite, PostgreSQL)")
struct AsyncExecutionTests {
  static let series = SQLStatement(
    sql: "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 25) SELECT i FROM c")
  static let longScan = SQLStatement(
    sql: "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 200000000) SELECT count(*) FROM c")

  @Test func sqliteRowsProgressAndCancellation() async throws {
    let db = try SQLiteDatabase()
    let reports = Collected<Int>()
    let rows = try await db.executeAsync(Self.series, progressInterval: 10) { reports.add($0.scanned) }
    #expect(rows == (try db.execute(Self.series)))
    #expect(rows.count == 25)
    #expect(reports.all.contains(10) && reports.all.contains(20) && reports.all == reports.all.sorted())

    let stopped = Collected<Int>()
    let handed = Handed(value: db)
    let task = Task { () async throws(SiftError) -> [[SQLValue]] in
      try await handed.value.executeAsync(Self.series, progressInterval: 10) { p in
        stopped.add(p.scanned)
        withUnsafeCurrentTask { $0?.cancel() }
      }
    }
    if case .failure(let failure) = await task.result, let e = failure as? SiftError {
      #expect(e.diagnostic.id == "cancelled" && e.stage == .sql)
    } else {
      Issue.record("not cancelled")
    }
    #expect(stopped.all.count == 1)
    #expect(try db.execute(Self.series).count == 25)  // the connection is still usable
  }

  /// A scan that returns nothing for a long time still reports, so it can be cancelled.
  @Test func sqliteLongScanStopsWhenCancelled() async throws {
    let db = try SQLiteDatabase()
    let reports = Collected<Int>()
    let handed = Handed(value: db)
    let task = Task { () async throws(SiftError) -> [[SQLValue]] in
      try await handed.value.executeAsync(Self.longScan, progressInterval: 10) { p in
        reports.add(p.scanned)
        if reports.all.count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
      }
    }
    guard case .failure(let failure) = await task.result, let e = failure as? SiftError else {
      Issue.record("the scan was not cancelled")
      return
    }
    #expect(e.diagnostic.id == "cancelled")
    #expect(reports.all == [0, 0, 0])
    #expect(try db.execute(Self.series).count == 25)
  }

  /// A fetch request run both ways: `executeAsync` in memory and on SQLite give the same records.
  @Test func fetchRequestInMemoryAndSQLiteAsync() async throws {
    let records = RandomData.records(seed: 9, count: 200)
    let schema = try DifferentialSchemas.thing()
    let db = try SQLiteDatabase()
    try db.load(records, entity: "Thing", schema: schema, dialect: SQLiteDialect())
    let request = SiftFetchRequest(
      entity: "Thing", predicate: try SiftPredicate(format: "small > -20"),
      sortDescriptors: try SiftSortDescriptor.parseList("x desc, name [c]"), limit: 50, offset: 5, resultType: .indices)
    let memory = try await request.executeAsync(
      on: try JSONRecords.records(from: .array(records)), progressInterval: 64)
    let rows = try await db.executeAsync(try SQLCompiler(dialect: SQLiteDialect(), schema: schema).compile(request))
    #expect(memory == .indices(rows.compactMap { $0.first?.intValue.map { Int($0) } }))
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresRowsProgressAndCancellation() async throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let series = SQLStatement(sql: "SELECT i FROM generate_series(1, 25) AS s(i) ORDER BY i")
    let reports = Collected<Int>()
    let rows = try await db.executeAsync(series, progressInterval: 10) { reports.add($0.scanned) }
    #expect(rows == (try db.execute(series)))
    #expect(reports.all == [10, 20])
    let task = Task { () async throws(SiftError) -> [[SQLValue]] in
      try await db.executeAsync(series, progressInterval: 10) { _ in withUnsafeCurrentTask { $0?.cancel() } }
    }
    if case .failure(let failure) = await task.result, let e = failure as? SiftError {
      #expect(e.kind == .cancelled)
    } else {
      Issue.record("not cancelled")
    }
    #expect(try db.execute(series).count == 25)  // the connection is still usable
  }

  /// `PQcancel` stops a statement that has sent nothing: cancelled once pg_stat_activity shows
  /// it running (no timing assumption), it ends with `.cancelled` long before it would finish.
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresLongStatementStopsWhenCancelled() async throws {
    let db = try PostgresTestServer.open()
    let watcher = try PostgresTestServer.open()
    defer { db.close(); watcher.close() }
    let marker = "sift_async_\(UInt32.random(in: 0...UInt32.max))"
    let sleep = SQLStatement(sql: "SELECT pg_sleep(600) AS \(marker)")
    let task = Task { () async throws(SiftError) -> [[SQLValue]] in try await db.executeAsync(sleep) }
    let seen = SQLStatement(
      sql: "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1",
      bindings: [.text("%AS \(marker)")])
    let started = Date()
    while try watcher.execute(seen).first?.first?.intValue != 1 {
      guard Date().timeIntervalSince(started) < 120 else { break }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    task.cancel()
    guard case .failure(let failure) = await task.result, let e = failure as? SiftError else {
      Issue.record("pg_sleep was not cancelled")
      return
    }
    #expect(e.kind == .cancelled)
    #expect(Date().timeIntervalSince(started) < 300)  // far below the 600 s it would sleep
    #expect(try db.execute(SQLStatement(sql: "SELECT 1")) == [[.integer(1)]])
  }

  /// A statement that sends nothing for a long time still reports progress, so it can be
  /// cancelled from its own report (no timing assumption: pg_sleep(600) reports many times).
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresLongStatementReportsAndStopsFromItsProgress() async throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let reports = Collected<Int>()
    let task = Task { () async throws(SiftError) -> [[SQLValue]] in
      try await db.executeAsync(SQLStatement(sql: "SELECT pg_sleep(600)")) { p in
        reports.add(p.scanned)
        if reports.all.count == 2 { withUnsafeCurrentTask { $0?.cancel() } }
      }
    }
    guard case .failure(let failure) = await task.result, let e = failure as? SiftError else {
      Issue.record("pg_sleep was not cancelled")
      return
    }
    #expect(e.kind == .cancelled)
    #expect(reports.all == [0, 0])
    #expect(try db.execute(SQLStatement(sql: "SELECT 1")) == [[.integer(1)]])
  }
}
