import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

@testable import SiftCLI

/// Errors that said something else than what went wrong (issue #35, item 9): a locked file at
/// `sift watch` start, an index name another object holds, a refused scratch schema.
@Suite("Clear errors")
struct ClearErrorTests {
  static func venues(_ dir: URL) throws -> String {
    let path = dir.appendingPathComponent("venues.sqlite").path
    try SQLiteDatabase(path: path).executeScript(
      """
      PRAGMA journal_mode = DELETE;
      CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, rating INTEGER);
      INSERT INTO Venue VALUES (1, 'Alpha', 5), (2, 'Bravo', 3);
      """)
    return path
  }

  static func tempDir() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-clear-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// 9a: another program holds the file locked when `sift watch` starts. It waits the busy
  /// timeout, then names the file and the lock, in both modes; never Sift's own
  /// `SELECT … FROM sqlite_master` with a caret.
  @Test func watchOnALockedFileNamesTheFileAndTheLock() throws {
    let dir = try Self.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.venues(dir)
    let holder = try SQLiteDatabase(path: path)
    try holder.executeScript("BEGIN EXCLUSIVE; UPDATE Venue SET rating = 4 WHERE id = 2")
    for writable in [true, false] {
      do {
        _ = try WatchCommand.sqlite(
          path, entity: "Venue", writable: writable, key: nil, predicate: .truePredicate, sorts: [], section: nil)
        Issue.record("watch started on a locked file (writable: \(writable))")
      } catch {
        let text = "\(error)"
        #expect(text.contains(path) && text.contains("locked by another connection"), "\(writable): \(text)")
        #expect(!text.contains("SELECT") && !text.contains("^"), "\(writable): \(text)")
      }
    }
    try holder.executeScript("ROLLBACK")
    let table = try WatchCommand.sqlite(
      path, entity: "Venue", writable: true, key: nil, predicate: .truePredicate, sorts: [], section: nil)
    #expect(table.results.count == 2)
  }

  /// 9b: a name another index (or a table) holds is named with what holds it; the fold index
  /// itself is still "already exists".
  @Test func indexNameTakenBySomethingElseIsNamed() throws {
    let dir = try Self.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.venues(dir)
    try SQLiteDatabase(path: path).executeScript(
      """
      CREATE TABLE other (x TEXT);
      CREATE INDEX "Venue_name_sift_fold_c" ON other (x);
      CREATE TABLE venue_rating_sift_fold_c (y);
      """)
    func refusal(_ column: String) throws -> String {
      do {
        _ = try IndexCommand.createFoldIndex(path: path, table: "Venue", column: column, code: 1, options: "c")
      } catch {
        return "\(error)"
      }
      Issue.record("sift index wrote over \(column)'s taken name")
      return ""
    }
    let byIndex = try refusal("name")
    let expected =
      #"cannot create index "Venue_name_sift_fold_c" in \#(path): the name is taken by index "#
      + #""Venue_name_sift_fold_c" on table "other" (CREATE INDEX "Venue_name_sift_fold_c" ON other (x)); "#
      + "nothing written"
    #expect(byIndex.hasPrefix(expected), "\(byIndex)")
    let byTable = try refusal("rating")
    #expect(byTable.contains(#"the name is taken by table "venue_rating_sift_fold_c" (CREATE TABLE"#), "\(byTable)")
    try SQLiteDatabase(path: path).executeScript(#"DROP INDEX "Venue_name_sift_fold_c""#)
    #expect(
      try IndexCommand.createFoldIndex(path: path, table: "Venue", column: "name", code: 1, options: "c")
        .hasPrefix("created index"))
    #expect(
      try IndexCommand.createFoldIndex(path: path, table: "Venue", column: "name", code: 1, options: "c")
        .hasSuffix("already exists in \(path); nothing written"))
  }

  /// 9c: the server took the connection but refused the REPL's scratch schema (here: a
  /// read-only session): said so, with the server's reason, not "cannot connect".
  @Test(.enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
  func refusedScratchSchemaIsNotAConnectionFailure() throws {
    let conninfo = try #require(REPLPostgres.conninfo)
    let session = REPLSession()
    let text = session.execute(".connect " + conninfo + " options='-c default_transaction_read_only=on'").text
    let refused = "error: connected to PostgreSQL, but it refused the REPL's scratch schema (sift_repl_…"
    #expect(text.hasPrefix(refused), "\(text)")
    #expect(text.contains("read-only transaction") && !text.contains("cannot connect"), "\(text)")
    #expect(session.execute(".connect " + conninfo).text.hasPrefix("connected to PostgreSQL (schema sift_repl_"))
  }
}
