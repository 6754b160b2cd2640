import Foundation
import SiftSQL

/// `sift schema --model MODEL.xcdatamodeld` and `sift schema --db FILE [--model M] [--schema S.json]`
/// (or `--postgres CONNINFO --pg-schema NAME`): prints the schema Sift would use, in the
/// schema-file JSON format, so it can be saved, edited and passed back with `--schema`.
/// A model alone is mapped with the entity numbers Core Data is observed to assign; with a
/// store, the store's own numbers and tables are used.
enum SchemaCommand: SiftSubcommand {
  static let name = "schema"
  static let options = CommandOptions(
    valued: ["--model", "--db", "--postgres", "--pg-schema", "--mysql", "--schema", "--configuration"],
    switches: ["--text"])

  static let help = """
    sift schema --model MODEL.xcdatamodeld [--configuration NAME]
    sift schema --db FILE.sqlite [--model MODEL.xcdatamodeld [--configuration NAME]] [--schema S.json]
    sift schema --postgres CONNINFO --pg-schema NAME [--schema S.json]
    sift schema --mysql mysql://USER:PASSWORD@HOST:PORT/DATABASE [--schema S.json]
    (each form takes --text: the same schema as plain text, for reading)

    Prints the schema Sift queries with, as a schema file (JSON; format in README.md): save it,
    edit it and pass it back with --schema. --model reads a Core Data model (an .xcdatamodeld
    bundle, an .xcdatamodel folder or its contents file) and maps it onto Core Data's SQLite
    layout. --db reads an SQLite file read-only: a Core Data store (it has Z_PRIMARYKEY and
    Z_METADATA) through its model when --model is given, else with keys from its columns
    (ZCREATEDAT -> createdat); any other file by introspection. A Core Data model's uniqueness
    constraints are listed as unique indexes (Z_<Entity>_UNIQUE_<properties>).

      --model M         a Core Data model (.xcdatamodeld, .xcdatamodel or its contents file)
      --configuration C with --model: only the entities of the model's configuration C
      --db FILE         an SQLite file or Core Data store, read-only
      --postgres C      with --pg-schema NAME: read that PostgreSQL schema, read-only
      --pg-schema NAME  the PostgreSQL schema to read
      --mysql URL       read the URL's MySQL/MariaDB database, read-only
      --schema S.json   a schema file merged over what was read (overrides or adds)
      --text            print it as text (entities, columns, relationships with their order
                        column, unique indexes such as a model's uniqueness constraints)

    EXAMPLES
      sift schema --model Library.xcdatamodeld > library.schema.json
      sift schema --db Library.sqlite --model Library.xcdatamodeld
      sift --db Library.sqlite --schema library.schema.json
    """

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "schema")
    }
    guard parsed.positionals.isEmpty else {
      return CLIOutput.usageError("schema takes no positional argument ('\(parsed.positionals[0])')", command: "schema")
    }
    var source = DatabaseOptions(parsed)
    let modelPath = parsed.value("--model")
    let configuration = parsed.value("--configuration")
    source.modelPath = source.sqlitePath == nil ? nil : modelPath
    source.configuration = source.sqlitePath == nil ? nil : configuration
    if configuration != nil && modelPath == nil {
      return CLIOutput.usageError("--configuration NAME goes with --model MODEL", command: "schema")
    }
    if let problem = source.usageProblem { return CLIOutput.usageError(problem, command: "schema") }
    if source.conninfo != nil && source.pgSchema == nil {
      return CLIOutput.usageError("--postgres needs --pg-schema NAME (the schema to read)", command: "schema")
    }
    if let engine = source.engine, engine != .sqlite, modelPath != nil {
      return CLIOutput.usageError(
        "--model goes with --db STORE.sqlite (a Core Data store), not --\(engine == .mysql ? "mysql" : "pg-schema")",
        command: "schema")
    }
    do {
      let schema: SQLSchema
      if source.namesDatabase {
        let db = try source.open()
        defer { db.close() }
        schema = db.schema
      } else if let modelPath {
        schema = try ExistingDatabase.merge(
          try ExistingDatabase.loadModel(modelPath, configuration: configuration).sqlSchema(),
          schemaFile: source.schemaFile)
      } else {
        return CLIOutput.usageError(
          "schema needs --model MODEL or --db FILE (or --postgres … --pg-schema NAME, or --mysql URL)",
          command: "schema")
      }
      if parsed.flags.contains("--text") {
        print(SchemaText.render(schema), terminator: "")
      } else {
        print(schema.jsonText)
      }
      return .success
    } catch {
      return CLIOutput.failed("schema", error)
    }
  }
}
