import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// What `sift-bench --suite scale` measures of the REPL, reached through the same code the
/// REPL runs (`REPLSession.execute`, `ensureInSQL`, `JSONDataLoader`). Not API: `@_spi(Bench)`.
///
/// ```swift
/// @_spi(Bench) import SiftCLI
/// let probe = REPLBenchProbe(generated: 200_000)
/// probe.execute(".count distance < 1")   // "…\n"
/// ```
@_spi(Bench) public final class REPLBenchProbe {
  let session: REPLSession

  /// A session holding `count` generated venues (`sift --no-sample --generate COUNT`) as `venues`.
  public init(generated count: Int) {
    session = REPLSession()
    session.add(GeneratedData.dataSet(name: "venues", count: count))
    session.entity = "venues"
  }

  /// The generated records as values, in order (what `--generate` holds, before conversion).
  public static func generatedValues(count: Int) -> [SiftValue] { GeneratedData.records(count: count) }

  /// Runs one REPL input and returns its text.
  @discardableResult
  public func execute(_ input: String) -> String { session.execute(input).text }

  /// The records in the evaluator's form (what the row evaluator scans), built here: the
  /// session itself keeps generated records as columns only.
  public var objects: [SiftObject] {
    guard let set = session.current else { return [] }
    if let columns = set.columns { return (0..<columns.count).map(columns.object(at:)) }
    return set.objects ?? []
  }

  /// The SQL schema the REPL uses for the records.
  public var schema: SQLSchema? { session.sql.schemas["venues"] }

  /// Threads a memory scan may use (1: the single-thread scan).
  public var scanWorkers: Int {
    get { session.scanWorkers }
    set { session.scanWorkers = newValue }
  }

  /// Drops the SQLite copy and opens a fresh in-memory database (not part of a copy's time).
  public func resetSQLite() throws(SiftError) {
    session.dropSQLCopies(of: "venues")
    session.sql.sqlite = nil
    session.sql.sqlite = try SQLiteDatabase()
    session.sql.inSQLite = []
  }

  /// Copies the records into the SQLite database, as the first SQL use does.
  public func copyIntoSQLite() throws(SiftError) {
    try Self.probe { try session.ensureInSQL(try session.current.orThrow(), .sqlite) }
  }

  /// Streams the rows a copy inserts without a database (the loader's share of a copy);
  /// returns how many there are.
  public func streamRows() throws(SiftError) -> Int {
    guard let set = session.current, set.isAllDictionaries, let schema else { return 0 }
    var n = 0
    let loader = SQLDataLoader(schema: schema, dialect: SQLiteDialect())
    if let columns = set.columns {
      try loader.forEachRow(in: ColumnarLoadRecord.all(columns), entity: set.name) { _, _ in n += 1 }
    } else {
      let records = (0..<set.count).lazy.compactMap { set.object(at: $0) }.map(ObjectLoadRecord.init)
      try loader.forEachRow(in: records, entity: set.name) { _, _ in n += 1 }
    }
    return n
  }

  /// Connects to PostgreSQL (a temporary schema) and copies the records there.
  public func copyIntoPostgres(conninfo: String) throws(SiftError) {
    if session.sql.postgres == nil {
      let r = session.execute(".connect " + conninfo)
      guard r.status == .ok else { throw Self.failure(REPLDataError(r.text)) }
    }
    session.dropSQLCopies(of: "venues")
    try Self.probe { try session.ensureInSQL(try session.current.orThrow(), .postgres) }
  }

  /// Parses JSON file contents as `.load` does; returns the number of records.
  public static func loadJSON(bytes: [UInt8]) throws(SiftError) -> Int {
    try probe { try JSONDataLoader.dataSet(bytes: bytes, path: "bench.json", name: "bench", origin: "bench").count }
  }

  /// Runs a REPL step, its error as Sift's one error type.
  static func probe<T>(_ body: () throws -> T) throws(SiftError) -> T {
    do { return try body() } catch { throw failure(error) }
  }

  /// A `SiftError` as it is; the REPL's own (a data set that is not there or not loadable) as
  /// stage `.data`, id `load-error`, kept as `underlying`.
  static func failure(_ error: any Error) -> SiftError {
    if let e = error as? SiftError { return e }
    return SiftError(stage: .data, id: .loadError, message: "\(error)", underlying: error)
  }
}

extension Optional {
  fileprivate func orThrow() throws -> Wrapped {
    guard let self else { throw REPLDataError("no data set") }
    return self
  }
}
