import Foundation
import SiftEvaluation
import SiftLive
import SiftSQL
import SiftSQLite
import SiftSyntax

/// Live results over one SQLite table (Grammar/notes/live.md): the rows are fetched once into
/// `results`; `write` runs edits on the database in one SQL transaction and then re-reads only
/// the rows it touched. Changes made on the same connection by other means (raw SQL, triggers)
/// are collected by rowid with SQLite's update hook (`SQLiteDatabase.observeRowChanges(of:)`)
/// and `refresh` re-reads only those rows once their transaction commits; commits by other
/// connections or processes are noticed with `PRAGMA data_version` (one cheap query), and only
/// then is the table re-read and diffed by key. Each returns the change set of `results`.
///
/// Identifiers come from the table's own columns (`PRAGMA table_info`), quoted; every value is
/// bound. Nothing is created in the database. A connection opened read-only can watch but not
/// write.
///
/// ```swift
/// let db = try SQLiteDatabase(path: "shop.sqlite")
/// let table = try SQLiteLiveTable(database: db, table: "Venue", predicate: try SiftPredicate(format: "rating > 2"),
///                                 sortDescriptors: try SiftSortDescriptor.parseList("rating desc"))
/// let changes = try table.write([.update(.int(7), set: ["rating": 5])])
/// if let external = try table.refresh() { print(external.inserted) }
/// ```
public final class SQLiteLiveTable {
  /// One edit written to the table.
  public enum Edit {
    /// Inserts a row; the record must hold the key column.
    case insert([String: SiftValue])
    /// Sets these columns of the row with this key.
    case update(SiftValue, set: [String: SiftValue])
    /// Deletes the row with this key.
    case delete(SiftValue)
  }

  /// The connection.
  public let database: SQLiteDatabase
  /// The table name.
  public let table: String
  /// The key column (the primary key unless another was named).
  public let key: String
  /// How rows become records when the table is watched by entity (`SQLiteLiveShape`); nil:
  /// records by column.
  public let shape: SQLiteLiveShape?
  /// The key's name in a record (its attribute name with a shape, else the column).
  var recordKey: String { shape?.name(of: key) ?? key }
  /// The table's columns, in order.
  public let columns: [String]
  /// How each column stores its values (dates, booleans), read from the database's schema:
  /// writes store values the way the column already does.
  let codecs: [String: SQLColumnCodec]
  /// The live results, keyed by the key column's value.
  public let results: SiftLiveResults<SiftValue, [String: SiftValue]>
  var dataVersion: Int64
  /// This connection's own changes to the table, by rowid.
  let observer: SQLiteRowChangeObserver
  /// Which key each rowid holds and where each key lives (empty without rowids).
  var rowKeys: [Int64: SiftValue] = [:]
  var keyRows: [SiftValue: Int64] = [:]
  /// A UNIQUE constraint besides the key's own: REPLACE conflict resolution may delete rows
  /// silently, so the row count is checked after own changes (SQLiteLiveTable+OwnChanges.swift).
  let hasOtherUniqueIndex: Bool
  /// A Core Data store's table: updates keep `Z_OPT`; inserts and deletes are refused
  /// (SQLiteLiveTable+CoreData.swift).
  let isCoreDataTable: Bool
  /// Set when a full re-read was due but failed, so the next `refresh()` does it.
  var needsFullReread = false
  /// While `write` runs: what puts `results` back as they were, one list per change applied
  /// (SQLiteLiveTable+FailedWrites.swift); nil outside a write.
  var undo: [[(id: SiftValue, record: [String: SiftValue]?, sequence: Int?)]]?
  /// How many times the whole table was read again since init: after other connections'
  /// commits, and for own changes SQLite does not report by rowid (Grammar/notes/live.md).
  ///
  /// ```swift
  /// _ = try table.refresh()
  /// table.fullRereads   // 0 when only this connection changed rows of a rowid table
  /// ```
  public internal(set) var fullRereads = 0

  /// Reads the table and fetches its rows.
  ///
  /// - Throws: `SiftError` (stage `.live`): no such table, no single-column primary key and no `key`
  ///   named, a row without a key, or a predicate that fails on a row.
  public init(
    database: SQLiteDatabase, table: String, key: String? = nil, predicate: SiftPredicate?,
    sortDescriptors: [SiftSortDescriptor], sectionKeyPath: String? = nil, shape: SQLiteLiveShape? = nil
  ) throws(SiftError) {
    self.database = database
    self.table = table
    self.shape = shape
    let info = try Self.run(database, SQLStatement(sql: "PRAGMA table_info(\(Self.quote(table)))"))
    guard !info.isEmpty else { throw SiftError.live("no table '\(table)' in the database") }
    let columns = info.compactMap { if case .text(let n)? = $0.dropFirst().first { n } else { nil } }
    self.columns = columns
    let primary = info.filter { if case .integer(let p)? = $0.last { p > 0 } else { false } }
      .compactMap { if case .text(let n)? = $0.dropFirst().first { n } else { nil } }
    let keyColumn: String
    if let key {
      guard columns.contains(key) else {
        throw SiftError.live("table '\(table)' has no column '\(key)' (columns: \(columns.joined(separator: ", ")))")
      }
      self.key = key
      keyColumn = key
    } else {
      guard primary.count == 1, let only = primary.first else {
        throw SiftError.live("table '\(table)' has no single-column primary key; name the key column")
      }
      self.key = only
      keyColumn = only
    }
    codecs = Self.codecs(database, table: table)
    isCoreDataTable = Self.isCoreDataTable(database, columns: columns)
    observer = database.observeRowChanges(of: table)
    hasOtherUniqueIndex = try Self.hasUniqueIndex(database, table: table, besides: keyColumn)
    dataVersion = try Self.dataVersion(database)
    let (records, rowids) = try Self.readAll(
      database, table: table, columns: columns, codecs: codecs, rowids: observer.hasRowids, shape: shape)
    var ids: [SiftValue] = []
    for (i, r) in records.enumerated() {
      guard let id = r[shape?.name(of: keyColumn) ?? keyColumn], id != .null else {
        throw SiftError.live("row \(i + 1) of '\(table)' has no \(keyColumn)")
      }
      ids.append(id)
    }
    results = try SiftLiveResults(
      records: records, ids: ids, predicate: predicate, sortDescriptors: sortDescriptors, sectionKeyPath: sectionKeyPath
    )
    remember(rowids: rowids, ids: ids)
  }

  /// Applies what was committed since the last look, and nil when nothing was: this
  /// connection's own changes made outside `write` (raw SQL, triggers; re-reads only their
  /// rows) and commits by other connections (`PRAGMA data_version`; re-reads the table and
  /// compares by key: inserts, updates of rows whose values differ, deletes). While the
  /// connection is inside a transaction it returns nil and waits for the commit.
  ///
  /// ```swift
  /// try db.executeScript("UPDATE Venue SET rating = 1 WHERE id = 3")
  /// if let changes = try table.refresh() { render(changes) }
  /// ```
  public func refresh() throws(SiftError) -> SiftChangeSet<SiftValue>? {
    guard !database.isInTransaction else { return nil }
    let version = try Self.dataVersion(database)
    let own = observer.takeCommitted()
    if version != dataVersion || needsFullReread {
      dataVersion = version
      return try fullReread(touched: [])
    }
    switch own {
    case .none: return nil
    case .unknown: return try fullReread(touched: [])
    case .rows(let rowids): return try ownChanges(rowids, touched: [])
    }
  }

  /// Writes `edits` in one SQL transaction (all or nothing), then re-reads only the touched
  /// rows and returns the change set.
  ///
  /// ```swift
  /// try table.write([.insert(["id": 12, "name": "Kiosk"]), .delete(.int(3))])
  /// ```
  /// - Throws: `SiftError` (stage `.live`): an unknown column or key, a value SQLite cannot store (an array
  ///   or dictionary), or the database's own error (a constraint, a read-only connection).
  public func write(_ edits: [Edit]) throws(SiftError) -> SiftChangeSet<SiftValue> {
    var statements: [SQLStatement] = []
    var touched: [SiftValue] = []
    for e in edits {
      let e = columnNamed(e)
      if let refusal = coreDataRefusal(e) { throw refusal }
      switch e {
      case .insert(let r):
        guard let id = r[key], id != .null else { throw SiftError.live("the inserted record has no '\(key)'") }
        let names = r.keys.sorted()
        try checkColumns(names)
        statements.append(
          SQLStatement(
            sql:
              "INSERT INTO \(Self.quote(table)) (\(Self.columnList(names))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
            bindings: try names.map { n throws(SiftError) in try self.sqlValue(r[n] ?? .null, column: n) }))
        touched.append(id)
      case .update(let id, let set):
        if let newID = set[key], newID != id { throw SiftError.live("update cannot change '\(key)'") }
        let names = set.keys.sorted()
        try checkColumns(names)
        guard !names.isEmpty else { touched.append(id); continue }
        statements.append(
          SQLStatement(
            sql:
              "UPDATE \(Self.quote(table)) SET \(names.map { "\(Self.quote($0)) = ?" }.joined(separator: ", "))\(bookkeepingSet)"
              + " WHERE \(Self.quote(key)) = ?",
            bindings: try names.map { n throws(SiftError) in try self.sqlValue(set[n] ?? .null, column: n) } + [
              try self.sqlValue(id, column: key)
            ]))
        touched.append(id)
      case .delete(let id):
        statements.append(
          SQLStatement(
            sql: "DELETE FROM \(Self.quote(table)) WHERE \(Self.quote(key)) = ?",
            bindings: [try self.sqlValue(id, column: key)]))
        touched.append(id)
      }
    }
    // Unknown ids: checked against the rows as they will be after the earlier edits.
    var exists: [SiftValue: Bool] = [:]
    for (e, id) in zip(edits, touched) {
      let present = exists[id] ?? (results.record(for: id) != nil)
      switch e {
      case .insert: if present { throw SiftError.live("an object with id \(SiftJSON.serialize(id)) already exists") }
      case .update, .delete: if !present { throw SiftError.live("no object with id \(SiftJSON.serialize(id))") }
      }
      if case .delete = e { exists[id] = false } else { exists[id] = true }
    }
    // Commits by others are not absorbed here: the next `refresh()` reports them (the rows
    // this write touched are already current then, so they do not show twice).
    var vanished: SQLValue?
    // The database's declared foreign keys act on the write (SQLite enforces them only with the
    // pragma on, which does nothing inside a transaction): cascades run, a refused edit fails.
    let restoreForeignKeys = try foreignKeysOn()
    defer { if restoreForeignKeys { try? database.executeScript("PRAGMA foreign_keys = OFF") } }
    do throws(SiftError) {
      try database.executeScript("BEGIN IMMEDIATE")
      do throws(SiftError) {
        for s in statements {
          _ = try database.execute(s)
          // An update or delete that changed no row found its row gone (another program
          // deleted it or changed its key): an error, not an empty change; nothing is written.
          guard s.sql.hasPrefix("UPDATE ") || s.sql.hasPrefix("DELETE "), let id = s.bindings.last else { continue }
          if try database.execute(SQLStatement(sql: "SELECT changes()")).first?.first == .integer(0) {
            try? database.executeScript("ROLLBACK")
            vanished = id
            break
          }
        }
      } catch {
        try? database.executeScript("ROLLBACK")
        throw error
      }
    } catch {
      throw refusal(error)
    }
    if let vanished {
      throw SiftError.live(
        "\(table): no row with \(key) = \(Self.shown(vanished)) is there any more (another program deleted it or changed "
          + "its key); nothing was written")
    }
    // The update hook saw every row the write changed (and rows its triggers changed). The
    // change set is made before COMMIT: rows the results cannot take (a sort key of another
    // kind, a predicate that fails on them) roll the write back, so a refused edit changes
    // nothing. A COMMIT that fails (a deferred foreign key, a full disk) rolls back too, and
    // either way the results are put back as they were (`undo`): what was never committed is
    // never reported, not even as another program's change by the next `refresh()`.
    let changes: SiftChangeSet<SiftValue>
    undo = []
    defer { undo = nil }
    do throws(SiftError) {
      switch observer.takeUncommitted() {
      case .rows(let rowids): changes = try ownChanges(rowids, touched: touched)
      case .none: changes = try ownChanges([:], touched: touched)
      case .unknown: changes = try fullReread(touched: touched)
      }
    } catch {
      try? database.executeScript("ROLLBACK")
      undoResults()
      throw error
    }
    do throws(SiftError) {
      try database.executeScript("COMMIT")
    } catch {
      try? database.executeScript("ROLLBACK")
      undoResults()
      throw refusal(error)
    }
    return changes
  }

  /// A key value as the error names it (`2`, `"a"`).
  static func shown(_ value: SQLValue) -> String {
    switch value {
    case .integer(let n): return String(n)
    case .double(let d): return String(d)
    case .text(let t): return SiftJSON.serialize(.string(t))
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .blob(let d): return "<\(d.count) bytes>"
    }
  }

  func checkColumns(_ names: [String]) throws(SiftError) {
    for n in names where !columns.contains(n) {
      throw SiftError.live("table '\(table)' has no column '\(n)'")
    }
  }
}
