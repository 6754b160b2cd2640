import Foundation
import SiftLive
import SiftPostgres
import SiftSQL
import SiftSyntax

extension PostgresLiveHub {
  /// Asks the source what committed (waiting at most `timeout` seconds for something) and
  /// brings the watchers it may concern up to date: one `.changes` event per watcher whose rows
  /// changed, in the order the watchers started; errors as `.error` events. While the
  /// connection is lost it tries again when the backoff allows (within `timeout`) and, once
  /// back, resynchronises every watcher. Never waits longer than `timeout` plus one round of
  /// queries (each bounded by the statement timeout).
  ///
  /// ```swift
  /// let events = hub.refresh(timeout: 0.5)
  /// ```
  public func refresh(timeout: Double = 0) -> [PostgresLiveEvent] {
    let timeout = timeout.isFinite ? min(max(timeout, 0), 3600) : 0
    guard let db = database else { return reconnect(within: timeout) }
    do throws(SiftError) {
      let changes = try source.changes(database: db, timeout: timeout)
      if changes.isEmpty { return [] }
      var tables: Set<PostgresLiveTableName>? = []
      var keys: [PostgresLiveTableName: Set<String>] = [:]
      for c in changes {
        switch c {
        case .unknown: tables = nil
        case .rows(let table, let changed):
          tables?.insert(table)
          keys[table, default: []].formUnion(changed)
        }
      }
      // Once any change is unknown every watcher runs its query: the rows named do not say it all.
      return try rerun(tables, keys: tables == nil ? [:] : keys, on: db)
    } catch {
      return lost(error)
    }
  }

  /// Runs the queries of the watchers of `tables` (nil: all) again and diffs; the tables'
  /// columns are checked first (one catalog query per table). With `keys` (the rows each table's
  /// commits changed), watchers kept by rows read only those rows (`PostgresLiveHub+Rows.swift`).
  func rerun(
    _ tables: Set<PostgresLiveTableName>?, keys: [PostgresLiveTableName: Set<String>] = [:], on db: PostgresDatabase
  ) throws(SiftError) -> [PostgresLiveEvent] {
    let watched = watchers.filter { tables?.contains($0.table) ?? true }
    var out: [ObjectIdentifier: PostgresLiveEvent] = [:]
    var checked: [PostgresLiveTableName: [String: String]?] = [:]
    for w in watched {
      if checked[w.table] == nil { checked[w.table] = .some(try columnTypes(of: w.table, on: db)) }
      let problem = w.columnProblem(checked[w.table] ?? nil)
      if let problem {
        if w.failure?.message != problem.message { out[ObjectIdentifier(w)] = .error(w, problem) }
        w.failure = problem
      } else {
        w.failure = nil
      }
    }
    var active = watched.filter { $0.failure == nil }
    if !keys.isEmpty { active = try applyRows(keys, to: active, on: db, into: &out) }
    var groups: [PostgresLiveShape: [PostgresLiveWatcher]] = [:]
    var alone: [PostgresLiveWatcher] = []
    for w in active {
      if let shape = PostgresLiveShape(w.statement) { groups[shape, default: []].append(w) } else { alone.append(w) }
    }
    for (shape, members) in groups where members.count == 1 {
      groups[shape] = nil
      alone += members
    }
    for (shape, members) in groups {
      let shared = shape.statement(for: members.map(\.statement))
      let rows: [[SQLValue]]
      do throws(SiftError) {
        queriesRun += 1
        rows = try db.execute(shared)
      } catch let e where !Self.isConnectionLoss(e) {
        for w in members { out[ObjectIdentifier(w)] = .error(w, e) }
        continue
      }
      var split = [[[SQLValue]]](repeating: [], count: members.count)
      for r in rows {
        guard case .integer(let i)? = r.first, i >= 0, i < members.count else { continue }
        split[Int(i)].append(Array(r.dropFirst()))
      }
      for (w, rows) in zip(members, split) { out[ObjectIdentifier(w)] = Self.event(w, rows) }
    }
    for w in alone {
      do throws(SiftError) {
        queriesRun += 1
        let rows = try db.execute(w.statement)
        out[ObjectIdentifier(w)] = Self.event(w, rows)
      } catch let e where !Self.isConnectionLoss(e) {
        out[ObjectIdentifier(w)] = .error(w, e)
      }
    }
    return watched.compactMap { out[ObjectIdentifier($0)] }
  }

  /// The watcher's change set for its new rows: nil when nothing changed.
  static func event(_ w: PostgresLiveWatcher, _ rows: [[SQLValue]]) -> PostgresLiveEvent? {
    do {
      let changes = try w.apply(rows)
      return changes.isEmpty ? nil : .changes(w, changes)
    } catch {
      return .error(w, error)
    }
  }

  /// True when `error` means the session is gone: libpq's own errors (no SQLSTATE), class 08
  /// (connection exception) and 57P (the server shut the session: `pg_terminate_backend`, a
  /// restart). The connection is then replaced, never reused: libpq's reset would give a
  /// session without Sift's settings (search path, read-only, UTC).
  static func isConnectionLoss(_ error: SiftError) -> Bool {
    if error.id == DiagnosticID.postgresConnection.rawValue || error.id == DiagnosticID.liveConnectionLost.rawValue {
      return true
    }
    guard let cause = error.underlying as? PostgresError else { return false }
    guard let state = cause.sqlState else { return cause.kind == .query || cause.kind == .connection }
    return state.hasPrefix("08") || state.hasPrefix("57P")
  }

  /// Drops the connection after `error` and reports it once; `refresh` reconnects.
  func lost(_ error: SiftError) -> [PostgresLiveEvent] {
    guard Self.isConnectionLoss(error) else { return [.error(nil, error)] }
    source.stop()
    database?.close()
    database = nil
    backoff = Self.firstBackoff
    nextAttempt = Date().addingTimeInterval(backoff)
    return [
      .error(
        nil,
        SiftError(
          stage: .live, id: .liveConnectionLost,
          message: "lost the connection to PostgreSQL (\(error.message)); reconnecting", underlying: error))
    ]
  }

  /// Connects again when the backoff allows within `timeout` seconds; then restarts the source
  /// and resynchronises every watcher (one change set each from its last state).
  func reconnect(within timeout: Double) -> [PostgresLiveEvent] {
    let wait = nextAttempt.timeIntervalSinceNow
    if wait > timeout {
      if timeout > 0 { Thread.sleep(forTimeInterval: timeout) }
      return []
    }
    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    do throws(SiftError) {
      let db = try Self.connect(conninfo, schema: schemaName, timeouts: timeouts)
      do throws(SiftError) {
        try source.start(database: db, conninfo: conninfo)
        database = db
        reconnections += 1
        backoff = Self.firstBackoff
        return try rerun(nil, on: db)
      } catch {
        source.stop()
        db.close()
        database = nil
        throw error
      }
    } catch {
      backoff = min(backoff * 2, Self.lastBackoff)
      nextAttempt = Date().addingTimeInterval(backoff)
      return Self.isConnectionLoss(error) ? [] : [.error(nil, error)]
    }
  }
}

extension PostgresLiveWatcher {
  /// Why the watcher cannot follow its table with these column types (nil: the table is gone).
  func columnProblem(_ types: [String: String]?) -> SiftError? {
    guard let types else {
      return SiftError(stage: .live, id: .liveColumnChanged, message: "\(table) was dropped (or renamed)")
    }
    for c in readColumns {
      guard let now = types[c] else {
        return SiftError(
          stage: .live, id: .liveColumnChanged,
          message: "column '\(c)' of \(table), which the live fetch reads, was dropped (or renamed)")
      }
      if let before = columnTypes[c], before != now {
        return SiftError(
          stage: .live, id: .liveColumnChanged,
          message: "column '\(c)' of \(table), which the live fetch reads, changed type from \(before) to \(now)")
      }
    }
    return nil
  }
}
