import Foundation
import SiftSQL
import SiftSyntax

/// `sift sql 'FORMAT' --schema S.json --entity E [--dialect sqlite|postgres] [--arg JSON]...
/// [--var NAME=JSON]... [--json]`: prints the SQL and its bindings.
enum SQLCommand {
  static func run(_ args: [String]) -> Int32 {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(
        args, valued: ["--schema", "--entity", "--dialect", "--arg", "--var"], switches: ["--json"])
    } catch {
      return CLIOutput.usageError(error.message, command: "sql")
    }
    guard parsed.positionals.count == 1, let format = parsed.positionals.first else {
      return CLIOutput.usageError("sql takes exactly one format string", command: "sql")
    }
    guard let schemaPath = parsed.value("--schema"), let entity = parsed.value("--entity") else {
      return CLIOutput.usageError("sql needs --schema S.json and --entity NAME", command: "sql")
    }
    let dialect: any SQLDialect
    switch parsed.value("--dialect") ?? "sqlite" {
    case "sqlite": dialect = SQLiteDialect()
    case "postgres", "postgresql": dialect = PostgreSQLDialect()
    case let other:
      return CLIOutput.usageError("unknown dialect '\(other)'; use sqlite or postgres", command: "sql")
    }
    let schema: SQLSchema
    let arguments: [SiftValue]
    let variables: [String: SiftValue]
    do {
      arguments = try CommandInputs.arguments(parsed.all("--arg"))
      variables = try CommandInputs.variables(parsed.all("--var"))
      schema = try CommandInputs.schema(schemaPath)
    } catch {
      CLIOutput.error("sift sql: \(error)")
      return 1
    }
    do {
      let predicate = try SiftPredicate(format: format, arguments: arguments).substituting(variables)
      for w in predicate.warnings { CLIOutput.error(DiagnosticRenderer().render(w, in: format)) }
      let statement = try SQLCompiler(dialect: dialect, schema: schema)
        .compile(FetchRequest(entity: entity, predicate: predicate))
      if parsed.flags.contains("--json") {
        print(SiftJSON.serialize(["sql": .string(statement.sql), "bindings": .array(statement.bindings.map(\.siftValue))]))
      } else {
        print(statement.sql)
        for (i, value) in statement.bindings.enumerated() {
          let placeholder = dialect.placeholder(i + 1)
          print("-- \(placeholder == "?" ? "?\(i + 1)" : placeholder) = \(value)")
        }
      }
      return 0
    } catch {
      CLIOutput.error(CLIOutput.render(error))
      return 1
    }
  }
}
