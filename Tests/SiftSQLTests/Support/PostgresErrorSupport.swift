import SiftPostgres
import SiftSyntax

/// Tests look at the PostgreSQL cause beneath a `SiftError` (its kind and SQLSTATE).
extension SiftError {
  var postgres: PostgresError? { underlying as? PostgresError }
  var kind: PostgresError.Kind? { postgres?.kind }
  var sqlState: String? { postgres?.sqlState }
}
