import Foundation
import SiftSQL
import SiftSyntax

/// The database half of `sift batch --db FILE.sqlite --entity TABLE` (or `--postgres CONNINFO
/// --pg-schema NAME`): each case is compiled for the schema read from the database and run on
/// it, read-only, adding `"rows"` (the matching rows' primary-key values, ascending), `"sql"`
/// and `"bindings"` to the case's output. An entity without a one-column primary key answers
/// every case with an error at stage `sql` naming the entity.
///
/// ```swift
/// let rows = try BatchDatabase(database: try ExistingDatabase.open(sqlite: "notes.sqlite"), entity: "note")
/// ```
struct BatchDatabase {
  let database: ExistingDatabase
  let entity: SQLEntity

  init(database: ExistingDatabase, entity name: String) throws(ExistingDatabase.Failure) {
    self.database = database
    entity = try database.entity(name)
  }

  /// Adds `"sql"`, `"bindings"` and `"rows"` to a case's output; a case's `"sort"`, `"limit"`
  /// and `"offset"` order and page the rows (ties by primary key).
  func process(
    _ predicate: SiftPredicate, _ fetch: BatchFetch = BatchFetch(), timeLimit: Int? = nil,
    into out: inout [String: SiftValue]
  ) throws(SiftError) {
    let statement = try database.rowsStatement(predicate, entity: entity, fetch: fetch)
    out["sql"] = .string(statement.sql)
    out["bindings"] = .array(statement.bindings.map(\.siftValue))
    out["rows"] = .array(try database.run(statement, timeLimit: timeLimit).compactMap { $0.first?.siftValue })
  }
}

extension BatchContext {
  /// Opens the existing database `options` name for the batch (`--entity` required).
  mutating func configureDatabase(_ options: DatabaseOptions, entity: String?) throws {
    guard let entity else { throw CommandInputs.Failure.usage("--entity TABLE is needed with a database") }
    database = try BatchDatabase(database: try options.open(writable: writable), entity: entity)
  }
}
