import CSQLite
import Foundation
import SiftSQL
import SiftSyntax

/// A SQLite connection (in-memory or a file) that runs Sift's statements.
///
/// On open it turns off double-quoted string literals (`SQLITE_DBCONFIG_DQS_DML/DDL = 0`,
/// so a misspelled `"column"` is an error, not a string) and registers the Sift functions
/// (`sift_fold`, `sift_search`, `sift_like`, `sift_matches`, `regexp`, `sift_pow`, math and
/// case functions, the `SIFT_LOCALIZED` collation) that share their definitions with
/// in-memory evaluation. Prepared statements are cached by SQL text.
///
/// Not thread-safe: use one connection per thread.
///
/// ```swift
/// let db = try SQLiteDatabase()                       // in-memory
/// try db.load(records, entity: "Venue", schema: schema, dialect: SQLiteDialect())
/// let rows = try db.execute(try compiler.compile(SiftFetchRequest(entity: "Venue", resultType: .count)))
/// ```
public final class SQLiteDatabase: SQLDatabase {
  private(set) var handle: OpaquePointer?
  /// The update, commit and rollback hooks' state once `observeRowChanges(of:)` was called
  /// (SQLiteDatabase+RowChanges.swift).
  var rowChangeRecorder: SQLiteRowChangeRecorder?
  private var cache: [String: OpaquePointer] = [:]
  /// Schemas given to `fetch`/`fetchCount` already checked against this file (on first use).
  let schemaChecks = SQLSchemaCheckCache()
  /// The deadline this connection's `sift_matches`/`regexp` read (SQLiteDatabase+TimeLimit.swift);
  /// it goes with the handle (`init(adopting:privateCopy:)`).
  private(set) var matchClock = SQLiteMatchClock()
  /// Most prepared statements kept.
  public static let cacheLimit = 64
  /// How long a read-only connection waits for a lock by default, in milliseconds.
  package static let defaultBusyTimeout: Int32 = 200
  /// How long a statement that meets a transient state of a file another program writes
  /// (`SQLiteRetry`) is run again before the failure is reported: the busy timeout of a
  /// read-only connection, 0 (no retry) until `waitWhenLocked(milliseconds:)` for others.
  var retryMilliseconds: Int32 = 0
  /// The file as the caller named it (`:memory:` in memory), for errors.
  var fileName = ":memory:"

  /// Opens `path` (`:memory:` by default), creating the file if needed.
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-error`).
  public init(path: String = ":memory:") throws(SiftError) {
    // An existing FIFO, device or directory is refused before SQLite opens it (a FIFO opened
    // for reading and writing would wait forever for its first bytes).
    var info = SQLiteStatBuffer()
    if path != ":memory:", !path.isEmpty, stat(path, &info) == 0,
      let kind = SQLiteFileCheck.notRegular(SQLiteFileCheck.mode(info))
    {
      throw SQLiteDatabase.openError(path, "it is \(kind), not a database file")
    }
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      if let db { sqlite3_close_v2(db) }
      throw SQLiteDatabase.error(message, sql: path)
    }
    handle = db
    fileName = path
    _ = sift_sqlite3_db_config_int(db, SQLITE_DBCONFIG_DQS_DML, 0)
    _ = sift_sqlite3_db_config_int(db, SQLITE_DBCONFIG_DQS_DDL, 0)
    SQLiteFunctions.register(on: db, clock: matchClock)
  }

  /// Waits up to `milliseconds` for another connection's lock (SQLite's busy timeout) and
  /// runs a statement again through the transient states of a file being written
  /// (`SQLiteRetry`); past that, the error is `sqlite-locked`. A read-only connection does
  /// this from the start, with its `busyTimeout`.
  package func waitWhenLocked(milliseconds: Int32) {
    guard let handle else { return }
    sqlite3_busy_timeout(handle, milliseconds)
    retryMilliseconds = max(0, milliseconds)
  }

  /// Opens an existing database file read-only (`SQLITE_OPEN_READONLY`, never created) and
  /// reads its schema once, so every way the file can be unusable is reported here, as one
  /// line naming the file: missing, not a regular file (a FIFO, a directory, a device: refused
  /// before any byte is read, so a FIFO cannot hang the open), not a database
  /// (`SQLITE_NOTADB`), locked by another connection (after `busyTimeout` milliseconds), left
  /// with an unfinished write (a hot journal), or unreadable. Links are followed to the real
  /// file, relative ones too, so its `-wal`, `-shm` and `-journal` are the real file's. The
  /// connection also sets `PRAGMA query_only`, so no statement run on it can change the file.
  ///
  /// Nothing is created or written beside the file: SQLite opens it through Sift's
  /// `sift-untouched` VFS (the default one without `SQLITE_OPEN_CREATE` for database, WAL and
  /// journal files) with `readonly_shm=1` (a WAL file's `-shm` is mapped read-only). A WAL-mode
  /// file is read in place when its `-wal` and `-shm` exist (another program has it open, or
  /// left them); each statement then sees one committed state, the newest, as any SQLite
  /// reader does. A WAL-mode file whose `-wal` or `-shm` is missing cannot be read in place
  /// without creating them, so it is refused here; `init(untouched:)` reads it from a private
  /// copy instead. The transient states a writer leaves for an instant (its WAL index caught
  /// mid-update: "attempt to write a readonly database" in SQLite's words) are waited out
  /// within `busyTimeout`, like a lock; a statement that still cannot run is `sqlite-locked`.
  ///
  /// ```swift
  /// let db = try SQLiteDatabase(readOnly: "notes.sqlite")
  /// let schema = try db.introspectSchema().schema
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-open`), message e.g.
  ///   `cannot open notes.sqlite: no such file`.
  public convenience init(readOnly path: String, busyTimeout: Int32 = 200) throws(SiftError) {
    try self.init(readOnly: path, busyTimeout: busyTimeout, privateCopy: false)
  }

  /// `init(readOnly:)`; with `privateCopy` the file is Sift's own copy in a private folder, opened
  /// with SQLite's default VFS (which creates `-shm` there to read the copy's `-wal`).
  init(readOnly path: String, busyTimeout: Int32, privateCopy: Bool) throws(SiftError) {
    func failure(_ why: String) -> SiftError { SQLiteDatabase.openError(path, why) }
    let file: SQLiteFileCheck
    switch SQLiteFileCheck.check(path) {
    case .success(let checked): file = checked
    case .failure(let refusal): throw failure(refusal.reason)
    }
    guard let vfs = SQLiteFileCheck.untouchedVFS else { throw failure("SQLite has no default file system layer") }
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
    let rc =
      privateCopy
      ? sqlite3_open_v2(file.realPath, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
      : sqlite3_open_v2(file.readOnlyURI, &db, flags, vfs)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      if let db { sqlite3_close_v2(db) }
      throw failure(message)
    }
    handle = db
    fileName = path
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, busyTimeout)
    retryMilliseconds = max(0, busyTimeout)
    _ = sift_sqlite3_db_config_int(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
    _ = sift_sqlite3_db_config_int(db, SQLITE_DBCONFIG_DQS_DML, 0)
    _ = sift_sqlite3_db_config_int(db, SQLITE_DBCONFIG_DQS_DDL, 0)
    SQLiteFunctions.register(on: db, clock: matchClock)
    // Reading the schema is what reveals a file that is not a database, or a locked one; a
    // transient state of a file being written is waited out (SQLiteRetry).
    var st: OpaquePointer?
    var code = prepareRetrying("SELECT count(*) FROM sqlite_schema", &st)
    if code == SQLITE_OK, let st { code = step(st, firstStep: true) }
    sqlite3_finalize(st)
    if code != SQLITE_ROW {
      code = sqlite3_extended_errcode(db)
      let message = String(cString: sqlite3_errmsg(db))
      sqlite3_close_v2(db)
      handle = nil
      throw failure(SQLiteFileCheck.reason(code: code, message: message, file: file))
    }
    sqlite3_exec(db, "PRAGMA query_only = 1", nil, nil, nil)
    isReadOnly = true
  }

  /// True for a connection opened with `init(readOnly:)`.
  public private(set) var isReadOnly = false

  /// True when `init(untouched:)` read a private copy of the file rather than the file itself.
  var readsPrivateCopy = false

  /// Takes over `other`'s connection (`other` is left closed): how `init(untouched:)` keeps
  /// the connection its retrying opener made.
  init(adopting other: SQLiteDatabase, privateCopy: Bool) {
    handle = other.handle
    matchClock = other.matchClock
    isReadOnly = other.isReadOnly
    retryMilliseconds = other.retryMilliseconds
    fileName = other.fileName
    readsPrivateCopy = privateCopy
    other.handle = nil
  }

  deinit {
    removeRowChangeHooks()
    for (_, st) in cache { sqlite3_finalize(st) }
    if let handle { sqlite3_close_v2(handle) }
  }

  /// Finalizes the cached statements (they are prepared again when next run).
  func clearStatementCache() {
    for (_, st) in cache { sqlite3_finalize(st) }
    cache = [:]
  }

  func prepare(_ sql: String) throws(SiftError) -> OpaquePointer {
    if let st = cache[sql] {
      sqlite3_reset(st)
      sqlite3_clear_bindings(st)
      return st
    }
    var st: OpaquePointer?
    guard prepareRetrying(sql, &st) == SQLITE_OK, let st else {
      sqlite3_finalize(st)
      throw lastError(sql)
    }
    if cache.count >= SQLiteDatabase.cacheLimit, let victim = cache.first {
      sqlite3_finalize(victim.value)
      cache[victim.key] = nil
    }
    cache[sql] = st
    return st
  }

  /// Runs one statement and returns all rows. Integers, doubles, text, blobs and NULL come
  /// back as the matching `SQLValue`.
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-error`), e.g. when the bindings do not
  ///   match the placeholders or a MATCHES pattern is invalid.
  public func execute(_ statement: SQLStatement) throws(SiftError) -> [[SQLValue]] {
    try rows(statement, afterRow: nil)
  }

  /// The connection (nil once closed), for `executeAsync`'s progress handler and interrupt.
  var connectionHandle: OpaquePointer? { handle }

  /// `statement` prepared (from the cache) with its bindings bound; the caller resets it. A
  /// compiled statement's schema is checked against the file first, on its first use
  /// (`SQLStatement.schema`): every way of running a statement goes through here.
  func bound(_ statement: SQLStatement) throws(SiftError) -> OpaquePointer {
    if let schema = statement.schema { try schemaChecks.check(schema, in: self, dialect: SQLiteDialect()) }
    let st = try prepare(statement.sql)
    let expected = Int(sqlite3_bind_parameter_count(st))
    guard expected == statement.bindings.count else {
      sqlite3_reset(st)
      throw SQLiteDatabase.error(
        "statement has \(expected) placeholders but \(statement.bindings.count) bindings", sql: statement.sql)
    }
    for (i, v) in statement.bindings.enumerated() {
      guard SQLiteDatabase.bind(v, to: st, at: Int32(i + 1)) == SQLITE_OK else {
        let error = lastError(statement.sql)
        sqlite3_reset(st)
        throw error
      }
    }
    return st
  }

  /// `execute`'s loop; `afterRow(n)` runs after the n-th row, and its error stops the statement.
  func rows(_ statement: SQLStatement, afterRow: ((Int) throws(SiftError) -> Void)?) throws(SiftError) -> [[SQLValue]] {
    let st = try bound(statement)
    defer { sqlite3_reset(st) }
    var rows: [[SQLValue]] = []
    let columns = sqlite3_column_count(st)
    while true {
      let rc = step(st, firstStep: rows.isEmpty)
      if rc == SQLITE_DONE { break }
      guard rc == SQLITE_ROW else { throw lastError(statement.sql) }
      var row: [SQLValue] = []
      row.reserveCapacity(Int(columns))
      for c in 0..<columns { row.append(SQLiteDatabase.read(st, c)) }
      rows.append(row)
      try afterRow?(rows.count)
    }
    return rows
  }

  /// Prepares `statement` without running or caching it, and checks that it has one binding
  /// per placeholder: a quick test that stored predicates still compile to SQL this database
  /// accepts (a renamed column, a dropped table).
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-error`) with SQLite's message.
  ///
  /// ```swift
  /// try db.check(try compiler.compile(SiftFetchRequest(entity: "Venue", predicate: p)))
  /// ```
  public func check(_ statement: SQLStatement) throws(SiftError) {
    var st: OpaquePointer?
    guard prepareRetrying(statement.sql, &st) == SQLITE_OK, let st else {
      sqlite3_finalize(st)
      throw lastError(statement.sql)
    }
    let expected = Int(sqlite3_bind_parameter_count(st))
    sqlite3_finalize(st)
    guard expected == statement.bindings.count else {
      throw SQLiteDatabase.error(
        "statement has \(expected) placeholders but \(statement.bindings.count) bindings", sql: statement.sql)
    }
  }

  /// Runs a script of statements without bindings.
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-error`).
  public func executeScript(_ sql: String) throws(SiftError) {
    guard let handle else { throw lastError(sql) }
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw SQLiteDatabase.error(text, sql: sql, code: sqlite3_extended_errcode(handle))
    }
  }

  /// The `detail` lines of `EXPLAIN QUERY PLAN` for a statement, e.g.
  /// `SEARCH t0 USING INDEX venue__name__idx (name=?)`.
  ///
  /// ```swift
  /// try db.explainQueryPlan(statement).contains { $0.contains("USING INDEX") }
  /// ```
  public func explainQueryPlan(_ statement: SQLStatement) throws(SiftError) -> [String] {
    let rows = try execute(SQLStatement(sql: "EXPLAIN QUERY PLAN " + statement.sql, bindings: statement.bindings))
    return rows.compactMap { row in
      if case .text(let s)? = row.last { return s }
      return nil
    }
  }

  static func bind(_ v: SQLValue, to st: OpaquePointer, at i: Int32) -> Int32 {
    switch v {
    case .null: return sqlite3_bind_null(st, i)
    case .integer(let n): return sqlite3_bind_int64(st, i, n)
    case .bool(let b): return sqlite3_bind_int64(st, i, b ? 1 : 0)
    case .double(let d): return sqlite3_bind_double(st, i, d)
    case .text(let s):
      var s = s
      return s.withUTF8 { buf in
        guard let base = UnsafeRawPointer(buf.baseAddress), buf.count > 0 else {
          return sqlite3_bind_text64(st, i, "", 0, SQLiteFunctions.transient, UInt8(SQLITE_UTF8))
        }
        return sqlite3_bind_text64(
          st, i, base.assumingMemoryBound(to: CChar.self), UInt64(buf.count), SQLiteFunctions.transient,
          UInt8(SQLITE_UTF8))
      }
    case .blob(let d):
      return d.withUnsafeBytes { buf in
        sqlite3_bind_blob64(
          st, i, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buf.count), SQLiteFunctions.transient)
      }
    }
  }

  static func read(_ st: OpaquePointer, _ c: Int32) -> SQLValue {
    switch sqlite3_column_type(st, c) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(st, c))
    case SQLITE_FLOAT: return .double(sqlite3_column_double(st, c))
    case SQLITE_TEXT:
      let n = Int(sqlite3_column_bytes(st, c))
      guard let p = sqlite3_column_text(st, c) else { return .text("") }
      return .text(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))
    case SQLITE_BLOB:
      let n = Int(sqlite3_column_bytes(st, c))
      guard let p = sqlite3_column_blob(st, c) else { return .blob(Data()) }
      return .blob(Data(bytes: p, count: n))
    default: return .null
    }
  }
}
