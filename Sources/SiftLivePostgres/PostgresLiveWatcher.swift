import SiftEvaluation
import SiftLive
import SiftSQL
import SiftSyntax

/// One live fetch on a `PostgresLiveHub`: a `SiftFetchRequest` (predicate, sort, limit and
/// offset) on a PostgreSQL table or view, with an optional section key path, kept current.
/// `results` holds exactly the rows of the fetch's window (what a fresh fetch returns) keyed by
/// the key column, and nothing else: the server decides which rows match and which fall in the
/// window; the watcher diffs each new answer against the rows it holds into one
/// `SiftChangeSet` (Grammar/notes/live.md, "PostgreSQL").
///
/// ```swift
/// let watcher = try hub.watch(SiftFetchRequest(entity: "venue", predicate: p, limit: 20))
/// for event in hub.refresh(timeout: 1) { if case .changes(let w, let cs) = event, w === watcher { render(cs) } }
/// ```
public final class PostgresLiveWatcher {
  /// The fetch as given.
  public let request: SiftFetchRequest
  /// The section key path (nil: one section).
  public let sectionKeyPath: String?
  /// The watched table or view.
  public let table: PostgresLiveTableName
  /// The key attribute (unique per row): the primary key unless another was named.
  public let key: String
  /// The rows of the fetch's window, in order, keyed by the key's value.
  public let results: SiftLiveResults<SiftValue, [String: SiftValue]>
  /// Why the watcher stopped following the table (a column it reads was dropped or retyped);
  /// nil while it follows. It resumes, with one change set, when the column is back.
  public internal(set) var failure: SiftError?
  /// The compiled query (the effective order: section key, sorts, then the key).
  let statement: SQLStatement
  /// How each result column reads (the column codecs SiftPostgres uses for `fetch`).
  let columns: SiftRowColumns
  /// The table's columns the fetch reads and their types when it started (`format_type`).
  var columnTypes: [String: String] = [:]
  /// The columns the query reads (stored column names), in the order of `columns`.
  let readColumns: [String]
  /// The key's stored column name.
  var keyColumn: String?
  /// How rows re-read by key are matched in memory (`PostgresLiveHub+Rows.swift`); nil when
  /// the watcher runs its query for every change (a window, a relationship in the predicate).
  var rowMatcher: SiftMatcher?

  init(
    request: SiftFetchRequest, sectionKeyPath: String?, table: PostgresLiveTableName, key: String,
    statement: SQLStatement, columns: SiftRowColumns, readColumns: [String], rows: [[SQLValue]]
  ) throws(SiftError) {
    self.request = request
    self.sectionKeyPath = sectionKeyPath
    self.table = table
    self.key = key
    self.statement = statement
    self.columns = columns
    self.readColumns = readColumns
    let records = try Self.records(rows, columns: columns, key: key, table: table)
    results = try SiftLiveResults(
      records: records.map(\.record), ids: records.map(\.id), predicate: nil,
      sortDescriptors: Self.memoryOrder(request.sortDescriptors, key: key), sectionKeyPath: sectionKeyPath)
  }

  /// The order kept in memory: the fetch's sorts, then the key (the SQL orders by the same,
  /// section key first, so the window is the same rows; the key makes the order total).
  static func memoryOrder(_ sorts: [SiftSortDescriptor], key: String) -> [SiftSortDescriptor] {
    sorts.contains { $0.keyPath == key } ? sorts : sorts + [SiftSortDescriptor(key)]
  }

  /// The order the SQL uses: as `SiftLiveResults` orders (the section key first, its direction
  /// from the first sort descriptor when that names it), then the key.
  static func sqlOrder(_ sorts: [SiftSortDescriptor], section: String?, key: String) -> [SiftSortDescriptor] {
    let all = memoryOrder(sorts, key: key)
    guard let section else { return all }
    var lead = SiftSortDescriptor(section)
    if let first = sorts.first, first.keyPath == section {
      lead.ascending = first.ascending
      lead.nulls = first.nulls
    }
    return [lead] + all
  }

  /// Result rows as records (attribute name → value, read by the columns' codecs) with their keys.
  static func records(
    _ rows: [[SQLValue]], columns: SiftRowColumns, key: String, table: PostgresLiveTableName
  ) throws(SiftError) -> [(id: SiftValue, record: [String: SiftValue])] {
    var out: [(id: SiftValue, record: [String: SiftValue])] = []
    out.reserveCapacity(rows.count)
    for row in rows {
      var record: [String: SiftValue] = [:]
      for (i, name) in columns.names.enumerated() where i < row.count {
        record[name] = columns.codecs[i]?.decode(row[i]) ?? SQLColumnCodec.plain(row[i])
      }
      guard let id = record[key], id != .null else {
        throw SiftError.live("a row of \(table) has no \(key); name a key column that is never null")
      }
      out.append((id, record))
    }
    return out
  }

  /// Brings `results` to `rows` (the query's new answer) as one transaction: keys gone are
  /// deletes, new keys inserts, rows whose values differ updates.
  func apply(_ rows: [[SQLValue]]) throws(SiftError) -> SiftChangeSet<SiftValue> {
    let fresh = try Self.records(rows, columns: columns, key: key, table: table)
    var seen = Set<SiftValue>()
    var edits: [SiftLiveEdit<SiftValue, [String: SiftValue]>] = []
    for (id, record) in fresh {
      guard seen.insert(id).inserted else {
        throw SiftError.live("two rows of \(table) have \(key) = \(SiftJSON.serialize(id)); name a unique key column")
      }
      if let old = results.record(for: id) {
        if old != record { edits.append(.update(id, record)) }
      } else {
        edits.append(.insert(id, record))
      }
    }
    for id in results.ids where !seen.contains(id) { edits.append(.delete(id)) }
    return try results.apply(edits)
  }
}
