import Foundation
import SiftCoreData
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax

/// A database Sift did not create, opened read-only, with the schema read from it (and merged
/// with a schema file when one is given). Used by `sift --db`/`--postgres … --pg-schema`, the
/// REPL's `.open`, `sift sql --db`, `sift fetch` and `sift batch --db`. Nothing is written into
/// it unless a command passes `writable` for its `--write` (`sift batch --write`'s update,
/// delete and insert cases): else SQLite is opened with `SQLiteDatabase(untouched:)`,
/// PostgreSQL with `readOnly: true`, and a `.named` schema is never created.
///
/// ```swift
/// let db = try ExistingDatabase.open(sqlite: "notes.sqlite")
/// db.schema.entityNames   // ["author", "category", "comment", "note", …]
/// ```
final class ExistingDatabase {
  /// A one-line failure that names the file or the server.
  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ text: String) {
      description = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: " ")
    }
  }

  /// Which engine the database runs on.
  enum Kind: String { case sqlite, postgres }

  let kind: Kind
  /// The connection (read-only).
  let database: any SQLDatabase
  /// The schema read from the database, with the schema file merged in.
  let schema: SQLSchema
  /// What introspection left out or assumed.
  let warnings: [SQLIntrospectionWarning]
  /// The Core Data store when the file is one (`CoreDataDatabase.swift`).
  var coreData: CoreDataStore?
  /// The file path, or `PostgreSQL schema NAME`.
  let label: String
  /// How to connect again to a PostgreSQL schema (the REPL's `.watch` opens its own live hub).
  var postgres: (conninfo: String, schema: String)?

  init(kind: Kind, database: any SQLDatabase, schema: SQLSchema, warnings: [SQLIntrospectionWarning], label: String) {
    self.kind = kind
    self.database = database
    self.schema = schema
    self.warnings = warnings
    self.label = label
  }

  /// The dialect the database speaks.
  var dialect: any SQLDialect { kind == .postgres ? PostgreSQLDialect() : SQLiteDialect() }

  /// A compiler for the database's schema and dialect.
  var compiler: SQLCompiler { SQLCompiler(dialect: dialect, schema: schema) }

  /// Opens an SQLite file read-only and reads its schema; `schemaFile` (JSON) overrides or adds.
  /// A Core Data store (or any file given with `model`) is read by SiftCoreData instead.
  /// `writable` (a command's `--write`): the file itself, opened for writing (it must exist).
  static func open(
    sqlite path: String, schemaFile: String? = nil, model: String? = nil, configuration: String? = nil,
    writable: Bool = false
  ) throws(Failure) -> ExistingDatabase {
    let full = (path as NSString).expandingTildeInPath
    let db: SQLiteDatabase
    let read: SQLIntrospection
    if writable && !FileManager.default.fileExists(atPath: full) { throw Failure("cannot open \(path): no such file") }
    do {
      if writable {
        db = try SQLiteDatabase(path: full)  // the file exists: never created here
        db.waitWhenLocked(milliseconds: SQLiteDatabase.defaultBusyTimeout)
      } else {
        db = try SQLiteDatabase(untouched: full)
      }
    } catch {
      let message = error.diagnostic.message
      throw Failure(message.contains(full) ? message : "cannot open \(path): \(message)")
    }
    if model != nil || CoreDataStore.isStore(db) {
      return try openCoreData(db, label: path, model: model, schemaFile: schemaFile, configuration: configuration)
    }
    do {
      read = try db.introspectSchema()
    } catch {
      let message = error.diagnostic.message
      throw Failure(message.contains(full) ? message : "cannot open \(path): \(message)")
    }
    let schema = try merge(read.schema, schemaFile: schemaFile)
    try check(schema, schemaFile: schemaFile, in: db, dialect: SQLiteDialect())
    return ExistingDatabase(kind: .sqlite, database: db, schema: schema, warnings: read.warnings, label: path)
  }

  /// Connects to PostgreSQL read-only and reads schema `name` (never created).
  static func open(postgres conninfo: String, schema name: String, schemaFile: String? = nil, writable: Bool = false)
    throws(Failure) -> ExistingDatabase
  {
    guard !name.isEmpty else {
      throw Failure("--pg-schema is empty: name an existing schema, for example --pg-schema public")
    }
    let pg: PostgresDatabase
    do {
      pg = try PostgresDatabase(conninfo: conninfo, schema: .named(name), readOnly: !writable)
    } catch {
      let cause = error.underlying as? PostgresError
      throw Failure(cause == nil || cause?.kind == .connection ? error.message : "PostgreSQL: \(error.message)")
    }
    let read: SQLIntrospection
    do {
      read = try pg.introspectSchema(named: name)
    } catch {
      pg.close()
      throw Failure("cannot read PostgreSQL schema '\(name)': \(message(of: error))")
    }
    guard !read.schema.entityNames.isEmpty else {
      pg.close()
      throw Failure("PostgreSQL schema '\(name)' has no tables or views (or does not exist)")
    }
    let schema: SQLSchema
    do {
      schema = try merge(read.schema, schemaFile: schemaFile)
      try check(schema, schemaFile: schemaFile, in: pg, dialect: PostgreSQLDialect())
    } catch {
      pg.close()
      throw error
    }
    let db = ExistingDatabase(
      kind: .postgres, database: pg, schema: schema, warnings: read.warnings, label: "PostgreSQL schema \(name)")
    db.postgres = (conninfo, name)
    return db
  }

  /// A schema file's descriptions checked against the stored values (`SQLSchema.checkStorage`):
  /// a date described as numbers over text, say, is an error naming the column and the fix.
  static func check(_ schema: SQLSchema, schemaFile: String?, in db: any SQLDatabase, dialect: any SQLDialect)
    throws(Failure)
  {
    guard let schemaFile else { return }
    do {
      try schema.checkStorage(in: db, dialect: dialect)
    } catch {
      throw Failure("\(schemaFile): \(error.diagnostic.message)")
    }
  }

  static func merge(_ schema: SQLSchema, schemaFile: String?) throws(Failure) -> SQLSchema {
    guard let schemaFile else { return schema }
    let text: String
    do {
      text = try String(contentsOf: URL(fileURLWithPath: schemaFile), encoding: .utf8)
    } catch {
      throw Failure("cannot read \(schemaFile): \(error.localizedDescription)")
    }
    do {
      return try schema.merging(json: text)
    } catch {
      throw Failure("\(schemaFile): \(error.diagnostic.message)")
    }
  }

  /// An error's text on one line (`SiftError`s by their message).
  static func message(of error: any Error) -> String {
    let text = (error as? SiftError)?.diagnostic.message ?? "\(error)"
    return Failure(text).description
  }

  /// The entity, or a failure listing the entities (with a suggestion).
  func entity(_ name: String) throws(Failure) -> SQLEntity {
    if let e = schema.entity(name) { return e }
    let names = schema.entityNames
    var text = "no table '\(name)' in \(label) (tables: \(names.joined(separator: ", ")))"
    if let s = Spelling.closest(to: name, in: names) { text += "; did you mean '\(s)'?" }
    throw Failure(text)
  }

  /// The statement that answers `rows`: the matching rows' primary-key values only, in the
  /// fetch's order (ascending by key unless `fetch` sorts; ties by key), paged as it says.
  /// - Throws: `SiftError` (stage `sql`): compile errors, or `no-single-column-key` for an
  ///   entity with a composite key, no key, or a view.
  func rowsStatement(_ predicate: SiftPredicate, entity: SQLEntity, fetch: BatchFetch) throws(SiftError) -> SQLStatement
  {
    guard entity.hasSingleColumnKey else {
      let why =
        entity.isView
        ? "is a view (no primary key)"
        : entity.primaryKeyColumns.isEmpty
          ? "has no primary key"
          : "has a composite primary key (\(entity.primaryKeyColumns.joined(separator: ", ")))"
      throw SiftError(
        stage: .sql,
        diagnostic: SiftDiagnostic(
          id: .noSingleColumnKey,
          message: "entity '\(entity.name)' \(why): rows are answered by a one-column primary key",
          range: .at(0)),
        source: predicate.source)
    }
    // One column, the key: ordered by the fetch's sort and then the key, no DISTINCT (a key is unique).
    return try compiler.compile(fetch.request(entity.name, predicate, .properties([entity.primaryKey])))
  }

  /// Runs a statement; database errors become `SiftError`s at stage `sql`.
  func run(_ statement: SQLStatement, timeLimit: Int? = nil) throws(SiftError) -> [[SQLValue]] {
    // Every driver throws `SiftError`s (PostgreSQL's keep their ids: missing-sift-functions).
    // Under a time limit (a query policy), each driver's own way of stopping a statement.
    if let timeLimit, let sqlite = database as? SQLiteDatabase {
      return try sqlite.execute(statement, timeLimit: timeLimit)
    }
    if let timeLimit, let pg = database as? PostgresDatabase {
      return try pg.execute(statement, timeLimit: timeLimit)
    }
    return try database.execute(statement)
  }

  func close() {
    (database as? PostgresDatabase)?.close()
  }
}

/// `--db FILE` / `--postgres CONNINFO --pg-schema NAME` / `--schema S.json` as given to a
/// subcommand: which existing database to open, if any.
struct DatabaseOptions {
  var sqlitePath: String?
  var conninfo: String?
  var pgSchema: String?
  var schemaFile: String?
  /// A Core Data model for a `--db` store (`--model`).
  var modelPath: String? = nil
  /// The model's configuration whose entities the store holds (`--configuration NAME`).
  var configuration: String? = nil

  /// True when the options name an existing database (`--db`, or `--postgres` with `--pg-schema`).
  var namesDatabase: Bool { sqlitePath != nil || pgSchema != nil }

  /// A usage problem (both engines, `--pg-schema` without `--postgres`), or nil.
  var usageProblem: String? {
    if sqlitePath != nil && (conninfo != nil || pgSchema != nil) {
      return "--db and --postgres/--pg-schema name two databases; give one"
    }
    if pgSchema != nil && conninfo == nil { return "--pg-schema needs --postgres CONNINFO" }
    if modelPath != nil && sqlitePath == nil { return "--model goes with --db STORE.sqlite (a Core Data store)" }
    if configuration != nil && modelPath == nil { return "--configuration NAME goes with --model MODEL" }
    return nil
  }

  /// Opens the database the options name (check `namesDatabase` first); read-only unless
  /// `writable` (a command's explicit `--write`).
  func open(writable: Bool = false) throws(ExistingDatabase.Failure) -> ExistingDatabase {
    if let sqlitePath {
      return try ExistingDatabase.open(
        sqlite: sqlitePath, schemaFile: schemaFile, model: modelPath, configuration: configuration,
        writable: writable)
    }
    guard let conninfo, let pgSchema else {
      throw ExistingDatabase.Failure("no database given: use --db FILE or --postgres CONNINFO --pg-schema NAME")
    }
    return try ExistingDatabase.open(postgres: conninfo, schema: pgSchema, schemaFile: schemaFile, writable: writable)
  }
}
