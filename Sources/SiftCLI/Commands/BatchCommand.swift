import Foundation
import SiftEvaluation
import SiftSyntax

/// `sift batch [--data D.json] [--schema S.json --entity E [--postgres CONNINFO]]`, or on an existing
/// database `sift batch --db FILE.sqlite --entity TABLE` / `--postgres CONNINFO --pg-schema NAME
/// --entity TABLE` (`"rows"`: primary-key values of the matching rows, ascending): reads JSON Lines
/// cases from stdin — `{"id", "format", "args": [JSON…], "variables": {"NAME": JSON}, "sort": "k asc",
/// "limit": N, "offset": N}` (the last three: indices in fetch order, `BatchFetch`) — and writes
/// one JSON line per case (the contract is documented in README.md):
///
///     {"id": …, "ok": true, "canonical": "…", "matches": [0, 4], "sql": "…", "bindings": […], "sqlMatches": […]}
///     {"id": …, "ok": false, "stage": "parse", "error": {"id", "message", "line", "column", "offset"}}
enum BatchCommand: SiftSubcommand {
  static let name = "batch"
  static let options = CommandOptions(
    valued: [
      "--data", "--schema", "--entity", "--postgres", "--db", "--pg-schema", "--mysql", "--model", "--configuration",
      "--dates",
      "--policy",
    ],
    switches: ["--lenient", "--write"])
  static var help: String { HelpCommand.pages[name] ?? "" }

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "batch")
    }
    guard parsed.positionals.isEmpty else {
      return CLIOutput.usageError("batch reads cases from standard input and takes no format string", command: "batch")
    }
    let source = DatabaseOptions(parsed)
    if let problem = source.usageProblem { return CLIOutput.usageError(problem, command: "batch") }
    if source.namesDatabase && parsed.value("--entity") == nil {
      return CLIOutput.usageError("--entity TABLE is needed with --db, --pg-schema or --mysql", command: "batch")
    }
    if parsed.flags.contains("--write") && !source.namesDatabase {
      return CLIOutput.usageError(
        "--write goes with \(DatabaseOptions.usage)", command: "batch")
    }
    if parsed.flags.contains("--write") && parsed.value("--policy") != nil {
      // A policy checks a client's reads; a write case's format, values and inserted rows are
      // beyond what it can vouch for, so the two never run together.
      return CLIOutput.usageError(
        "--write does not go with --policy: a query policy governs clients' reads, not writes", command: "batch")
    }
    var context = BatchContext(lenient: parsed.flags.contains("--lenient"))
    context.writable = parsed.flags.contains("--write")
    do {
      if let path = parsed.value("--policy") { context.policy = try CommandInputs.policy(path) }
      if let path = parsed.value("--data") {
        context.data = try CommandInputs.data(path, dates: CommandInputs.dates(parsed.all("--dates")))
      }
      if source.namesDatabase {
        try context.configureDatabase(source, entity: parsed.value("--entity"))
      } else {
        try context.configureSQL(
          schema: parsed.value("--schema"), entity: parsed.value("--entity"), postgres: parsed.value("--postgres"))
      }
    } catch {
      return CLIOutput.failed("batch", error)
    }
    var lineNumber = 0
    while let line = readLine(strippingNewline: true) {
      lineNumber += 1
      if line.allSatisfy(\.isWhitespace) { continue }
      let result = context.process(line: line, lineNumber: lineNumber)
      // Each answer is written as soon as it is known: a later failure (a crash, a kill, a
      // hung database) loses none of the answers already given.
      print(SiftJSON.serialize(result))
      fflush(nil)  // all output streams; naming stdout is not concurrency-safe in Swift 6
    }
    return .success
  }
}

/// Everything a batch run shares across cases, and the per-case pipeline.
struct BatchContext {
  var lenient: Bool
  var data: CommandInputs.DataSet?
  var sql: BatchSQL?
  /// The existing database (`--db`, `--pg-schema`) cases run on.
  var database: BatchDatabase?
  /// `--policy`: each case's predicate is a client's, checked and wrapped by it (stage `policy`).
  var policy: SiftQueryPolicy?
  /// `--write`: the database is open for writing, and update/delete/insert cases run (`BatchWrite`).
  var writable = false

  init(lenient: Bool) { self.lenient = lenient }

  /// One case: parse → bind arguments → substitute variables → (evaluate) → (SQL).
  mutating func process(line: String, lineNumber: Int) -> SiftValue {
    let parsed: SiftValue
    do {
      parsed = try SiftJSON.parse(line)
    } catch {
      // Name the problem (a bad {"$date": …} included) and keep the case's id when plain JSON
      // can still read it.
      return [
        "id": Self.plainID(line), "ok": false, "stage": "input",
        "error": [
          "id": .string(DiagnosticID.invalidCase.rawValue),
          "message": .string("line \(lineNumber), column \(error.column): \(error.message)"),
          "line": .int(Int64(lineNumber)), "column": .int(Int64(error.column)), "offset": .int(Int64(error.offset)),
        ],
      ]
    }
    guard case .dictionary(let c) = parsed else {
      return [
        "id": .null, "ok": false, "stage": "input",
        "error": [
          "id": .string(DiagnosticID.invalidCase.rawValue),
          "message": .string("line \(lineNumber) is not a JSON object"),
          "line": .int(Int64(lineNumber)), "column": 1, "offset": 0,
        ],
      ]
    }
    let id = c["id"] ?? .null
    if BatchWrite.isWrite(c) { return processWrite(c, id: id) }
    func failure(_ stage: String, _ error: SiftValue) -> SiftValue {
      ["id": id, "ok": false, "stage": .string(stage), "error": error]
    }
    // A key a read does not know is refused, never ignored: a misspelt "delete" or "limit"
    // would otherwise answer as a plain read of every match.
    let readKeys: Set = ["id", "format", "args", "variables", "sort", "limit", "offset"]
    if let unknown = c.keys.sorted().first(where: { !readKeys.contains($0) }) {
      let keys = readKeys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
      return failure(
        "input",
        [
          "id": .string(DiagnosticID.invalidCase.rawValue),
          "message": .string(
            "the case has no key \"\(unknown)\" (a read takes \(keys); a write \"delete\", \"update\" or \"insert\")"),
          "line": 1, "column": 1, "offset": 0,
        ])
    }
    guard case .string(let format)? = c["format"] else {
      return failure(
        "input",
        [
          "id": .string(DiagnosticID.invalidCase.rawValue), "message": "the case has no \"format\" string", "line": 1,
          "column": 1, "offset": 0,
        ])
    }
    var arguments: [SiftValue] = []
    switch c["args"] {
    case .array(let a)?: arguments = a
    case nil, .null?: break
    default:
      return failure(
        "input",
        [
          "id": .string(DiagnosticID.invalidCase.rawValue),
          "message": "\"args\" must be an array of JSON values, one per %@", "line": 1, "column": 1, "offset": 0,
        ])
    }
    var variables: [String: SiftValue] = [:]
    switch c["variables"] {
    case .dictionary(let v)?: variables = v
    case nil, .null?: break
    default:
      return failure(
        "input",
        [
          "id": .string(DiagnosticID.invalidCase.rawValue),
          "message": "\"variables\" must be an object of NAME: JSON value", "line": 1, "column": 1, "offset": 0,
        ])
    }
    var fetch: BatchFetch
    do {
      fetch = try BatchFetch(c)
    } catch {
      return failure("input", error.batchJSON)
    }

    let predicate: SiftPredicate
    do {
      predicate = try SiftPredicate.parse(format).binding(arguments)
    } catch {
      return failure(error.stage.rawValue, error.batchJSON)
    }
    var evaluated = predicate.substituting(variables)
    if let policy {
      // The case's text is a client's: checked, its sort keys too, `require` ANDed around it
      // with the case's "variables" (the server's), its limit capped.
      do {
        let safe = try policy.applying(
          to: SiftFetchRequest(
            entity: "", predicate: predicate, sortDescriptors: fetch.sortDescriptors, limit: fetch.limit),
          variables: variables)
        evaluated = safe.predicate ?? evaluated
        fetch.limit = safe.limit
      } catch {
        return failure("policy", error.batchJSON)
      }
    }
    let timeLimit = policy?.limits.milliseconds
    func stage(_ error: SiftError) -> String {
      error.diagnostic.id == DiagnosticID.timeLimit.rawValue ? "policy" : error.stage.rawValue
    }
    var out: [String: SiftValue] = ["id": id, "ok": true, "canonical": .string(evaluated.predicateFormat)]
    if !predicate.warnings.isEmpty {
      out["warnings"] = .array(
        predicate.warnings.map { w in
          .dictionary(["id": .string(w.id), "message": .string(w.message), "offset": .int(Int64(w.range.start))])
        })
    }
    if let data {
      do {
        var options = EvaluationOptions(policy: lenient ? .treatAsNoMatch : .strict)
        options.timeLimit = timeLimit
        let indices =
          fetch.isDefault
          ? try data.matchingIndices(try evaluated.compile(options), variables: variables)
          : try fetch.matchingIndices(evaluated, in: data, variables: variables, options: options)
        out["matches"] = .array(indices.map { .int(Int64($0)) })
      } catch {
        return failure(stage(error), error.batchJSON)
      }
    }
    if let sql {
      do {
        try sql.process(evaluated, fetch, timeLimit: timeLimit, into: &out)
      } catch {
        return failure(stage(error), error.batchJSON)
      }
    }
    if let database {
      do {
        try database.process(evaluated, fetch, timeLimit: timeLimit, into: &out)
      } catch {
        return failure(stage(error), error.batchJSON)
      }
    }
    return .dictionary(out)
  }

  /// The `"id"` of a line SiftJSON refused (a bad `$date` or `$data`), read with those keys
  /// renamed so they stay plain objects; null when the line is no JSON object at all.
  static func plainID(_ line: String) -> SiftValue {
    let plain = line.replacingOccurrences(of: "\"$date\"", with: "\"$date \"").replacingOccurrences(
      of: "\"$data\"", with: "\"$data \"")
    guard case .dictionary(let object)? = try? SiftJSON.parse(plain) else { return .null }
    return object["id"] ?? .null
  }
}
