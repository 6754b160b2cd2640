import Foundation
import SiftLive
import SiftLivePostgres
import SiftLiveSQLite
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `.watch` on a table of an SQLite file: the live table `sift watch --db` uses
/// (`SQLiteLiveTable`, its own connection to the file: read-only, or writable with `sift --db
/// FILE --write`). Its records are the table's columns as stored. Commits made by other
/// programs are shown the next time `.watch` or an edit runs.
extension REPLSession {
  /// Why `.watch` (and so `.insert`, `.update`, `.delete`) does not apply to `e`, or nil.
  func watchRefusal(_ e: SQLEntity, _ db: ExistingDatabase) -> String? {
    if db.coreData != nil {
      return
        ".watch reads a table's columns as stored, and a Core Data store (\(db.label)) is written only with Core Data's bookkeeping: use a predicate, .count or .compare on \(e.name)"
    }
    if e.isView, db.kind != .postgres {
      return ".watch follows a table by its key; \(e.name) is a view: use a predicate or .count"
    }
    return nil
  }

  func watchTable(_ text: String, section: String?, idKey: String?, _ e: SQLEntity, _ db: ExistingDatabase)
    -> REPLResponse
  {
    if let why = watchRefusal(e, db) { return .refusal(errorLine(why)) }
    let format = text.isEmpty ? (lastPredicate ?? "TRUEPREDICATE") : text
    let predicate: SiftPredicate
    switch prepare(format) {
    case .success(let p): predicate = p
    case .failure(let error): return .failure(render(error))
    }
    if let pg = db.postgres { return watchPostgres(predicate, section: section, idKey: idKey, e, pg, label: db.label) }
    let path = (db.label as NSString).expandingTildeInPath
    do {
      let table = try WatchCommand.sqlite(
        path, entity: e.table, writable: sql.writable, key: idKey.map { e.attribute($0)?.column ?? $0 },
        predicate: predicate,
        sorts: sort, section: section)
      let w = REPLWatch(live: table.results, idKey: table.key, entity: e.name, table: table, writable: sql.writable)
      watching = w
      var out = "watching \(e.name) in \(db.label) where \(predicate.predicateFormat)"
      if !sort.isEmpty { out += ", sorted by " + sort.map(\.description).joined(separator: ", ") }
      if let section { out += ", sections by \(section)" }
      out += sql.writable ? " (edits are written to the table)" : " (read-only: start with --write to write edits)"
      return .ok(out + "\n" + sectionSummary(w))
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }

  /// `.watch` on a PostgreSQL table or view: a read-only live hub of its own (`PostgresLiveHub`,
  /// polling `pg_current_snapshot()`); other programs' commits show at the next `.watch`.
  func watchPostgres(
    _ predicate: SiftPredicate, section: String?, idKey: String?, _ e: SQLEntity,
    _ pg: (conninfo: String, schema: String), label: String
  ) -> REPLResponse {
    do {
      let hub = try PostgresLiveHub(conninfo: pg.conninfo, schema: pg.schema)
      let request = SiftFetchRequest(entity: e.name, predicate: predicate, sortDescriptors: sort)
      let watcher = try hub.watch(request, sectionKeyPath: section, key: idKey)
      let w = REPLWatch(live: watcher.results, idKey: watcher.key, entity: e.name)
      w.hub = hub
      watching = w
      var out = "watching \(e.name) in \(label) where \(predicate.predicateFormat)"
      if !sort.isEmpty { out += ", sorted by " + sort.map(\.description).joined(separator: ", ") }
      if let section { out += ", sections by \(section)" }
      out += " (read-only: .watch shows what other programs commit)"
      return .ok(out + "\n" + sectionSummary(w))
    } catch {
      return .failure(errorLine(error.message))
    }
  }

  /// What other connections committed to the watched table since the last look, as the
  /// delegate calls it caused (nothing when nothing changed or the watch is in memory).
  func externalChanges(_ w: REPLWatch) -> String {
    if let hub = w.hub {
      var out = ""
      let before = w.live.sections
      for event in hub.refresh() {
        switch event {
        case .changes(_, let changes):
          out += "committed elsewhere:\n" + delegateCalls(changes, before: before, after: w.live.sections)
        case .error(_, let error): out += errorLine(error.message)
        }
      }
      return out
    }
    guard let table = w.table else { return "" }
    let before = w.live.sections
    do {
      guard let changes = try table.refresh(), !changes.isEmpty else { return "" }
      return "committed elsewhere:\n" + delegateCalls(changes, before: before, after: w.live.sections)
    } catch {
      return errorLine("\(error)")
    }
  }
}
