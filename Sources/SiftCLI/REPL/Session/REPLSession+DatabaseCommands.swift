import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `.columns`, `.agg`, `.plan`, `.dialect` and `.engine` on a table of the open database: the
/// same questions as on a JSON data set, answered by the database itself (its SQL, its plan).
extension REPLSession {
  /// The key paths a database table's result tables show: `.columns`, else its first eight
  /// columns.
  func displayColumns(_ e: SQLEntity) -> [String] {
    columns[e.name] ?? e.columnAttributes.prefix(8).map(\.name)
  }

  /// The first `limit` rows of the session's fetch on a table, as display rows.
  func displayRows(_ e: SQLEntity, _ predicate: SiftPredicate, _ db: ExistingDatabase, limit: Int) throws(SiftError)
    -> [[SiftValue]]
  {
    var request = SiftFetchRequest(
      entity: e.name, predicate: predicate, sortDescriptors: sort, limit: limit, offset: offset > 0 ? offset : nil,
      resultType: .records)
    guard let chosen = columns[e.name] else {
      return try db.run(try db.compiler.compile(request)).map { displayRow($0.prefix(8), e, db) }
    }
    request.resultType = .properties(chosen)
    let attributes = chosen.map { attribute(atKeyPath: $0, from: e, db) }
    return try db.run(try db.compiler.compile(request)).map { row in
      zip(row, attributes).map { v, a in a.map { DatabaseValues.value(v, $0, db.schema) } ?? v.siftValue }
    }
  }

  /// The attribute a key path ends on, through to-one relationships (`author.joined_at`).
  func attribute(atKeyPath path: String, from e: SQLEntity, _ db: ExistingDatabase) -> SQLAttribute? {
    var entity = e
    let parts = path.split(separator: ".").map(String.init)
    for part in parts.dropLast() {
      guard let r = entity.relationship(part), !r.isToMany, let next = db.schema.entity(r.target) else { return nil }
      entity = next
    }
    return parts.last.flatMap { entity.attribute($0) }
  }

  /// `.columns [KEY, … | default | *]` on a table: attributes and to-one key paths, checked
  /// by compiling them.
  func databaseColumns(_ arg: String, _ e: SQLEntity, _ db: ExistingDatabase) -> REPLResponse {
    switch arg {
    case "": break
    case "default": columns[e.name] = nil
    case "*": columns[e.name] = e.columnAttributes.map(\.name)
    default:
      let list = arg.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      guard !list.isEmpty else { return .failure(errorLine("usage: .columns KEY, ... | default | *")) }
      do {
        _ = try db.compiler.compile(SiftFetchRequest(entity: e.name, limit: 0, resultType: .properties(list)))
      } catch {
        return .failure(render(error))
      }
      columns[e.name] = list
    }
    return .ok("columns: " + displayColumns(e).joined(separator: ", ") + "\n")
  }

  /// `.dialect` on a table: the database's own dialect; another one is refused (its SQL could
  /// not run there).
  func databaseDialect(_ arg: String, _ db: ExistingDatabase) -> REPLResponse {
    let own = db.kind.rawValue
    let line = "dialect: \(own) (the dialect of \(db.label); .dialect chooses for JSON data sets)\n"
    guard !arg.isEmpty, arg.lowercased() != own else { return .ok(line) }
    guard REPLDialect(rawValue: arg.lowercased()) != nil else {
      return .failure(errorLine("dialect must be sqlite or postgres"))
    }
    return .refusal(
      errorLine(
        "\(db.label) is \(db.kind.article) database: .sql shows the statement it runs, in its dialect; "
          + ".dialect \(arg.lowercased()) applies to JSON data sets (.use one), or use sift sql --schema S.json --dialect \(arg.lowercased())"
      ))
  }

  /// `.engine` on a table: typed predicates run in the database; another engine is refused.
  func databaseEngine(_ arg: String, _ db: ExistingDatabase) -> REPLResponse {
    let line = "engine: \(db.label) (read-only; its tables are queried there — .engine chooses for JSON data sets)\n"
    guard !arg.isEmpty, arg.lowercased() != db.kind.rawValue else { return .ok(line) }
    guard REPLEngineKind(rawValue: arg.lowercased()) != nil else {
      return .failure(errorLine("engine must be memory, sqlite or postgres"))
    }
    return .refusal(
      errorLine(
        "typed predicates on \(db.label)'s tables run in that database; .compare evaluates them in memory too, "
          + "and .engine \(arg.lowercased()) applies to JSON data sets (.use one)"))
  }

  /// `.agg KEYPATH [PREDICATE]` on a table: count, sum, avg, min and max in SQL, over the
  /// session's fetch (offset and limit included). Sum and average of a key path that is not
  /// numeric show `–`.
  func databaseAggregate(_ arg: String, _ e: SQLEntity, _ db: ExistingDatabase) -> REPLResponse {
    let parts = arg.split(maxSplits: 1, whereSeparator: \.isWhitespace).map(String.init)
    guard let keyPath = parts.first else { return .failure(errorLine("usage: .agg KEYPATH [PREDICATE]")) }
    // The key path goes into `count:(…)` and friends: only a key path, never an expression.
    guard keyPath.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "@" }) else {
      return .failure(
        errorLine(
          "'\(keyPath)' is not a key path; usage: .agg KEYPATH [PREDICATE], e.g. .agg rating or .agg author.display_name"
        ))
    }
    let text = parts.count > 1 ? parts[1] : (lastPredicate ?? "TRUEPREDICATE")
    let predicate: SiftPredicate
    switch prepare(text) {
    case .success(let p): predicate = p
    case .failure(let error): return .failure(render(error))
    }
    let request = SiftFetchRequest(
      entity: e.name, predicate: predicate, limit: limit, offset: offset > 0 ? offset : nil, resultType: .records)
    do {
      var counting = request
      counting.resultType = .count
      let records = try db.run(try db.compiler.compile(counting)).first?.first?.intValue ?? 0
      let attribute = self.attribute(atKeyPath: keyPath, from: e, db)
      var cells: [SiftValue] = [.string(keyPath), .int(records)]
      var notes: [String] = []
      for function in ["count", "sum", "average", "min", "max"] {
        let expression = try SiftExpression(format: "\(function):(\(keyPath))")
        do {
          let value = try db.run(try db.compiler.compile(expression, over: request)).first?.first ?? .null
          // min and max are stored values (a date in its column's encoding); the others numbers.
          let decoded = function == "min" || function == "max"
          let cell =
            decoded ? attribute.map { DatabaseValues.value(value, $0, db.schema) } ?? value.siftValue : value.siftValue
          cells.append(function == "average" ? cell.rounded(places: 4) : cell)
        } catch  where error.diagnostic.id == DiagnosticID.notANumber.rawValue {
          cells.append(.string("–"))
          notes.append(error.diagnostic.message)
        }
      }
      var out = warnings(predicate)
      out += TableRenderer(style: style).render(
        columns: ["key", "records", "values", "sum", "avg", "min", "max"], rows: [cells])
      if !notes.isEmpty { out += style.dim("sum, avg: \(keyPath) is not numeric") + "\n" }
      return .ok(out)
    } catch {
      return .failure(render(error))
    }
  }

  /// `.plan [PREDICATE]` on a table: the database's plan for the statement the REPL runs
  /// (`EXPLAIN QUERY PLAN`; `EXPLAIN` on PostgreSQL and MySQL/MariaDB), and one line on whether an index serves
  /// the predicate.
  func databasePlan(_ arg: String, _ e: SQLEntity, _ db: ExistingDatabase) -> REPLResponse {
    guard let text = predicateText(arg) else { return .failure(errorLine("usage: .plan PREDICATE")) }
    let predicate: SiftPredicate
    switch prepare(text) {
    case .success(let p): predicate = p
    case .failure(let error): return .failure(render(error))
    }
    lastPredicate = text
    do {
      // The statement a typed predicate runs (`sessionRequest`), so the plan is that one's.
      let statement = try db.compiler.compile(sessionRequest(e, predicate, limit: limit))
      let lines: [String]
      let verdict: String
      if db.kind == .mysql {
        lines = try mysqlPlan(statement, db)
        verdict = DatabasePlanVerdict.mysql(lines, table: e.table, entity: e.name, predicate: predicate)
      } else if db.kind == .postgres {
        lines = try postgresPlan(statement, db)
        verdict = try DatabasePlanVerdict.postgres(lines, table: e.table, entity: e.name, predicate: predicate) {
          try self.postgresPlan(statement, db, discourageScans: true)
        }
      } else {
        guard let sqlite = db.database as? SQLiteDatabase else { return .failure(errorLine("no SQLite connection")) }
        lines = try sqlite.explainQueryPlan(statement)
        verdict = DatabasePlanVerdict.sqlite(lines, table: e.table, entity: e.name, predicate: predicate) {
          // The same rows unsorted, as .count asks for them.
          try sqlite.explainQueryPlan(
            try db.compiler.compile(SiftFetchRequest(entity: e.name, predicate: predicate, resultType: .count)))
        }
      }
      var hint = ""
      if db.kind == .sqlite, verdict.hasPrefix("no index"), let f = DatabasePlanVerdict.foldedColumn(statement.sql) {
        hint =
          "an index on sift_fold(\(f.column), …) would serve [\(f.options)]: "
          + "sift index --db FILE --fold \(e.table).\(f.column)\(f.options == "c" ? "" : " --options " + f.options)\n"
      }
      return .ok(warnings(predicate) + lines.map { "  " + $0 }.joined(separator: "\n") + "\n" + verdict + "\n" + hint)
    } catch let error as SiftError {
      return .failure(render(error))
    } catch {
      return .failure(errorLine(ExistingDatabase.message(of: error)))
    }
  }

  /// PostgreSQL's `EXPLAIN` lines; with `discourageScans`, the plan it would pick with
  /// sequential scans discouraged (`SET enable_seqscan = off` for this one statement; the
  /// setting is reset whatever happens).
  func postgresPlan(_ statement: SQLStatement, _ db: ExistingDatabase, discourageScans: Bool = false) throws -> [String]
  {
    if discourageScans { try db.database.executeScript("SET enable_seqscan = off") }
    defer { if discourageScans { try? db.database.executeScript("RESET enable_seqscan") } }
    let rows = try db.run(SQLStatement(sql: "EXPLAIN (COSTS OFF) " + statement.sql, bindings: statement.bindings))
    return rows.compactMap { if case .text(let s)? = $0.first { s } else { nil } }
  }
}

/// The one line under `.plan`: does an index serve the predicate on the table (alias `t0`)?
enum DatabasePlanVerdict {
  /// From SQLite's `EXPLAIN QUERY PLAN` lines (`SEARCH t0 USING INDEX x (…)`, `SCAN t0`).
  static func sqlite(
    _ lines: [String], table: String, entity: String, predicate: SiftPredicate, unsorted: () throws -> [String] = { [] }
  ) -> String {
    let table = name(table, entity)
    let own = lines.filter { $0.hasPrefix("SEARCH t0 ") || $0.hasPrefix("SCAN t0") }
    if let search = own.first(where: { $0.hasPrefix("SEARCH t0 ") }) {
      if let name = indexName(in: search) { return "index: \(name) serves the predicate on \(table)" }
      return "index: the primary key serves the predicate on \(table)"
    }
    if isTrue(predicate) { return "no predicate: every row of \(table) is read" }
    var line = "no index narrows the rows of \(table): every row is read"
    if let scan = own.first, let name = indexName(in: scan) { line += " (in the order of index \(name))" }
    // SQLite may scan in key order rather than search an index and sort: say when the rows
    // without the order (as .count reads them) are found by an index.
    if let search = ((try? unsorted()) ?? []).first(where: { $0.hasPrefix("SEARCH t0 ") }),
      let name = indexName(in: search)
    {
      line =
        "every row of \(table) is read in the fetch's order rather than searched and sorted; index \(name) serves the predicate without the order (.count)"
    }
    // Related tables searched for each row (to-many, many-to-many, subqueries).
    let related = lines.filter { $0.hasPrefix("SEARCH ") && !$0.hasPrefix("SEARCH t0 ") }.compactMap(indexName)
    if !related.isEmpty {
      var seen: [String] = []
      for name in related where !seen.contains(name) { seen.append(name) }
      line += "; for each, an index finds the related rows (\(seen.joined(separator: ", ")))"
    }
    return line
  }

  /// From PostgreSQL's `EXPLAIN` lines (`Index Scan using x on note t0`, `Seq Scan on note
  /// t0`); for a sequential scan, `discouraged()` gives the plan with scans discouraged, to
  /// tell a small table from a missing index.
  static func postgres(
    _ lines: [String], table: String, entity: String, predicate: SiftPredicate, discouraged: () throws -> [String]
  ) throws -> String {
    let shown = name(table, entity)
    if let index = postgresIndex(lines, table: table) { return "index: \(index) serves the predicate on \(shown)" }
    if isTrue(predicate) { return "no predicate: every row of \(shown) is read" }
    guard lines.contains(where: { $0.contains("Seq Scan on \(table) t0") }) else {
      return "no index serves the predicate on \(shown)"
    }
    if let index = postgresIndex(try discouraged(), table: table) {
      return
        "the planner reads every row of \(shown) (a sequential scan is cheaper for its size); index \(index) would serve the predicate"
    }
    return "no index narrows the rows of \(shown): every row is read"
  }

  /// The root table's column a compiled statement folds and its options
  /// (`sift_fold(t0."title", 3)` → `title`, `cd`), if any: what `sift index --fold` would index.
  static func foldedColumn(_ sql: String) -> (column: String, options: String)? {
    guard let start = sql.range(of: "sift_fold(t0.\"")?.upperBound, let end = sql[start...].firstIndex(of: "\"") else {
      return nil
    }
    // sift_fold's second argument: 1 = [c], 2 = [d], 3 = [cd].
    let rest = sql[end...].dropFirst().prefix(3)
    let options = rest == ", 2" ? "d" : rest == ", 3" ? "cd" : "c"
    return (String(sql[start..<end]), options)
  }

  /// `note`, or `Book (table ZITEM)` when the entity is named apart from its table.
  static func name(_ table: String, _ entity: String) -> String {
    table == entity ? table : "\(entity) (table \(table))"
  }

  static func postgresIndex(_ lines: [String], table: String) -> String? {
    for (i, line) in lines.enumerated() {
      let t = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "->  ", with: "")
      // An index scan serves the predicate when it has an Index Cond (else it only orders).
      let condition =
        lines.indices.contains(i + 1) && lines[i + 1].trimmingCharacters(in: .whitespaces).hasPrefix("Index Cond:")
      for prefix in [
        "Index Scan using ", "Index Only Scan using ", "Index Scan Backward using ", "Index Only Scan Backward using ",
      ]
      where t.hasPrefix(prefix) && condition {
        let rest = t.dropFirst(prefix.count)
        if rest.contains(" on \(table) t0") { return rest.components(separatedBy: " on ").first }
      }
      // A bitmap heap scan of the table is fed by the bitmap index scans below it.
      if t.hasPrefix("Bitmap Heap Scan on \(table) t0") {
        for below in lines[(i + 1)...] {
          let b = below.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "->  ", with: "")
          if b.hasPrefix("Bitmap Index Scan on ") {
            return b.dropFirst("Bitmap Index Scan on ".count).components(separatedBy: " ").first
          }
        }
      }
    }
    return nil
  }

  static func indexName(in line: String) -> String? {
    for marker in ["USING COVERING INDEX ", "USING INDEX "] {
      if let r = line.range(of: marker) { return line[r.upperBound...].components(separatedBy: " ").first }
    }
    return nil
  }

  static func isTrue(_ p: SiftPredicate) -> Bool { p.predicateFormat == "TRUEPREDICATE" }
}
