import Foundation
import SiftLive
import SiftPostgres
import SiftSQL
import SiftSyntax

/// What a hub's `refresh` reports: one change set per watcher whose results changed, or an error.
///
/// ```swift
/// for event in hub.refresh(timeout: 1) {
///   switch event {
///   case .changes(let watcher, let changes): render(watcher, changes)
///   case .error(_, let error): print(error.id, error.message)
///   }
/// }
/// ```
public enum PostgresLiveEvent {
  /// The watcher's results changed as this change set says.
  case changes(PostgresLiveWatcher, SiftChangeSet<SiftValue>)
  /// The watcher (nil: the whole hub, e.g. `live-connection-lost`) met this error; it goes on.
  case error(PostgresLiveWatcher?, SiftError)
}

/// Live fetches on one PostgreSQL schema, sharing one connection (Grammar/notes/live.md,
/// "PostgreSQL"). Each `watch` starts a `PostgresLiveWatcher`; each `refresh` asks the change
/// source what committed (the default, `PostgresLivePolling`, is read-only: it compares
/// `pg_current_snapshot()`) and, when something did, runs the watchers' queries again —
/// watchers whose SQL has the same shape share one statement (`PostgresLiveShape`) — and
/// answers one change set per watcher whose rows changed.
///
/// The connection is read-only (`default_transaction_read_only`): nothing is created, and a role
/// with `SELECT` on the watched tables is enough. A lost connection is reported once
/// (`live-connection-lost`) and retried with backoff (0.25 s doubling to 8 s, each wait bounded by
/// `refresh`'s timeout); once back, every watcher is brought from its last state to the current
/// one with one change set. A column a watcher reads that is dropped or retyped is an error
/// event naming it (`live-column-changed`); the watcher resumes when the column is back.
/// A hub is used from one thread at a time.
///
/// ```swift
/// let hub = try PostgresLiveHub(conninfo: "host=127.0.0.1 user=sift dbname=sift", schema: "public")
/// let cheap = try hub.watch(SiftFetchRequest(entity: "venue", predicate: try SiftPredicate(format: "price < 5")))
/// while true { for event in hub.refresh(timeout: 1) { print(event) } }
/// ```
public final class PostgresLiveHub {
  /// The connection string.
  public let conninfo: String
  /// The schema the watched tables are in.
  public let schemaName: String
  /// How the hub learns about commits.
  public let source: any PostgresLiveChangeSource
  /// The schema as introspected when the hub started (entities, keys, column codecs).
  public let schema: SQLSchema
  let timeouts: PostgresTimeouts
  /// The connection; nil while it is lost.
  var database: PostgresDatabase?
  /// The watchers, in the order they started.
  public internal(set) var watchers: [PostgresLiveWatcher] = []
  var backoff = PostgresLiveHub.firstBackoff
  var nextAttempt = Date.distantPast
  /// How many times the connection was made again.
  public internal(set) var reconnections = 0
  /// How many watcher queries ran since the hub started (a shared statement counts once).
  public internal(set) var queriesRun = 0
  static let firstBackoff = 0.25
  static let lastBackoff = 8.0

  /// Connects (read-only) and reads the schema.
  ///
  /// - Throws: `SiftError`: the connection's (`postgres-connection`), no such schema, or the
  ///   source's `start` (`live-mode-unavailable`).
  public init(
    conninfo: String, schema: String = "public", source: (any PostgresLiveChangeSource)? = nil,
    timeouts: PostgresTimeouts = .standard
  ) throws(SiftError) {
    self.conninfo = conninfo
    schemaName = schema
    self.source = source ?? PostgresLivePolling()
    self.timeouts = timeouts
    let db = try Self.connect(conninfo, schema: schema, timeouts: timeouts)
    do throws(SiftError) {
      self.schema = try db.introspectSchema(named: schema).schema
      try self.source.start(database: db, conninfo: conninfo)
    } catch {
      db.close()
      throw error
    }
    database = db
  }

  static func connect(_ conninfo: String, schema: String, timeouts: PostgresTimeouts) throws(SiftError)
    -> PostgresDatabase
  {
    try PostgresDatabase(conninfo: conninfo, schema: .named(schema), readOnly: true, timeouts: timeouts)
  }

  /// Stops the source and closes the connection; the watchers keep their last results.
  public func close() {
    source.stop()
    database?.close()
    database = nil
  }

  deinit { close() }

  /// Starts a live fetch: runs `request` once and keeps its rows. Sorts and the section key
  /// name attributes of the entity (not key paths through relationships); the predicate may
  /// use anything the SQL compiler takes. `key` names a unique, never-null column when the
  /// entity has no single-column primary key (a view).
  ///
  /// ```swift
  /// let w = try hub.watch(SiftFetchRequest(entity: "venue", sortDescriptors: [SiftSortDescriptor("name")]),
  ///                       sectionKeyPath: "city")
  /// ```
  /// - Throws: `SiftError`: stage `.live` (`live-refused`: no such entity, no key, a result type
  ///   other than records, a sort or section key that is not an attribute), the compiler's, or
  ///   the server's.
  public func watch(
    _ request: SiftFetchRequest, sectionKeyPath: String? = nil, key: String? = nil
  ) throws(SiftError) -> PostgresLiveWatcher {
    guard let database else {
      throw SiftError(stage: .live, id: .liveConnectionLost, message: "the connection to PostgreSQL is lost; retrying")
    }
    guard case .records = request.resultType else { throw SiftError.live("a live fetch returns records") }
    guard let e = schema.entity(request.entity) else {
      let names = schema.entityNames.joined(separator: ", ")
      throw SiftError.live("no table or view '\(request.entity)' in schema \(schemaName) (entities: \(names))")
    }
    let keyName: String
    if let key {
      guard e.attribute(key) != nil else { throw SiftError.live("\(e.name) has no column '\(key)'") }
      keyName = key
    } else {
      guard e.hasSingleColumnKey else {
        throw SiftError.live("\(e.name) has no single-column primary key; name a unique column as its key")
      }
      keyName = e.primaryKey
    }
    for k in request.sortDescriptors.map(\.keyPath) + [sectionKeyPath].compactMap({ $0 }) where e.attribute(k) == nil {
      throw SiftError.live("'\(k)' is not a column of \(e.name): a live fetch sorts and sections by its own columns")
    }
    var sql = request
    sql.sortDescriptors = PostgresLiveWatcher.sqlOrder(request.sortDescriptors, section: sectionKeyPath, key: keyName)
    let compiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)
    let statement = try compiler.compileForDecoding(sql)
    let columns = try compiler.resultColumns(for: sql)
    let table = PostgresLiveTableName(schema: schemaName, name: e.table)
    let read = columns.names.compactMap { e.attribute($0)?.column }
    let types = try columnTypes(of: table, on: database)
    let watcher = try PostgresLiveWatcher(
      request: request, sectionKeyPath: sectionKeyPath, table: table, key: keyName, statement: statement,
      columns: columns, readColumns: read, rows: try database.execute(statement))
    watcher.columnTypes = types?.filter { read.contains($0.key) } ?? [:]
    watcher.keyColumn = e.attribute(keyName)?.column
    watcher.rowMatcher = Self.rowMatcher(for: request, columns: columns, readColumns: read)
    watchers.append(watcher)
    return watcher
  }

  /// Stops a watcher; its results stay as they were.
  public func unwatch(_ watcher: PostgresLiveWatcher) {
    watchers.removeAll { $0 === watcher }
  }

  /// The types of a table's columns (`format_type`), or nil when the table is gone.
  func columnTypes(of table: PostgresLiveTableName, on db: PostgresDatabase) throws(SiftError) -> [String: String]? {
    let rows = try db.execute(
      SQLStatement(
        sql: "SELECT a.attname::text, pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a"
          + " WHERE a.attrelid = pg_catalog.to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped",
        bindings: [.text(table.quoted)]))
    guard !rows.isEmpty else { return nil }
    var out: [String: String] = [:]
    for r in rows {
      if case .text(let name)? = r.first, case .text(let type)? = r.last { out[name] = type }
    }
    return out
  }
}
