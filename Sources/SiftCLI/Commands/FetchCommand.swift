import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax

/// `sift fetch`: all of a fetch request (`NSFetchRequest`) from the command line — entity,
/// predicate, sort, limit, offset, properties to fetch, distinct, group-by with aggregates and
/// a having predicate, result type, batch size — run on JSON records (`--data`, `--sample`)
/// or a database (`--db`, `--postgres … --pg-schema`), read-only. One JSON value per line
/// (`FetchOutput`); the contract is in SiftCLI.docc/CommandLine.md.
enum FetchCommand: SiftSubcommand {
  static let name = "fetch"
  static let options = CommandOptions(
    valued: [
      "--data", "--sample", "--dates", "--db", "--postgres", "--pg-schema", "--mysql", "--schema", "--model",
      "--entity", "--where", "--arg", "--var", "--sort", "--limit", "--offset", "--properties", "--group-by",
      "--aggregate",
      "--having", "--result", "--batch-size", "--configuration",
    ],
    switches: ["--distinct", "--no-subentities"])
  static let help = """
    sift fetch (--data FILE.json [--dates FORMAT]... | --sample venues|notes) [REQUEST]
    sift fetch --db FILE.sqlite [--model MODEL.xcdatamodeld [--configuration NAME]] [--schema S.json]
               --entity E [REQUEST]
    sift fetch --postgres CONNINFO --pg-schema NAME [--schema S.json] --entity E [REQUEST]
    sift fetch --mysql mysql://USER:PASSWORD@HOST:PORT/DATABASE [--schema S.json] --entity E [REQUEST]

    Runs one fetch request, read-only, and prints one JSON value per line: a record or
    dictionary per row, a key per row (--result ids), or {"count": N}. REQUEST is any of:

      --where 'PREDICATE'     which records (%@ take the --arg values, $NAME the --var values)
      --arg JSON              a value for the next %@ of --where, then of --having
      --var NAME=JSON         a value for $NAME
      --sort 'k asc, …'       sort descriptors ([c], [l], localizedCompare:, nulls first|last)
      --limit N               at most N rows (fetchLimit)
      --offset N              skip N rows first (fetchOffset)
      --properties a,b.c      dictionaries of these key paths (propertiesToFetch)
      --distinct              with --properties: distinct rows (returnsDistinctResults)
      --group-by a,b          groups (propertiesToGroupBy); each row the keys and --aggregate
      --aggregate [NAME=]EXPR an aggregate column: count:(SELF), sum:(k), average:(k), min:(k), max:(k)
      --having 'PREDICATE'    keep the groups it is true for (names columns: keys, aggregate names)
      --result TYPE           records (default), dictionaries, count or ids
      --batch-size N          read and print the rows N at a time (fetchBatchSize)
      --no-subentities        the entity's own rows only (includesSubentities = false)
      --entity E              the entity or table (optional with --data and --sample)
      --data FILE.json        records from a JSON or JSON Lines file
      --dates FORMAT          which values of FILE.json are dates, as for 'sift eval'
      --sample NAME           the built-in sample records: venues or notes
      --db FILE.sqlite        an SQLite file or Core Data store
      --model M               with --db on a Core Data store: its .xcdatamodeld
      --configuration NAME    with --model: the model configuration the store holds
      --postgres C            a PostgreSQL server, with --pg-schema NAME
      --pg-schema NAME        the PostgreSQL schema whose tables are fetched
      --mysql URL             a MySQL/MariaDB database (mysql://USER:PASSWORD@HOST:PORT/DATABASE)
      --schema S.json         a schema file merged over the database's

    EXAMPLES
      sift fetch --sample venues --where 'rating >= 4' --sort 'rating desc, name' --limit 3 --properties name,rating
      sift fetch --sample venues --group-by priceCategory --aggregate n=count:(SELF) --having 'n > 300'
      sift fetch --db notes.sqlite --entity note --where 'pinned == 1' --result ids
    """

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: name)
    }
    guard parsed.positionals.isEmpty else {
      return CLIOutput.usageError(
        "fetch takes no format string: give the predicate with --where 'PREDICATE'", command: name)
    }
    let source = DatabaseOptions(parsed)
    if let problem = source.usageProblem { return CLIOutput.usageError(problem, command: name) }
    let inputs = [parsed.value("--data") != nil, parsed.value("--sample") != nil, source.namesDatabase]
    guard inputs.filter({ $0 }).count == 1 else {
      return CLIOutput.usageError(
        "fetch needs one source: --data FILE.json, --sample NAME, \(DatabaseOptions.usage)",
        command: name)
    }
    if source.namesDatabase && parsed.value("--entity") == nil {
      return CLIOutput.usageError("--entity E is needed with --db, --pg-schema or --mysql", command: name)
    }
    let plan: FetchPlan
    do {
      plan = try FetchPlan(parsed, entity: parsed.value("--entity") ?? "records")
    } catch let e as SiftError {
      CLIOutput.error(CLIOutput.render(e))
      return .failure
    } catch {
      return CLIOutput.failed(name, error)
    }
    do {
      if source.namesDatabase {
        let db = try source.open()
        defer { db.close() }
        try FetchOutput.run(plan, on: db)
      } else {
        let data: CommandInputs.DataSet
        if let sample = parsed.value("--sample") {
          guard ["venues", "notes"].contains(sample), let url = SampleData.url(sample + ".json") else {
            throw CommandInputs.Failure.usage("--sample is venues or notes, not '\(sample)'")
          }
          data = try CommandInputs.data(url.path)
        } else {
          data = try CommandInputs.data(
            parsed.value("--data") ?? "", dates: CommandInputs.dates(parsed.all("--dates")))
        }
        try FetchOutput.run(plan, on: data)
      }
      return .success
    } catch let e as SiftError {
      CLIOutput.error(CLIOutput.render(e))
      return .failure
    } catch {
      return CLIOutput.failed(name, error)
    }
  }
}

/// A `sift fetch` command line read into a request and how to print it.
struct FetchPlan {
  /// What each printed line is.
  enum Output: String { case records, dictionaries, count, ids }

  var request: SiftFetchRequest
  var output: Output
  var variables: [String: SiftValue]

  init(_ parsed: CLIArguments, entity: String) throws {
    // An option given twice would silently keep one value (a second --where is not an AND).
    let repeatable: Set = ["--arg", "--var", "--aggregate", "--dates"]
    for option in FetchCommand.options.valued.sorted()
    where !repeatable.contains(option) && parsed.all(option).count > 1 {
      throw CommandInputs.Failure.usage("\(option) is given more than once")
    }
    variables = try CommandInputs.variables(parsed.all("--var"))
    let arguments = try CommandInputs.arguments(parsed.all("--arg"))
    var predicate: SiftPredicate?
    var used = 0
    if let w = parsed.value("--where") {
      let unbound = try SiftPredicate.parse(w)
      used = min(unbound.unboundArgumentCount, arguments.count)
      predicate = try unbound.binding(Array(arguments.prefix(used))).substituting(variables)
    }
    let sorts =
      try parsed.value("--sort").map { text throws(SiftError) in try SiftSortDescriptor.parseList(text) } ?? []
    request = SiftFetchRequest(
      entity: entity, predicate: predicate, sortDescriptors: sorts,
      limit: try ExprCommand.count(parsed.value("--limit"), "--limit"),
      offset: try ExprCommand.count(parsed.value("--offset"), "--offset"))
    let properties = Self.list(parsed.value("--properties"))
    let groupBy = Self.list(parsed.value("--group-by"))
    var aggregates: [SiftAggregate] = []
    for text in parsed.all("--aggregate") {
      var name: String?
      var format = text
      if let eq = text.firstIndex(of: "="), !text[..<eq].contains("("), !text[..<eq].contains(":") {
        name = String(text[..<eq]).trimmingCharacters(in: .whitespaces)
        format = String(text[text.index(after: eq)...])
      }
      aggregates.append(try SiftAggregate(try SiftExpression(format: format), name: name))
    }
    if let h = parsed.value("--having") {
      let unbound = try SiftPredicate.parse(h)
      request.havingPredicate = try unbound.binding(Array(arguments.dropFirst(used))).substituting(variables)
    } else if used < arguments.count {
      throw CommandInputs.Failure.usage(
        "\(arguments.count) --arg values, but --where uses \(used) and there is no --having")
    }
    if !aggregates.isEmpty || !groupBy.isEmpty {
      // Groups come ordered by their keys; a sort the engines would not apply is refused.
      guard parsed.value("--sort") == nil else {
        throw CommandInputs.Failure.usage(
          "--sort does not go with --group-by/--aggregate: the groups come ordered by their group-by keys")
      }
      var columns = Set(groupBy)
      for a in aggregates where !columns.insert(a.name).inserted {
        throw CommandInputs.Failure.usage(
          "two columns of the grouped result are named '\(a.name)': give each --aggregate its own NAME=")
      }
      guard properties.isEmpty else {
        throw CommandInputs.Failure.usage(
          "--properties does not go with --group-by/--aggregate: the groups are the rows")
      }
      request.resultType = .aggregates(aggregates, groupBy: groupBy)
    } else if !properties.isEmpty {
      request.resultType = .properties(properties)
    } else if parsed.value("--having") != nil {
      throw CommandInputs.Failure.usage("--having needs --group-by or --aggregate")
    }
    if parsed.flags.contains("--distinct") {
      guard !properties.isEmpty else { throw CommandInputs.Failure.usage("--distinct needs --properties") }
      request.returnsDistinctResults = true
    }
    request.includesSubentities = !parsed.flags.contains("--no-subentities")
    if let size = parsed.value("--batch-size") {
      guard let n = Int(size), n > 0 else {
        throw CommandInputs.Failure.usage("--batch-size needs a whole number > 0, not '\(size)'")
      }
      request.fetchBatchSize = n
    }
    let shaped = request.resultType != .records
    switch parsed.value("--result") {
    case nil: output = shaped ? .dictionaries : .records
    case let text?:
      guard let o = Output(rawValue: text) else {
        throw CommandInputs.Failure.usage("--result is records, dictionaries, count or ids, not '\(text)'")
      }
      if shaped && o != .dictionaries {
        throw CommandInputs.Failure.usage(
          "--result \(text) does not go with --properties/--group-by/--aggregate: those rows are dictionaries")
      }
      output = o
    }
    if output == .count { request.resultType = .count }
  }

  /// `a,b.c` → `["a", "b.c"]`.
  static func list(_ text: String?) -> [String] {
    (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }
}
