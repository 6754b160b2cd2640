import SiftEvaluation
import SiftLive
import SiftPostgres
import SiftSQL
import SiftSyntax

/// What a change source that names rows (`PostgresLiveChange.rows`, the push mode) lets the hub
/// do without running the watchers' queries: read the changed rows again by key (one indexed
/// query per table), and evaluate each watcher's predicate on them in memory — the evaluator
/// gives PostgreSQL's answers on decoded rows (the differential tests hold memory == PostgreSQL).
/// Only watchers without limit or offset whose predicate reads the entity's own columns are
/// kept this way; the others (a window, a key path through a relationship, a key that is neither
/// an integer nor text) run their query again.
extension PostgresLiveWatcher {
  /// The text `pgoutput` gives for a key value, or nil for a key kind the row path does not take.
  static func keyText(_ v: SiftValue) -> String? {
    switch v {
    case .int(let i): return String(i)
    case .string(let s): return s
    default: return nil
    }
  }

  /// Brings `results` up to date for the rows with these key texts: `fresh` holds those still
  /// there (decoded records, by key text). Throws when a predicate cannot be evaluated (the hub
  /// then runs the query).
  func apply(changed keys: Set<String>, fresh: [String: [String: SiftValue]]) throws(SiftError) -> SiftChangeSet<
    SiftValue
  > {
    guard let matcher = rowMatcher else { throw SiftError.live("not kept by rows") }
    var edits: [SiftLiveEdit<SiftValue, [String: SiftValue]>] = []
    for text in keys.sorted() {
      let held = [SiftValue.string(text)] + (Int64(text).map { [SiftValue.int($0)] } ?? [])
      let old = held.first { results.record(for: $0) != nil }
      var matches = false
      if let row = fresh[text] {
        matches = try matcher.matches(row)
        guard let id = row[key] else { continue }
        if matches, let old, old == id {
          if results.record(for: id) != row { edits.append(.update(id, row)) }
          continue
        }
        if matches {
          if let old { edits.append(.delete(old)) }
          edits.append(.insert(id, row))
          continue
        }
      }
      if let old, !matches { edits.append(.delete(old)) }
    }
    return try results.apply(edits)
  }
}

extension PostgresLiveHub {
  /// The matcher a watcher is kept with from re-read rows, or nil when it must run its query.
  static func rowMatcher(
    for request: SiftFetchRequest, columns: SiftRowColumns, readColumns: [String]
  ) -> SiftMatcher? {
    guard request.limit == nil, (request.offset ?? 0) == 0, readColumns.count == columns.names.count else {
      return nil
    }
    guard let p = request.predicate else { return try? SiftPredicate(format: "TRUEPREDICATE").compile() }
    // The predicate reads only the columns the rows hold (a query policy allowing just those).
    guard let own = try? SiftQueryPolicy(keys: Set(columns.names)), (try? own.check(p)) != nil else { return nil }
    return try? p.compile()
  }

  /// Brings the row-kept watchers of each table up to date from its changed keys; returns their
  /// events and the watchers that must run their query instead.
  func applyRows(
    _ changed: [PostgresLiveTableName: Set<String>], to watchers: [PostgresLiveWatcher], on db: PostgresDatabase,
    into out: inout [ObjectIdentifier: PostgresLiveEvent]
  ) throws(SiftError) -> [PostgresLiveWatcher] {
    var requery: [PostgresLiveWatcher] = []
    var kept: [String: [PostgresLiveWatcher]] = [:]
    for w in watchers {
      guard changed[w.table] != nil, w.rowMatcher != nil, let keyColumn = w.keyColumn, w.columnTypes[keyColumn] != nil
      else {
        requery.append(w)
        continue
      }
      kept["\(w.table.quoted) \(keyColumn)", default: []].append(w)
    }
    for (_, ws) in kept.sorted(by: { $0.key < $1.key }) {
      guard let first = ws.first, let keys = changed[first.table], let keyColumn = first.keyColumn,
        let type = first.columnTypes[keyColumn]
      else { continue }
      let q = PostgresDatabase.quoteIdentifier
      let statement = SQLStatement(
        sql: "SELECT " + first.readColumns.map(q).joined(separator: ", ") + " FROM " + first.table.quoted + " WHERE "
          + q(keyColumn) + " = ANY($1::text[]::" + type + "[])",
        bindings: [.text("{" + keys.sorted().map { PostgresLiveShape.element(.text($0)) }.joined(separator: ",") + "}")]
      )
      let rows: [[SQLValue]]
      do throws(SiftError) {
        queriesRun += 1
        rows = try db.execute(statement)
      } catch let e where !Self.isConnectionLoss(e) {
        requery += ws
        continue
      }
      let records: [(id: SiftValue, record: [String: SiftValue])]
      do throws(SiftError) {
        records = try PostgresLiveWatcher.records(rows, columns: first.columns, key: first.key, table: first.table)
      } catch {
        requery += ws
        continue
      }
      var fresh: [String: [String: SiftValue]] = [:]
      for r in records { if let t = PostgresLiveWatcher.keyText(r.id) { fresh[t] = r.record } }
      for w in ws {
        do throws(SiftError) {
          let cs = try w.apply(changed: keys, fresh: fresh)
          if !cs.isEmpty { out[ObjectIdentifier(w)] = .changes(w, cs) }
        } catch {
          requery.append(w)
        }
      }
    }
    return requery
  }
}
