import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax

/// `sift expr 'FORMAT' --data D.json [--aggregate] [--where 'P'] [--sort 'k asc, …'] [--limit N]
/// [--offset N] [--arg JSON]... [--var NAME=JSON]...` (the expression's `%@`s take the first
/// `--arg`s, `--where`'s the rest): evaluates an expression
/// (`NSExpression(format:)`) for each record the fetch selects, printing one JSON value per
/// line, or with `--aggregate` once over the whole fetch (`SELF` is the array of records, as
/// Core Data evaluates an `NSExpressionDescription`: `sum:(specialCount)` prints the total).
/// With `--schema S.json --entity E [--dialect sqlite|postgres]` instead of `--data`, prints
/// the same request compiled to SQL and its bindings.
enum ExprCommand: SiftSubcommand {
  static let name = "expr"
  static let options = CommandOptions(
    valued: [
      "--data", "--schema", "--entity", "--dialect", "--arg", "--var", "--where", "--sort", "--limit", "--offset",
      "--dates",
    ],
    switches: ["--aggregate"])
  static var help: String { HelpCommand.pages[name] ?? "" }

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "expr")
    }
    guard parsed.positionals.count == 1, let format = parsed.positionals.first else {
      return CLIOutput.usageError("expr takes exactly one expression format string", command: "expr")
    }
    let dataPath = parsed.value("--data"), schemaPath = parsed.value("--schema"), entity = parsed.value("--entity")
    guard (dataPath != nil) != (schemaPath != nil || entity != nil) else {
      return CLIOutput.usageError(
        "expr needs --data FILE.json (evaluate) or --schema S.json --entity E (print the SQL), not both",
        command: "expr")
    }
    if dataPath == nil && (schemaPath == nil || entity == nil) {
      return CLIOutput.usageError("--schema and --entity go together", command: "expr")
    }
    let request: SiftFetchRequest
    let expression: SiftExpression
    var variables: [String: SiftValue] = [:]
    do {
      let arguments = try CommandInputs.arguments(parsed.all("--arg"))
      variables = try CommandInputs.variables(parsed.all("--var"))
      let limit = try count(parsed.value("--limit"), "--limit"),
        offset = try count(parsed.value("--offset"), "--offset")
      // The expression's specifiers take the first --arg values, --where's the rest.
      let unbound = try SiftExpression.parse(format)
      let own = min(unbound.unboundArgumentCount, arguments.count)
      expression = try unbound.binding(Array(arguments.prefix(own))).substituting(variables)
      var predicate: SiftPredicate?
      if let w = parsed.value("--where") {
        predicate = try SiftPredicate(format: w, arguments: Array(arguments.dropFirst(own))).substituting(variables)
      }
      let sorts =
        try parsed.value("--sort").map { text throws(SiftError) in try SiftSortDescriptor.parseList(text) } ?? []
      request = SiftFetchRequest(
        entity: entity ?? "records", predicate: predicate, sortDescriptors: sorts, limit: limit, offset: offset)
    } catch let e as SiftError {
      CLIOutput.error(CLIOutput.render(e))
      return .failure
    } catch {
      return CLIOutput.failed("expr", error)
    }
    let aggregate = parsed.flags.contains("--aggregate")
    if let dataPath {
      return evaluate(
        expression, request, dataPath, aggregate: aggregate, variables: variables, dates: parsed.all("--dates"))
    }
    return printSQL(expression, request, schemaPath ?? "", dialect: parsed.value("--dialect"), aggregate: aggregate)
  }

  static func count(_ text: String?, _ name: String) throws(CommandInputs.Failure) -> Int? {
    guard let text else { return nil }
    guard let n = Int(text), n >= 0 else {
      throw CommandInputs.Failure.usage("\(name) needs a whole number ≥ 0, not '\(text)'")
    }
    return n
  }

  /// One JSON value per record of the fetch, or one over all of them.
  static func evaluate(
    _ expression: SiftExpression, _ request: SiftFetchRequest, _ path: String, aggregate: Bool,
    variables: [String: SiftValue],
    dates: [String]
  ) -> ExitStatus {
    let data: CommandInputs.DataSet
    do {
      data = try CommandInputs.data(path, dates: CommandInputs.dates(dates))
    } catch {
      return CLIOutput.failed("expr", error)
    }
    do {
      var out = ""
      if aggregate {
        let selected: [SiftValue]
        if let records = data.records {
          selected = try request.matchingIndices(in: records, variables: variables).map(data.value(at:))
        } else {
          selected = try request.matchingIndices(in: data.values, variables: variables).map { data.values[$0] }
        }
        out = SiftJSON.serialize(try expression.aggregateValue(over: selected, variables: variables)) + "\n"
      } else {
        var r = request
        r.resultType = .expressions([SiftExpressionDescription(expression: expression)])
        let result: SiftFetchResult
        if let records = data.records {
          result = try r.execute(on: records, variables: variables)
        } else {
          result = try r.execute(on: data.values, variables: variables)
        }
        if case .rows(_, let rows) = result {
          for row in rows { out += (row.first.map(SiftJSON.serialize) ?? "null") + "\n" }
        }
      }
      FileHandle.standardOutput.write(Data(out.utf8))
      return .success
    } catch {
      CLIOutput.error(CLIOutput.render(error))
      return .failure
    }
  }

  /// The request compiled for the schema's entity: one SELECT expression per record, or the
  /// aggregate (`SUM`, `AVG`, …) over the fetch with `--aggregate`.
  static func printSQL(
    _ expression: SiftExpression, _ request: SiftFetchRequest, _ schemaPath: String, dialect name: String?,
    aggregate: Bool
  ) -> ExitStatus {
    guard let dialect = ExistingDatabase.Kind(dialectName: name ?? "sqlite")?.dialect else {
      return CLIOutput.usageError(
        "unknown dialect '\(name ?? "")'; use \(ExistingDatabase.Kind.dialectNames)", command: "expr")
    }
    let schema: SQLSchema
    do {
      schema = try CommandInputs.schema(schemaPath)
    } catch {
      return CLIOutput.failed("expr", error)
    }
    do {
      let compiler = SQLCompiler(dialect: dialect, schema: schema)
      let statement: SQLStatement
      if aggregate {
        _ = try SiftAggregate(expression)  // names what is not one aggregate of a key path
        statement = try compiler.compile(expression, over: request)
      } else {
        var r = request
        r.resultType = .expressions([SiftExpressionDescription(expression: expression)])
        statement = try compiler.compile(r)
      }
      CLIOutput.printStatement(statement, dialect: dialect)
      return .success
    } catch {
      CLIOutput.error(CLIOutput.render(error))
      return .failure
    }
  }
}
