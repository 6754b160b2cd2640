import CSQLite
import Foundation
import SiftSQL
import SiftSyntax

/// What one table's rows went through on this connection since the last
/// `SQLiteRowChangeObserver.takeCommitted()`, counting committed transactions only.
public enum SQLiteRowChanges: Equatable, Sendable {
  /// Nothing committed touched the table.
  case none
  /// These rowids were touched; each with the first operation seen on it (`.update` on a rowid
  /// the caller did not know means an UPDATE changed the rowid: the old rowid left silently).
  case rows([Int64: SQLiteRowOperation])
  /// Changes SQLite reports no rowids for (a WITHOUT ROWID table or a view, an UPDATE that
  /// moved a row onto a rowid deleted in the same window, more rows than the observer's
  /// `rowLimit`): read the whole table again.
  case unknown
}

/// An `sqlite3_update_hook` operation.
public enum SQLiteRowOperation: Sendable {
  /// What happened to the row: inserted, updated or deleted.
  case insert, update, delete
}

/// Collects the rowids one table's rows change by on this connection — raw SQL, triggers,
/// foreign-key actions and Sift's own writes alike — per transaction: a commit adds them to what
/// `takeCommitted()` returns, a rollback forgets them. Created by
/// `SQLiteDatabase.observeRowChanges(of:)`; stops observing when released.
///
/// ```swift
/// let observer = db.observeRowChanges(of: "Venue")
/// try db.executeScript("UPDATE Venue SET rating = 5 WHERE id = 2")
/// if case .rows(let r) = observer.takeCommitted() { print(r.keys) }   // [2]
/// ```
public final class SQLiteRowChangeObserver {
  /// The table observed.
  public let table: String
  /// False for a WITHOUT ROWID table or a view: every commit that changes anything reports `.unknown`.
  public let hasRowids: Bool
  /// Past this many rowids in one window the observer reports `.unknown` instead (re-reading the
  /// table costs less than querying that many rows one by one).
  public var rowLimit = 100_000
  let cName: [CChar]
  var pending = Window()
  var committed = Window()

  struct Entry {
    var first: SQLiteRowOperation
    var present: Bool
  }

  struct Window {
    var rows: [Int64: Entry] = [:]
    var unknown = false
  }

  init(table: String, hasRowids: Bool) {
    self.table = table
    self.hasRowids = hasRowids
    cName = Array(table.utf8CString)
  }

  /// The committed changes since the last call, and forgets them.
  public func takeCommitted() -> SQLiteRowChanges {
    defer { committed = Window() }
    if committed.unknown { return .unknown }
    if committed.rows.isEmpty { return .none }
    return .rows(committed.rows.mapValues(\.first))
  }

  /// Everything changed since the last take, including what the open transaction has done
  /// so far, and forgets it (a caller that works out its change set before `COMMIT`, so it
  /// can still roll back).
  ///
  /// ```swift
  /// try db.executeScript("BEGIN")
  /// try db.executeScript("DELETE FROM Venue WHERE id = 2")
  /// observer.takeUncommitted()   // .rows([2: .delete])
  /// ```
  public func takeUncommitted() -> SQLiteRowChanges {
    commit()
    return takeCommitted()
  }

  func record(_ op: SQLiteRowOperation, _ rowid: Int64) {
    guard !pending.unknown else { return }
    if var e = pending.rows[rowid] {
      // An UPDATE of a rowid deleted in this window moved another row onto it.
      if op == .update && !e.present { pending.unknown = true; return }
      e.present = op != .delete
      pending.rows[rowid] = e
    } else {
      pending.rows[rowid] = Entry(first: op, present: op != .delete)
      if pending.rows.count + committed.rows.count > rowLimit { pending.unknown = true }
    }
    if pending.unknown { pending.rows = [:] }
  }

  /// SQLite calls the commit hook only for transactions that wrote.
  func commit() {
    if !hasRowids { pending.unknown = true }
    if pending.unknown || committed.unknown {
      committed = Window(rows: [:], unknown: true)
    } else {
      for (rowid, e) in pending.rows {
        if let old = committed.rows[rowid] {
          if e.first == .update && !old.present { committed = Window(rows: [:], unknown: true); break }
          committed.rows[rowid] = Entry(first: old.first, present: e.present)
        } else {
          committed.rows[rowid] = e
        }
      }
    }
    pending = Window()
  }
}

/// The hooks' state for one connection; the C callbacks reach it through an unretained pointer
/// (the connection owns it and removes the hooks before it goes).
final class SQLiteRowChangeRecorder {
  var observers: [Weak] = []

  struct Weak { weak var observer: SQLiteRowChangeObserver? }

  var live: [SQLiteRowChangeObserver] { observers.compactMap(\.observer) }

  func row(_ op: Int32, database: UnsafePointer<CChar>?, table: UnsafePointer<CChar>?, rowid: Int64) {
    guard let database, let table, sqlite3_stricmp(database, "main") == 0 else { return }
    let operation: SQLiteRowOperation = op == SQLITE_INSERT ? .insert : op == SQLITE_DELETE ? .delete : .update
    for w in observers {  // called per changed row: no array of the live ones
      guard let o = w.observer, o.cName.withUnsafeBufferPointer({ sqlite3_stricmp($0.baseAddress, table) == 0 }) else {
        continue
      }
      o.record(operation, rowid)
    }
  }

  func commit() {
    for o in live { o.commit() }
  }

  func rollback() {
    for o in live { o.pending = SQLiteRowChangeObserver.Window() }
  }
}

extension SQLiteDatabase {
  /// Starts collecting the rowids `table`'s rows change by on this connection
  /// (`sqlite3_update_hook`, with the commit and rollback hooks marking transactions). While any
  /// observer lives, Sift owns those hooks and an authorizer that turns off SQLite's truncate
  /// optimisation (which deletes all rows of `DELETE FROM t` without calling the update hook);
  /// statements prepared before are prepared again. SQLite calls no hook for WITHOUT ROWID
  /// tables, for rows deleted by REPLACE conflict resolution, or for the old rowid of an UPDATE
  /// that changes the rowid: see `SQLiteRowChanges` and Grammar/notes/live.md.
  ///
  /// ```swift
  /// let observer = db.observeRowChanges(of: "Venue")
  /// ```
  public func observeRowChanges(of table: String) -> SQLiteRowChangeObserver {
    let kind = try? execute(
      SQLStatement(
        sql: "SELECT type FROM sqlite_schema WHERE name = ? COLLATE NOCASE AND type IN ('table', 'view')",
        bindings: [.text(table)]))
    let hasRowids =
      kind == [[.text("table")]] && !hasColumn(named: "rowid", in: table)
      && (try? execute(SQLStatement(sql: "SELECT rowid FROM \(Self.quoted(table)) LIMIT 0"))) != nil
    let observer = SQLiteRowChangeObserver(table: table, hasRowids: hasRowids)
    guard let handle else { return observer }
    let recorder: SQLiteRowChangeRecorder
    if let existing = rowChangeRecorder {
      recorder = existing
    } else {
      recorder = SQLiteRowChangeRecorder()
      rowChangeRecorder = recorder
      installRowChangeHooks(handle, recorder)
    }
    recorder.observers.removeAll { $0.observer == nil }
    recorder.observers.append(.init(observer: observer))
    return observer
  }

  /// True while the connection is inside an explicit transaction (`BEGIN` without its `COMMIT`).
  public var isInTransaction: Bool {
    guard let handle else { return false }
    return sqlite3_get_autocommit(handle) == 0
  }

  static func quoted(_ name: String) -> String { SQLiteDialect().quoteIdentifier(name) }

  func hasColumn(named name: String, in table: String) -> Bool {
    let info = (try? execute(SQLStatement(sql: "PRAGMA table_info(\(Self.quoted(table)))"))) ?? []
    return info.contains { if case .text(let n)? = $0.dropFirst().first { n.lowercased() == name } else { false } }
  }

  /// The C callbacks cannot capture: each gets the recorder as an unretained `void *` context.
  /// Unretained is safe because the connection holds the recorder strongly and removes the
  /// hooks (`removeRowChangeHooks`) before releasing it or closing.
  private func installRowChangeHooks(_ handle: OpaquePointer, _ recorder: SQLiteRowChangeRecorder) {
    let context = Unmanaged.passUnretained(recorder).toOpaque()
    sqlite3_update_hook(
      handle,
      { ctx, op, database, table, rowid in
        guard let ctx else { return }
        Unmanaged<SQLiteRowChangeRecorder>.fromOpaque(ctx).takeUnretainedValue()
          .row(op, database: database, table: table, rowid: rowid)
      }, context)
    sqlite3_commit_hook(
      handle,
      { ctx in
        if let ctx { Unmanaged<SQLiteRowChangeRecorder>.fromOpaque(ctx).takeUnretainedValue().commit() }
        return 0  // 0 lets the commit proceed
      }, context)
    sqlite3_rollback_hook(
      handle,
      { ctx in
        if let ctx { Unmanaged<SQLiteRowChangeRecorder>.fromOpaque(ctx).takeUnretainedValue().rollback() }
      }, context)
    // `DELETE FROM t` without WHERE would empty t without calling the update hook; an authorizer
    // answering SQLITE_IGNORE for SQLITE_DELETE makes SQLite delete row by row (and report each).
    sqlite3_set_authorizer(
      handle,
      { _, action, _, _, _, _ in
        action == SQLITE_DELETE ? SQLITE_IGNORE : SQLITE_OK
      }, nil)
    clearStatementCache()
  }

  /// Removes the hooks and the authorizer (before the connection closes).
  func removeRowChangeHooks() {
    guard let handle, rowChangeRecorder != nil else { return }
    sqlite3_update_hook(handle, nil, nil)
    sqlite3_commit_hook(handle, nil, nil)
    sqlite3_rollback_hook(handle, nil, nil)
    sqlite3_set_authorizer(handle, nil, nil)
    rowChangeRecorder = nil
  }
}
