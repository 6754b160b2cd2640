import Foundation
import SiftLive
import SiftPostgres
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftLivePostgres

/// Faults (Grammar/notes/live.md, "PostgreSQL"): a killed session is replaced and the
/// watchers resynchronised with one change set each; a dropped or retyped column is an error
/// event naming it; watchers of one shape share a statement.
@Suite("PostgreSQL live: faults and sharing")
struct PostgresLiveFaultTests {
  struct Fixture {
    let db: PostgresDatabase
    let hub: PostgresLiveHub
    init() throws {
      db = try LivePostgresServer.open()
      try db.run("CREATE TABLE venue (id int8 PRIMARY KEY, name text, rating int8)")
      try db.run("INSERT INTO venue VALUES (1, 'Alpha', 3), (2, 'Beta', 5), (3, 'Gamma', 1)")
      hub = try PostgresLiveHub(
        conninfo: LivePostgresServer.conninfo ?? "", schema: db.schemaName ?? "",
        source: PostgresLivePolling(interval: 0.01))
    }
    func close() {
      hub.close()
      db.close()
    }
    /// Refreshes until an event arrives (at most `seconds`).
    func events(within seconds: Double = 10) -> [PostgresLiveEvent] {
      let deadline = Date().addingTimeInterval(seconds)
      while Date() < deadline {
        let e = hub.refresh(timeout: 0.05)
        if !e.isEmpty { return e }
      }
      return []
    }
  }

  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func aKilledSessionIsReplacedAndTheWatchersResynchronised() throws {
    let f = try Fixture()
    defer { f.close() }
    let w = try f.hub.watch(
      SiftFetchRequest(
        entity: "venue", predicate: try SiftPredicate(format: "rating >= 3"),
        sortDescriptors: [SiftSortDescriptor("name")]))
    #expect(w.results.ids == [1, 2])
    let pid = try #require(try f.hub.database?.execute(SQLStatement(sql: "SELECT pg_backend_pid()")).first?.first)
    try f.db.run("SELECT pg_terminate_backend(\(pid))")
    // While the hub is away: a commit it must not miss.
    try f.db.run("UPDATE venue SET rating = 4 WHERE id = 3; DELETE FROM venue WHERE id = 1")
    let lost = f.events()
    guard case .error(nil, let e)? = lost.first else {
      Issue.record("no connection-lost event: \(lost)")
      return
    }
    #expect(e.id == "live-connection-lost")
    let back = f.events()
    guard case .changes(let watcher, let cs)? = back.first else {
      Issue.record("no resynchronising change set: \(back)")
      return
    }
    #expect(watcher === w)
    #expect(f.hub.reconnections == 1)
    #expect(w.results.ids == [2, 3])
    #expect(cs.deleted == [SiftIndexPath(section: 0, item: 0)] && cs.inserted == [SiftIndexPath(section: 0, item: 1)])
    // The new session has Sift's settings: read-only.
    let readOnly = try f.hub.database?.execute(SQLStatement(sql: "SHOW default_transaction_read_only")).first?.first
    #expect(readOnly == .text("on"))
  }

  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func aDroppedOrRetypedColumnIsAnErrorNamingIt() throws {
    let f = try Fixture()
    defer { f.close() }
    let w = try f.hub.watch(SiftFetchRequest(entity: "venue", sortDescriptors: [SiftSortDescriptor("name")]))
    try f.db.run("ALTER TABLE venue ALTER COLUMN rating TYPE text")
    var events = f.events()
    guard case .error(let watcher, let e)? = events.first else {
      Issue.record("no error event: \(events)")
      return
    }
    #expect(watcher === w)
    #expect(e.id == "live-column-changed")
    #expect(e.message.contains("'rating'") && e.message.contains("text"))
    try f.db.run("ALTER TABLE venue DROP COLUMN rating")
    events = f.events()
    guard case .error(_, let dropped)? = events.first else {
      Issue.record("no error event: \(events)")
      return
    }
    #expect(dropped.id == "live-column-changed")
    #expect(dropped.message.contains("'rating'") && dropped.message.contains("dropped"))
    // Reported once, not at every look.
    try f.db.run("INSERT INTO venue (id, name) VALUES (4, 'Delta')")
    #expect(f.hub.refresh(timeout: 0.2).isEmpty)
    // The column back with its type: one change set from the last state.
    try f.db.run("ALTER TABLE venue ADD COLUMN rating int8")
    events = f.events()
    guard case .changes(_, let cs)? = events.first else {
      Issue.record("no change set after the column came back: \(events)")
      return
    }
    #expect(w.failure == nil)
    #expect(w.results.ids == [1, 2, 4, 3])
    #expect(cs.inserted == [SiftIndexPath(section: 0, item: 2)])
  }

  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func watchersOfOneShapeShareOneStatement() throws {
    let f = try Fixture()
    defer { f.close() }
    var shared: [PostgresLiveWatcher] = []
    for r in 0..<5 {
      let p = try SiftPredicate(format: "rating > %@ AND name != %@", r, "Beta")
      shared.append(try f.hub.watch(SiftFetchRequest(entity: "venue", predicate: p)))
    }
    let other = try f.hub.watch(SiftFetchRequest(entity: "venue", predicate: try SiftPredicate(format: "rating < 2")))
    let before = f.hub.queriesRun
    try f.db.run("UPDATE venue SET rating = 2 WHERE id = 3")
    let events = f.events()
    #expect(f.hub.queriesRun - before == 2, "one shared statement and one alone")
    #expect(shared.map { $0.results.ids } == [[1, 3], [1, 3], [1], [], []])
    #expect(other.results.ids == [])
    #expect(events.count == 3)  // watchers 0 and 1 (3 enters), other (3 leaves)
  }

  @Test func placeholdersInQuotesAreLeftAlone() {
    let sql = #"SELECT "a$1", '$2' FROM t WHERE x = $1 AND y = $12"#
    #expect(
      PostgresLiveShape.replacingParameters(sql) { "w.p\($0)" }
        == #"SELECT "a$1", '$2' FROM t WHERE x = w.p1 AND y = w.p12"#)
    #expect(PostgresLiveShape.element(.text(#"a"b\c"#)) == #""a\"b\\c""#)
    #expect(PostgresLiveShape(SQLStatement(sql: "SELECT $1", bindings: [.null])) == nil)
  }

  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func badFetchesAreRefusedWithAnId() throws {
    let f = try Fixture()
    defer { f.close() }
    expectSiftError(id: "live-refused") { _ = try f.hub.watch(SiftFetchRequest(entity: "nope")) }
    expectSiftError(id: "live-refused") {
      _ = try f.hub.watch(SiftFetchRequest(entity: "venue", sortDescriptors: [SiftSortDescriptor("owner.name")]))
    }
    expectSiftError(id: "live-refused") { _ = try f.hub.watch(SiftFetchRequest(entity: "venue", resultType: .count)) }
  }
}

/// A source naming rows (the push mode's seam): watchers without a window read only those rows.
@Suite("PostgreSQL live: rows named by the source")
struct PostgresLiveRowsTests {
  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func namedRowsAreReadByKeyAndMatchedInMemory() throws {
    let db = try LivePostgresServer.open()
    defer { db.close() }
    try db.run("CREATE TABLE venue (id int8 PRIMARY KEY, name text, rating int8)")
    try db.run("INSERT INTO venue VALUES (1, 'Alpha', 3), (2, 'Beta', 5), (3, 'Gamma', 1)")
    let source = ScriptedChangeSource()
    let hub = try PostgresLiveHub(
      conninfo: LivePostgresServer.conninfo ?? "", schema: db.schemaName ?? "", source: source)
    defer { hub.close() }
    let p = try SiftPredicate(format: "rating >= 3")
    let kept = try hub.watch(
      SiftFetchRequest(entity: "venue", predicate: p, sortDescriptors: [SiftSortDescriptor("name")]))
    let windowed = try hub.watch(
      SiftFetchRequest(entity: "venue", predicate: p, sortDescriptors: [SiftSortDescriptor("name")], limit: 1))
    #expect(kept.rowMatcher != nil && windowed.rowMatcher == nil)
    try db.run("UPDATE venue SET rating = 4 WHERE id = 3; DELETE FROM venue WHERE id = 1")
    source.pending = [.rows(table: kept.table, keys: ["3", "1"])]
    let before = hub.queriesRun
    let events = hub.refresh()
    #expect(hub.queriesRun - before == 2, "one read by key, one query for the window")
    #expect(kept.results.ids == [2, 3] && windowed.results.ids == [2])
    guard case .changes(let w, let cs)? = events.first else {
      Issue.record("no change set: \(events)")
      return
    }
    #expect(w === kept)
    #expect(cs.deleted == [SiftIndexPath(section: 0, item: 0)] && cs.inserted == [SiftIndexPath(section: 0, item: 1)])
  }
}

/// Reconnecting backs off (0.25 s doubling to 8 s) while the server stays away, and every wait
/// is bounded by `refresh`'s timeout.
@Suite("PostgreSQL live: backoff")
struct PostgresLiveBackoffTests {
  /// A source whose look fails with a lost connection once, and whose `start` then fails `failures` times.
  final class FlakySource: PostgresLiveChangeSource {
    let mode = "flaky"
    var starts = 0
    var failures: Int
    var dropNext = false
    init(failures: Int) { self.failures = failures }
    func start(database: PostgresDatabase, conninfo: String) throws(SiftError) {
      starts += 1
      if starts > 1, failures > 0 {
        failures -= 1
        throw SiftError(stage: .sql, id: .postgresConnection, message: "server away")
      }
    }
    func changes(database: PostgresDatabase, timeout: Double) throws(SiftError) -> [PostgresLiveChange] {
      guard dropNext else { return [] }
      dropNext = false
      throw SiftError(stage: .sql, id: .postgresConnection, message: "server closed the connection")
    }
    func stop() {}
  }

  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func reconnectingBacksOffAndEveryWaitIsBounded() throws {
    let db = try LivePostgresServer.open()
    defer { db.close() }
    try db.run("CREATE TABLE t (id int8 PRIMARY KEY)")
    let source = FlakySource(failures: 3)
    let hub = try PostgresLiveHub(
      conninfo: LivePostgresServer.conninfo ?? "", schema: db.schemaName ?? "", source: source)
    defer { hub.close() }
    _ = try hub.watch(SiftFetchRequest(entity: "t"))
    source.dropNext = true
    let lost = hub.refresh()
    guard case .error(nil, let e)? = lost.first else {
      Issue.record("no connection-lost event: \(lost)")
      return
    }
    #expect(e.id == "live-connection-lost")
    #expect(hub.backoff == 0.25)
    // A refresh never waits past its timeout, even while a retry is due later.
    let start = Date()
    #expect(hub.refresh(timeout: 0).isEmpty)
    #expect(Date().timeIntervalSince(start) < 0.2)
    var backoffs: [Double] = []
    let deadline = Date().addingTimeInterval(20)
    while hub.reconnections == 0, Date() < deadline {
      _ = hub.refresh(timeout: 0.5)
      if backoffs.last != hub.backoff { backoffs.append(hub.backoff) }
    }
    #expect(backoffs == [0.5, 1, 2, 0.25], "backoff after each failed attempt, then reset")
    #expect(hub.reconnections == 1 && source.starts == 5)
  }
}
