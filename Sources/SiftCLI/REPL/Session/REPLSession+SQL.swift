import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax

extension REPLSession {
  /// Prepared predicate plus data set, or the failure response.
  func sqlInputs(_ arg: String, usage: String) -> Result<(SiftPredicate, REPLDataSet), REPLResponse> {
    guard let text = predicateText(arg) else { return .failure(.failure(errorLine("usage: \(usage)"))) }
    guard let set = current else { return .failure(.failure(errorLine("no entity loaded"))) }
    switch prepare(text) {
    case .success(let p):
      lastPredicate = text
      return .success((p, set))
    case .failure(let e): return .failure(.failure(render(e)))
    }
  }

  func showSQL(_ arg: String) -> REPLResponse {
    let inputs: (SiftPredicate, REPLDataSet)
    switch sqlInputs(arg, usage: ".sql PREDICATE") {
    case .success(let v): inputs = v
    case .failure(let r): return r
    }
    do {
      let st = try compiler(dialect, for: inputs.1).compile(request(inputs.0, inputs.1, .records, paged: true))
      var out = warnings(inputs.0) + style.cyan(st.sql) + "\n"
      if !st.bindings.isEmpty {
        out +=
          style.dim("bindings:") + " "
          + st.bindings.enumerated().map {
            "\(dialect == .postgres ? "$\($0.offset + 1)" : "?\($0.offset + 1)")=\($0.element)"
          }.joined(separator: ", ") + "\n"
      }
      return .ok(out)
    } catch let e as SiftError {
      return .failure(render(e))
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }

  func showPlan(_ arg: String) -> REPLResponse {
    let inputs: (SiftPredicate, REPLDataSet)
    switch sqlInputs(arg, usage: ".plan PREDICATE") {
    case .success(let v): inputs = v
    case .failure(let r): return r
    }
    do {
      try ensureInSQL(inputs.1, .sqlite)
      guard let db = sql.sqlite else { return .failure(errorLine("no SQLite database")) }
      let st = try compiler(.sqlite, for: inputs.1).compile(request(inputs.0, inputs.1, .records, paged: true))
      return .ok(try db.explainQueryPlan(st).map { "  " + $0 }.joined(separator: "\n") + "\n")
    } catch let e as SiftError {
      return .failure(render(e))
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }

  func connect(_ arg: String) -> REPLResponse {
    guard !arg.isEmpty else {
      return .failure(
        errorLine("usage: .connect CONNINFO [--pg-schema NAME]   e.g. .connect host=127.0.0.1 dbname=sift user=sift"))
    }
    if let existing = connectExisting(arg) { return existing }
    sql.postgres?.close()
    sql.postgres = nil
    sql.inPostgres = []
    let pg: PostgresDatabase
    do {
      pg = try PostgresDatabase(conninfo: arg, schema: .temporary(prefix: "sift_repl"))
    } catch let failure where failure.id == DiagnosticID.postgresConnection.rawValue {
      return .failure(errorLine("cannot connect to PostgreSQL: \(failure)"))
    } catch {
      // Connected, but the server refused what the REPL makes there: say what and why.
      return .failure(
        errorLine(
          "connected to PostgreSQL, but it refused the REPL's scratch schema (sift_repl_…, where entities are copied "
            + "to be queried): \(error.message); grant the role CREATE on the database, or open an existing schema "
            + "read-only with .connect CONNINFO --pg-schema NAME"))
    }
    do {
      try pg.prepareSiftFunctions()
    } catch {
      pg.close()
      let schema = PostgreSQLDialect.defaultFunctionSchema
      return .failure(
        errorLine(
          "connected to PostgreSQL, but it refused Sift's SQL functions (schema \(schema), which compiled predicates "
            + "call): \(error.message); run sift setup-sql --dialect postgres as a role that may create them"))
    }
    sql.postgres = pg
    return .ok(
      "connected to PostgreSQL (schema \(pg.schemaName ?? "public")); entities are copied there when first queried\n")
  }
}
