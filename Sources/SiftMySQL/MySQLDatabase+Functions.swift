import SiftSQL
import SiftSyntax

extension MySQLDatabase {
  /// Creates (or replaces) Sift's SQL functions in database `database`
  /// (`MySQLDialect.setupSQL(database:)`: the database itself if missing, then each function,
  /// idempotent), so statements compiled with `MySQLDialect(functionDatabase: database)` find
  /// them. MySQL runs each `CREATE` on its own (DDL is not transactional); running it again
  /// finishes what an interrupted run left. Never done silently: compiled SQL that needs a
  /// missing function fails with `missing-sift-functions`, naming this.
  ///
  /// ```swift
  /// let admin = try MySQLDatabase(url: "mysql://root:pw@127.0.0.1/shop", readOnly: false)
  /// try admin.prepareSiftFunctions()   // into the database `sift`
  /// ```
  /// - Throws: `SiftError`: `sift-functions-privilege` when the user may not create the
  ///   database or the functions (the server's words, and what to do); the server's other
  ///   errors (a read-only connection refuses with `mysql-query`).
  public func prepareSiftFunctions(database: String = MySQLDialect.defaultFunctionDatabase) throws(SiftError) {
    for statement in MySQLDialect.setupSQL(database: database) {
      do {
        try executeScript(statement)
      } catch {
        // 1044/1142/1227/1370: access denied; 1419: binary logging needs SUPER or
        // log_bin_trust_function_creators for stored functions.
        guard let cause = error.underlying as? MySQLError, [1044, 1142, 1227, 1370, 1419].contains(cause.code ?? 0)
        else { throw error }
        throw SiftError(
          stage: .sql, id: .siftFunctionsPrivilege,
          message:
            "this user may not create Sift's SQL functions in database \(MySQLDatabase.quoteIdentifier(database)) "
            + "(\(cause.message)); run sift setup-sql --dialect mysql as a user with CREATE and CREATE ROUTINE "
            + "there (on a server that logs binary, with SUPER or log_bin_trust_function_creators = 1)",
          underlying: cause)
      }
    }
  }
}
