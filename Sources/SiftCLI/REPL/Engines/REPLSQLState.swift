import Foundation
import SiftSyntax

/// The SQL back ends of a session.
struct REPLSQLState {
  /// The SQLite database the data sets are mirrored into (nil when SQL is unavailable).
  var sqlite: AnyObject?
  /// The connected PostgreSQL database.
  var postgres: AnyObject?
  /// Why SQL is unavailable, when it is.
  var unavailable: String? = "SQL compilation is not available in this build yet"
}

extension REPLSession {

  /// Adds a data set with an optional schema file.
  func add(_ set: REPLDataSet, schemaPath: String?) -> String? {
    if let i = dataSets.firstIndex(where: { $0.name == set.name }) { dataSets[i] = set } else { dataSets.append(set) }
    if entity.isEmpty { entity = set.name }
    return sql.unavailable.map { "not loaded into SQL: \($0)" }
  }

  /// Why an engine cannot be used right now, or nil.
  func sqlAvailability(_ kind: REPLEngineKind) -> String? {
    switch kind {
    case .memory: return nil
    case .sqlite: return sql.unavailable ?? (sql.sqlite == nil ? "no SQLite database" : nil)
    case .postgres: return sql.unavailable ?? (sql.postgres == nil ? "not connected to PostgreSQL; use .connect CONNINFO" : nil)
    }
  }

  func sqlStatusLine(_ kind: REPLEngineKind) -> String {
    sqlAvailability(kind) ?? "ready"
  }

  func sqlMatches(_ predicate: SiftPredicate, in set: REPLDataSet, engine: REPLEngineKind) throws -> REPLFetchResult {
    throw REPLDataError(sqlAvailability(engine) ?? "SQL is not available")
  }

  func showSQL(_ arg: String) -> REPLResponse {
    .failure(errorLine(sql.unavailable ?? "SQL is not available"))
  }

  func showPlan(_ arg: String) -> REPLResponse {
    .failure(errorLine(sql.unavailable ?? "SQL is not available"))
  }

  func compare(_ arg: String) -> REPLResponse {
    .failure(errorLine(sql.unavailable ?? "SQL is not available"))
  }

  func connect(_ arg: String) -> REPLResponse {
    .failure(errorLine(sql.unavailable ?? "PostgreSQL is not available"))
  }

  func open(_ arg: String) -> REPLResponse {
    .failure(errorLine(sql.unavailable ?? "SQLite is not available"))
  }
}
