import Foundation
import SiftSQL
import SiftSyntax

/// The REPL on a database Sift did not create (`sift --db FILE`, `.open FILE`, `sift --postgres
/// CONNINFO --pg-schema NAME`, `.connect CONNINFO --pg-schema NAME`): its tables are entities,
/// typed predicates run in that database (read-only connection, whatever `.engine` says), and
/// `.tables`/`.schema TABLE` show what was read and how keys map. Database tables shadow JSON
/// data sets of the same name while the database is open.
extension REPLSession {
  /// The current entity when it is a table of the open database.
  var databaseEntity: SQLEntity? { sql.existing?.schema.entity(entity) }

  /// Makes `db` the session's database (closing the previous one) and its first table current.
  func attach(_ db: ExistingDatabase) -> REPLResponse {
    sql.existing?.close()
    sql.existing = db
    sql.writable = false
    if watching?.table != nil { watching = nil }
    lastPredicate = nil
    if let first = db.schema.entityNames.first { entity = first }
    let names = TerminalText.escaped(db.schema.entityNames.joined(separator: ", "))
    var out = "opened \(TerminalText.escaped(db.label)) read-only: \(db.schema.entityNames.count) tables (\(names))\n"
    if !db.warnings.isEmpty {
      out +=
        style.dim("\(db.warnings.count) note\(db.warnings.count == 1 ? "" : "s") on what was read; .tables shows them")
        + "\n"
    }
    return .ok(out)
  }

  /// `.open FILE.sqlite [--schema S.json] [--model M [--configuration C]]`: the file's tables (a
  /// Core Data store's entities), read-only. Nothing is written.
  func open(_ arg: String) -> REPLResponse {
    let words = REPLSession.splitWords(arg)
    let usage = "usage: .open FILE.sqlite [--schema S.json] [--model MODEL.xcdatamodeld [--configuration NAME]]"
    var file: String?
    var schemaFile: String?
    var model: String?
    var configuration: String?
    var i = 0
    while i < words.count {
      if words[i] == "--schema" || words[i] == "--model" || words[i] == "--configuration" {
        guard i + 1 < words.count else { return .failure(errorLine("\(words[i]) needs a value")) }
        switch words[i] {
        case "--schema": schemaFile = words[i + 1]
        case "--model": model = words[i + 1]
        default: configuration = words[i + 1]
        }
        i += 2
      } else {
        guard file == nil else { return .failure(errorLine(usage)) }
        file = words[i]
        i += 1
      }
    }
    guard let file, configuration == nil || model != nil else { return .failure(errorLine(usage)) }
    do {
      return attach(
        try ExistingDatabase.open(sqlite: file, schemaFile: schemaFile, model: model, configuration: configuration))
    } catch {
      return .failure(errorLine(error.description))
    }
  }

  /// `.connect CONNINFO --pg-schema NAME [--schema S.json]`: an existing PostgreSQL schema;
  /// `.connect mysql://USER:PASSWORD@HOST:PORT/DATABASE [--schema S.json]`: a MySQL/MariaDB database.
  func connectExisting(_ arg: String) -> REPLResponse? {
    let words = REPLSession.splitWords(arg)
    if let url = words.first, url.hasPrefix("mysql://") {
      var schemaFile: String?
      if words.count == 3, words[1] == "--schema" {
        schemaFile = words[2]
      } else if words.count != 1 {
        return .failure(errorLine("usage: .connect mysql://USER:PASSWORD@HOST:PORT/DATABASE [--schema S.json]"))
      }
      do {
        return attach(try ExistingDatabase.open(mysql: url, schemaFile: schemaFile))
      } catch {
        return .failure(errorLine(error.description))
      }
    }
    guard let at = words.firstIndex(of: "--pg-schema") else { return nil }
    guard at + 1 < words.count else { return .failure(errorLine("--pg-schema needs a value")) }
    var rest = words
    let name = rest[at + 1]
    rest.removeSubrange(at...(at + 1))
    var schemaFile: String?
    if let s = rest.firstIndex(of: "--schema") {
      guard s + 1 < rest.count else { return .failure(errorLine("--schema needs a value")) }
      schemaFile = rest[s + 1]
      rest.removeSubrange(s...(s + 1))
    }
    do {
      return attach(
        try ExistingDatabase.open(postgres: rest.joined(separator: " "), schema: name, schemaFile: schemaFile))
    } catch {
      return .failure(errorLine(error.description))
    }
  }

  /// Commands that mean something else for a database table; nil lets the usual command run.
  func runOnDatabase(_ name: String, _ arg: String) -> REPLResponse? {
    guard let db = sql.existing else { return nil }
    switch name {
    case "entities" where arg.isEmpty: return listTables(db)
    case "entities", "schema":
      if let e = db.schema.entity(arg.isEmpty ? entity : arg) { return describeTable(e, db) }
      return nil
    case "use":
      guard db.schema.entity(arg) != nil else { return nil }
      if entity != arg { lastPredicate = nil }
      entity = arg
      return .ok("entity: \(TerminalText.escaped(arg)) (table in \(TerminalText.escaped(db.label)))\n")
    default: break
    }
    guard let e = databaseEntity else { return nil }
    switch name {
    case "eval": return evaluateInDatabase(arg, e, db, countOnly: false)
    case "count": return evaluateInDatabase(arg, e, db, countOnly: true)
    case "sql": return databaseSQL(arg, e, db)
    // Typed predicates on a database table always run in that database.
    case "engine": return databaseEngine(arg, db)
    case "dialect": return databaseDialect(arg, db)
    case "agg": return databaseAggregate(arg, e, db)
    case "plan": return databasePlan(arg, e, db)
    case "columns": return databaseColumns(arg, e, db)
    case "compare": return databaseCompare(arg, e, db)
    default: return nil
    }
  }

  /// `.tables` with a database open: its tables, keys and relationships, then the warnings.
  func listTables(_ db: ExistingDatabase) -> REPLResponse {
    let rows: [[SiftValue]] = db.schema.entityNames.compactMap { db.schema.entity($0) }.map { e in
      [
        .string((e.name == entity ? "* " : "  ") + e.name), .string(e.isView ? "view" : "table"),
        .string(keyText(e)), .int(Int64(e.attributes.count)),
        .string(e.relationships.map(\.name).joined(separator: ", ")),
      ]
    }
    var out = "\(TerminalText.escaped(db.label)) (read-only)\n"
    out += TableRenderer(style: style, maxCellWidth: 50).render(
      columns: ["entity", "kind", "primary key", "attributes", "relationships"], rows: rows)
    let memory = dataSets.filter { db.schema.entity($0.name) == nil }
    if !memory.isEmpty {
      out += "JSON data sets: " + TerminalText.escaped(memory.map(\.name).joined(separator: ", ")) + "\n"
    }
    out += warningLines(db.warnings)
    return .ok(out)
  }

  /// `.schema TABLE`: attributes (column, type, date encoding, nullability), relationships
  /// with their keys, and the warnings about this table.
  func describeTable(_ e: SQLEntity, _ db: ExistingDatabase) -> REPLResponse {
    var out =
      TerminalText.escaped("entity \(e.name): \(e.isView ? "view" : "table") \(e.table), primary key \(keyText(e))")
      + "\n"
    let attributes: [[SiftValue]] = e.attributes.map { a in
      var type = a.type.rawValue
      if a.type == .date { type += " (\(a.dateEncoding(in: db.schema).rawValue))" }
      if let storage = a.arrayStorage { type += " (\(storage.rawValue))" }
      return [
        .string(a.name), .string(a.column), .string(type), .string(a.nativeType ?? ""),
        .string(a.isNullable ? "yes" : "no"),
      ]
    }
    out += TableRenderer(style: style, maxCellWidth: 40).render(
      columns: ["attribute", "column", "type", "declared", "null"], rows: attributes)
    if !e.relationships.isEmpty {
      let rels: [[SiftValue]] = e.relationships.map { r in
        let (kind, key): (String, String)
        switch r.kind {
        case .toOne(let fk): (kind, key) = ("to-one", "\(e.table).\(fk) → \(target(r, db)).\(targetKey(r, db))")
        case .toMany(let fk): (kind, key) = ("to-many", "\(target(r, db)).\(fk) → \(e.table).\(e.primaryKey)")
        case .manyToMany(let join, let source, let other):
          (kind, key) = ("many-to-many", "\(join)(\(source) → \(e.table), \(other) → \(target(r, db)))")
        }
        let ordered = r.orderColumn.map { " ordered by \($0)" } ?? ""
        return [.string(r.name), .string(kind + ordered), .string(r.target), .string(key)]
      }
      out += TableRenderer(style: style, maxCellWidth: 60).render(
        columns: ["relationship", "kind", "target", "keys"], rows: rels)
    }
    for index in e.indexes where index.isUnique && index.columns != e.primaryKeyColumns {
      out += TerminalText.escaped("unique: \(index.name) (\(index.columns.joined(separator: ", ")))") + "\n"
    }
    out += warningLines(db.warnings.filter { $0.table == e.table || $0.entity == e.name })
    return .ok(out)
  }

  private func keyText(_ e: SQLEntity) -> String {
    if e.isView { return "none (view)" }
    if e.primaryKeyColumns.isEmpty { return "none" }
    return e.primaryKeyColumns.joined(separator: ", ") + (e.hasSingleColumnKey ? "" : " (composite)")
  }

  private func target(_ r: SQLRelationship, _ db: ExistingDatabase) -> String {
    db.schema.entity(r.target)?.table ?? r.target
  }
  private func targetKey(_ r: SQLRelationship, _ db: ExistingDatabase) -> String {
    db.schema.entity(r.target)?.primaryKeyAttribute.column ?? "?"
  }

  private func warningLines(_ warnings: [SQLIntrospectionWarning]) -> String {
    warnings.map { style.yellow("note") + ": \(TerminalText.escaped($0.description)) [\($0.kind.rawValue)]\n" }.joined()
  }

  /// A typed predicate (or `.count`) on a database table: counted and fetched in SQL, with
  /// the session's sort, offset and limit; the first `.rows` rows are shown.
  func evaluateInDatabase(_ arg: String, _ e: SQLEntity, _ db: ExistingDatabase, countOnly: Bool) -> REPLResponse {
    guard let text = predicateText(arg) ?? (countOnly ? "TRUEPREDICATE" : nil) else {
      return .failure(errorLine("no predicate yet; type one, e.g. \(e.attributes.first?.name ?? "id") != nil"))
    }
    let predicate: SiftPredicate
    switch prepare(text) {
    case .success(let p): predicate = p
    case .failure(let error): return .failure(render(error))
    }
    lastPredicate = text
    do {
      let compiler = db.compiler
      let counted = try db.run(
        try compiler.compile(SiftFetchRequest(entity: e.name, predicate: predicate, resultType: .count)))
      let total = Int(counted.first?.first?.intValue ?? 0)
      let selected = max(0, min(limit ?? Int.max, total - offset))
      if countOnly { return .ok(warnings(predicate) + "\(selected)\n") }
      let shown = min(selected, max(0, displayRows))
      var out = warnings(predicate)
      if shown > 0 {
        // The first eight columns, like a JSON data set's default table, or those of .columns.
        out += TableRenderer(style: style).render(
          columns: displayColumns(e), rows: try displayRows(e, predicate, db, limit: shown))
      }
      var footer =
        shown < selected ? "(first \(shown) of \(selected) rows" : "(\(selected) row\(selected == 1 ? "" : "s")"
      if total != selected { footer += "; \(total) match before offset/limit" }
      return .ok(out + style.dim(footer + ")") + "\n")
    } catch {
      return .failure(render(error))
    }
  }

  /// The records of `e` matching `predicate` in the session's order (`.sort`, with its
  /// comparisons and nil placement), from its offset, at most `limit`.
  func sessionRequest(_ e: SQLEntity, _ predicate: SiftPredicate, limit: Int?) -> SiftFetchRequest {
    SiftFetchRequest(
      entity: e.name, predicate: predicate, sortDescriptors: sort, limit: limit,
      offset: offset > 0 ? offset : nil, resultType: .records)
  }

  /// `.sql` on a database table: the statement in the database's dialect.
  func databaseSQL(_ arg: String, _ e: SQLEntity, _ db: ExistingDatabase) -> REPLResponse {
    guard let text = predicateText(arg) else { return .failure(errorLine("usage: .sql PREDICATE")) }
    let predicate: SiftPredicate
    switch prepare(text) {
    case .success(let p): predicate = p
    case .failure(let error): return .failure(render(error))
    }
    lastPredicate = text
    do {
      let st = try db.compiler.compile(sessionRequest(e, predicate, limit: limit))
      var out = warnings(predicate) + style.cyan(st.sql) + "\n"
      if !st.bindings.isEmpty {
        let pg = db.kind == .postgres
        out +=
          style.dim("bindings:") + " "
          + st.bindings.enumerated().map { "\(pg ? "$" : "?")\($0.offset + 1)=\($0.element)" }.joined(separator: ", ")
          + "\n"
      }
      let functions = st.requiredFunctions
      if !functions.isEmpty {
        let setup =
          db.kind == .sqlite
          ? "registered on this connection"
          : "created once per \(db.kind == .mysql ? "server" : "database") by sift setup-sql --dialect \(db.kind.rawValue)"
        out += style.dim("functions:") + " " + functions.joined(separator: ", ") + " (Sift's SQL functions, \(setup))\n"
      }
      return .ok(out)
    } catch {
      return .failure(render(error))
    }
  }
}
