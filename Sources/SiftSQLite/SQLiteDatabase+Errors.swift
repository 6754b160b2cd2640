import CSQLite
import SiftSQL
import SiftSyntax

// How SQLite's failures become Sift's errors: the file that cannot be opened, a statement's
// error (memory's id when one of Sift's own functions raised it, `foreign-key-violation` when a
// declared key refused a write), and `sqlite-locked` once a transient state outlasts the wait.
extension SQLiteDatabase {
  /// `sqlite-open`: `path` cannot be opened, `why` in SQLite's or Sift's words.
  static func openError(_ path: String, _ why: String) -> SiftError {
    SiftError(
      stage: .sql, diagnostic: SiftDiagnostic(id: .sqliteOpen, message: "cannot open \(path): \(why)", range: .at(0)),
      source: "")
  }

  static func error(_ message: String, sql: String) -> SiftError {
    // Sift's own functions name memory's id first (`SQLiteFunctions.orderableFunction`).
    var id = DiagnosticID.sqliteError
    var text = message
    for own in [DiagnosticID.incomparableValues, .notAString, .notACollection, .integerOverflow]
    where message.hasPrefix(own.rawValue + ": ") {
      id = own
      text = String(message.dropFirst(own.rawValue.count + 2))
    }
    return SiftError(
      stage: .sql,
      diagnostic: SiftDiagnostic(id: id, message: text, range: SiftSourceRange(start: 0, end: sql.utf8.count)),
      source: sql)
  }

  func lastError(_ sql: String) -> SiftError {
    guard let handle else { return SQLiteDatabase.error("database is closed", sql: sql) }
    let code = sqlite3_extended_errcode(handle)
    if SQLiteRetry.isTransient(code) { return lockedError() }
    return SQLiteDatabase.error(String(cString: sqlite3_errmsg(handle)), sql: sql, code: code)
  }

  /// `error(_:sql:)`, with the id `foreign-key-violation` when SQLite's extended result `code`
  /// says a declared foreign key refused the statement (or the `COMMIT` of a deferred one):
  /// `SQLITE_CONSTRAINT_FOREIGNKEY`, or for an `ON DELETE/UPDATE RESTRICT` key, which SQLite
  /// runs as a trigger's `RAISE`, `SQLITE_CONSTRAINT_TRIGGER` with SQLite's own message.
  static func error(_ message: String, sql: String, code: Int32) -> SiftError {
    let foreignKey = code == 787 || (code == 1811 && message == "FOREIGN KEY constraint failed")
    guard foreignKey else { return error(message, sql: sql) }
    return SiftError(
      stage: .sql,
      diagnostic: SiftDiagnostic(
        id: .foreignKeyViolation,
        message: "\(message): the database's declared foreign keys refuse this write (a row would refer to a row "
          + "that is not there)",
        range: SiftSourceRange(start: 0, end: sql.utf8.count)),
      source: sql)
  }

  /// `sqlite-locked`: another connection kept the file locked (or kept rewriting its WAL
  /// index) for longer than this connection waits. One line naming the file and no SQL: the
  /// statement is not what went wrong.
  func lockedError() -> SiftError {
    SiftError(
      stage: .sql,
      diagnostic: SiftDiagnostic(
        id: .sqliteLocked, message: "\(fileName) is " + Self.lockedReason(retryMilliseconds), range: .at(0)),
      source: "")
  }

  /// Why a statement could not run on a locked file, after waiting `milliseconds`.
  static func lockedReason(_ milliseconds: Int32) -> String {
    let waited = milliseconds > 0 ? " (still after waiting \(milliseconds) ms)" : ""
    return "locked by another connection\(waited); try again once it has finished writing"
  }
}
