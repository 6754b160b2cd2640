import Foundation
import SiftLive
import SiftSQL
import SiftSQLite
import SiftSyntax

/// Catching up with the database: re-reading only the rows the update hook named (this
/// connection's changes), or the whole table (another connection's commit, or changes SQLite
/// names no rowids for). Grammar/notes/live.md lists which is used when.
extension SQLiteLiveTable {
  typealias Edits = [SiftLiveEdit<SiftValue, [String: SiftValue]>]

  /// The table's rows as records (read through `codecs`), in table order, with their rowids
  /// when `rowids`.
  static func readAll(
    _ db: SQLiteDatabase, table: String, columns: [String], codecs: [String: SQLColumnCodec], rowids: Bool,
    shape: SQLiteLiveShape? = nil
  ) throws(SiftError) -> (records: [[String: SiftValue]], rowids: [Int64]) {
    let select = (rowids ? "rowid, " : "") + columnList(columns)
    let rows = try run(db, SQLStatement(sql: "SELECT \(select) FROM \(quote(table))"))
    var ids: [Int64] = []
    if rowids {
      ids.reserveCapacity(rows.count)
      for row in rows { if case .integer(let r)? = row.first { ids.append(r) } else { ids.append(0) } }
    }
    return (
      rows.map { record(rowids ? Array($0.dropFirst()) : $0, columns: columns, codecs: codecs, shape: shape, db: db) },
      ids
    )
  }

  /// True when a UNIQUE index covers other columns than exactly `key` (`PRAGMA index_list`).
  static func hasUniqueIndex(_ db: SQLiteDatabase, table: String, besides key: String) throws(SiftError) -> Bool {
    for index in try run(db, SQLStatement(sql: "PRAGMA index_list(\(quote(table)))")) {
      guard index.count > 2, case .text(let name) = index[1], case .integer(1) = index[2] else { continue }
      let cols = try run(db, SQLStatement(sql: "PRAGMA index_info(\(quote(name)))"))
        .map { row -> String? in if case .text(let c)? = row.last { c } else { nil } }
      if cols != [key] { return true }
    }
    return false
  }

  /// Rebuilds the rowid ↔ key maps; the first row with a key holds it (as in `fullReread`).
  func remember(rowids: [Int64], ids: [SiftValue?]) {
    rowKeys = [:]
    keyRows = [:]
    guard observer.hasRowids else { return }
    rowKeys.reserveCapacity(rowids.count)
    for (r, id) in zip(rowids, ids) {
      guard let id else { continue }
      rowKeys[r] = id
      if keyRows[id] == nil { keyRows[id] = r }
    }
    observer.rowLimit = max(64, rowids.count / 4)
  }

  /// Reads the whole table and compares it with the stored rows by key: rows whose values
  /// differ are updates (and every `touched` key still there), missing keys deletes, new keys
  /// inserts in table order. A key held by several rows counts once, for its first row.
  func fullReread(touched: [SiftValue]) throws(SiftError) -> SiftChangeSet<SiftValue> {
    needsFullReread = true
    fullRereads += 1
    let (records, rowids) = try Self.readAll(
      database, table: table, columns: columns, codecs: codecs, rowids: observer.hasRowids, shape: shape)
    let forced = Set(touched)
    var seen = Set<SiftValue>()
    var ids: [SiftValue?] = []
    var edits: Edits = []
    for r in records {
      guard let id = r[recordKey], id != .null, seen.insert(id).inserted else { ids.append(nil); continue }
      ids.append(id)
      if let old = results.record(for: id) {
        if old != r || forced.contains(id) { edits.append(.update(id, r)) }
      } else {
        edits.append(.insert(id, r))
      }
    }
    for id in results.storedIDs where !seen.contains(id) { edits.append(.delete(id)) }
    let changes = try applyUndoably(edits)
    _ = observer.takeCommitted()  // the re-read saw those too
    remember(rowids: rowids, ids: ids)
    needsFullReread = false
    return changes
  }

  /// Re-reads the rows at these rowids (`SELECT … WHERE rowid = ?`, one indexed lookup each)
  /// and applies what changed; a `touched` key (written by `write`) is an update even when its
  /// values did not change. Falls back to `fullReread` when the rowids do not add up: a rowid
  /// first seen updated that no key held (an UPDATE changed the rowid), a key now held by a
  /// row that was not touched (REPLACE deleted the old row silently, or keys are not unique),
  /// a row without a key, or a row count that differs from the expected one where a UNIQUE
  /// constraint besides the key's lets REPLACE delete rows the update hook never reports.
  func ownChanges(_ changed: [Int64: SQLiteRowOperation], touched: [SiftValue]) throws(SiftError) -> SiftChangeSet<
    SiftValue
  > {
    var oldKeys: [SiftValue: Int64] = [:]
    for (r, op) in changed {
      if let k = rowKeys[r] { oldKeys[k] = r } else if op != .insert { return try fullReread(touched: touched) }
    }
    let select = "SELECT \(Self.columnList(columns)) FROM \(Self.quote(table)) WHERE rowid = ?"
    var now: [SiftValue: (rowid: Int64, record: [String: SiftValue])] = [:]
    for r in changed.keys.sorted() {
      guard let row = try Self.run(database, SQLStatement(sql: select, bindings: [.integer(r)])).first else { continue }
      let record = Self.record(row, columns: columns, codecs: codecs, shape: shape, db: database)
      guard let k = record[recordKey], k != .null, now[k] == nil else { return try fullReread(touched: touched) }
      if let holder = keyRows[k], changed[holder] == nil { return try fullReread(touched: touched) }
      now[k] = (r, record)
    }
    var edits: Edits = []
    for (k, r) in oldKeys where now[k] == nil {
      guard keyRows[k] == r else { return try fullReread(touched: touched) }  // another row holds k
      edits.append(.delete(k))
    }
    var inserts: [(Int64, SiftValue, [String: SiftValue])] = []
    for (k, n) in now {
      if let old = results.record(for: k) {
        if old != n.record { edits.append(.update(k, n.record)) }
      } else {
        inserts.append((n.rowid, k, n.record))
      }
    }
    for k in Set(touched) where now[k] == nil && oldKeys[k] == nil {
      if let r = results.record(for: k) { edits.append(.update(k, r)) }  // an update that set nothing
    }
    for k in Set(touched) {
      // Same values written.
      if let n = now[k], results.record(for: k) == n.record { edits.append(.update(k, n.record)) }
    }
    edits += inserts.sorted { $0.0 < $1.0 }.map { .insert($0.1, $0.2) }
    if hasOtherUniqueIndex, !now.isEmpty {
      // The rows the maps will hold: the changed rowids leave, the ones read again come back.
      let expected = rowKeys.count - changed.keys.filter { rowKeys[$0] != nil }.count + now.count
      let count = try Self.run(database, SQLStatement(sql: "SELECT count(*) FROM \(Self.quote(table))")).first?.first
      guard count == .integer(Int64(expected)) else { return try fullReread(touched: touched) }
    }
    needsFullReread = true  // until the maps below match the results again
    let changes = try applyUndoably(edits)
    needsFullReread = false
    // Updated in place, only now that the results took the edits (a copy would cost O(n)).
    for r in changed.keys { rowKeys[r] = nil }
    for (k, n) in now { rowKeys[n.rowid] = k }
    for (k, r) in oldKeys where keyRows[k] == r { keyRows[k] = nil }
    for (k, n) in now { keyRows[k] = n.rowid }
    return changes
  }
}
