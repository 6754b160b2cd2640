import Foundation
import SiftSQL
import SiftSyntax

/// `sift sql 'FORMAT' --schema S.json --entity E [--dialect sqlite|postgres] [--arg JSON]...
/// [--var NAME=JSON]... [--json]`: prints the SQL and its bindings. With `--db FILE.sqlite` (or
/// `--postgres CONNINFO --pg-schema NAME`) the schema is read from that database, read-only,
/// and `--schema` (optional) is merged over it; the dialect is the database's. A statement that
/// calls Sift's SQL functions names them (a last `-- calls …` line, `"functions"` in JSON).
enum SQLCommand: SiftSubcommand {
  static let name = "sql"
  static let options = CommandOptions(
    valued: [
      "--schema", "--entity", "--dialect", "--arg", "--var", "--db", "--postgres", "--pg-schema", "--mysql", "--model",
      "--configuration",
    ],
    switches: ["--json"])
  static var help: String { HelpCommand.pages[name] ?? "" }

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "sql")
    }
    guard parsed.positionals.count == 1, let format = parsed.positionals.first else {
      return CLIOutput.usageError("sql takes exactly one format string", command: "sql")
    }
    let source = DatabaseOptions(parsed)
    if let problem = source.usageProblem { return CLIOutput.usageError(problem, command: "sql") }
    if source.conninfo != nil && source.pgSchema == nil {
      return CLIOutput.usageError("--postgres needs --pg-schema NAME (the schema to read)", command: "sql")
    }
    guard let entity = parsed.value("--entity"), source.namesDatabase || source.schemaFile != nil else {
      return CLIOutput.usageError(
        "sql needs --entity NAME and a schema: --schema S.json, \(DatabaseOptions.usage)",
        command: "sql")
    }
    if source.namesDatabase && parsed.value("--dialect") != nil {
      return CLIOutput.usageError(
        "--dialect does not go with --db, --pg-schema or --mysql: the SQL is that database's", command: "sql")
    }
    let dialectName = parsed.value("--dialect") ?? "sqlite"
    guard var dialect = ExistingDatabase.Kind(dialectName: dialectName)?.dialect else {
      return CLIOutput.usageError(
        "unknown dialect '\(dialectName)'; use \(ExistingDatabase.Kind.dialectNames)", command: "sql")
    }
    var schema: SQLSchema
    let arguments: [SiftValue]
    let variables: [String: SiftValue]
    do {
      arguments = try CommandInputs.arguments(parsed.all("--arg"))
      variables = try CommandInputs.variables(parsed.all("--var"))
      if source.namesDatabase {
        let db = try source.open()
        defer { db.close() }
        _ = try db.entity(entity)
        schema = db.schema
        dialect = db.dialect
      } else {
        schema = try CommandInputs.schema(source.schemaFile ?? "")
      }
    } catch {
      return CLIOutput.failed("sql", error)
    }
    do {
      let predicate = try SiftPredicate(format: format, arguments: arguments).substituting(variables)
      for w in predicate.warnings { CLIOutput.error(SiftDiagnosticRenderer().render(w, in: format)) }
      let statement = try SQLCompiler(dialect: dialect, schema: schema)
        .compile(SiftFetchRequest(entity: entity, predicate: predicate))
      if parsed.flags.contains("--json") {
        var out: [String: SiftValue] = [
          "sql": .string(statement.sql), "bindings": .array(statement.bindings.map(\.siftValue)),
        ]
        let functions = statement.requiredFunctions
        if !functions.isEmpty { out["functions"] = .array(functions.map { .string($0) }) }
        print(SiftJSON.serialize(.dictionary(out)))
      } else {
        CLIOutput.printStatement(statement, dialect: dialect)
      }
      return .success
    } catch {
      CLIOutput.error(CLIOutput.render(error))
      return .failure
    }
  }
}
