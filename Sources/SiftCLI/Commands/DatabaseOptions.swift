import Foundation

/// `--db FILE` / `--postgres CONNINFO --pg-schema NAME` / `--mysql URL` / `--schema S.json` as
/// given to a subcommand: which existing database to open, if any.
struct DatabaseOptions {
  var sqlitePath: String? = nil
  var conninfo: String? = nil
  var pgSchema: String? = nil
  /// `--mysql 'mysql://USER:PASSWORD@HOST:PORT/DATABASE'`: the URL's database is the one read.
  var mysqlURL: String? = nil
  var schemaFile: String? = nil
  /// A Core Data model for a `--db` store (`--model`).
  var modelPath: String? = nil
  /// The model's configuration whose entities the store holds (`--configuration NAME`).
  var configuration: String? = nil

  /// How a command's usage line names the database options.
  static let usage = "--db FILE.sqlite, --postgres CONNINFO --pg-schema NAME or --mysql URL"

  /// No database.
  init() {}

  /// The options as parsed from a command line.
  init(_ parsed: CLIArguments) {
    sqlitePath = parsed.value("--db")
    conninfo = parsed.value("--postgres")
    pgSchema = parsed.value("--pg-schema")
    mysqlURL = parsed.value("--mysql")
    schemaFile = parsed.value("--schema")
    modelPath = parsed.value("--model")
    configuration = parsed.value("--configuration")
  }

  /// The engine the options name, if one: `--db`, `--pg-schema` (with `--postgres`) or `--mysql`.
  var engine: ExistingDatabase.Kind? {
    if sqlitePath != nil { return .sqlite }
    if pgSchema != nil { return .postgres }
    return mysqlURL != nil ? .mysql : nil
  }

  /// True when the options name an existing database (`--db`, `--postgres` with `--pg-schema`,
  /// or `--mysql`).
  var namesDatabase: Bool { engine != nil }

  /// A usage problem (two engines, `--pg-schema` without `--postgres`), or nil.
  var usageProblem: String? {
    let given = [(sqlitePath, "--db"), (conninfo ?? pgSchema, "--postgres"), (mysqlURL, "--mysql")]
      .compactMap { $0.0 == nil ? nil : $0.1 }
    if given.count > 1 { return "\(given.joined(separator: " and ")) name \(given.count) databases; give one" }
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
    if let mysqlURL {
      return try ExistingDatabase.open(mysql: mysqlURL, schemaFile: schemaFile, writable: writable)
    }
    guard let conninfo, let pgSchema else {
      throw ExistingDatabase.Failure("no database given: use \(Self.usage)")
    }
    return try ExistingDatabase.open(postgres: conninfo, schema: pgSchema, schemaFile: schemaFile, writable: writable)
  }
}

extension ExistingDatabase.Kind {
  /// The engine a `--dialect` value names: `sqlite`, `postgres` (`postgresql`) or `mysql`
  /// (`mariadb`); nil for another word.
  init?(dialectName: String) {
    switch dialectName {
    case "sqlite": self = .sqlite
    case "postgres", "postgresql": self = .postgres
    case "mysql", "mariadb": self = .mysql
    default: return nil
    }
  }

  /// The `--dialect` values, for a usage error.
  static let dialectNames = "sqlite, postgres or mysql"
}
