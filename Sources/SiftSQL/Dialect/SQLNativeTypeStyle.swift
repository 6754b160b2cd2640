/// How compiled SQL reads the native column types of a database Sift did not create
/// (`SQLDialect.nativeTypes`).
///
/// ```swift
/// PostgreSQLDialect().nativeTypes   // .postgres
/// SQLiteDialect().nativeTypes       // .sqlite
/// ```
public enum SQLNativeTypeStyle: Sendable, Hashable {
  /// SQLite: JSON arrays through `json_each`/`json_array_length`, dates as numbers or text
  /// (converted with `julianday` only where two encodings meet).
  case sqlite
  /// PostgreSQL: `unnest(col) WITH ORDINALITY` and `cardinality` for arrays,
  /// `jsonb_array_elements_text` and `jsonb_array_length` for JSON arrays, bound values cast
  /// to `timestamptz`/`timestamp`/`uuid`/`numeric` to meet native columns.
  case postgres
}
