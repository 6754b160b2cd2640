import SiftSyntax

/// What a batch request reports, as Core Data's `NSBatchDeleteResult`/`NSBatchUpdateResult`/
/// `NSBatchInsertResult` result types do: the count of rows changed (`.count`), or their keys
/// as well (`.keys`, Core Data's object IDs).
///
/// ```swift
/// let result = try db.run(BatchDeleteRequest(entity: "Venue"), compiler: compiler, resultType: .keys)
/// ```
public enum SiftBatchResultType: Sendable, Hashable {
  /// The number of rows changed.
  case count
  /// The number of rows changed and each one's key.
  case keys
}

/// The outcome of a batch request run by `SQLDatabase.run(_:compiler:resultType:)`.
///
/// ```swift
/// let result = try db.run(BatchUpdateRequest(entity: "Venue", assignments: [("tipCount", .value(0))]), compiler: c)
/// result.count   // rows updated
/// ```
public struct SiftBatchResult: Sendable, Hashable {
  /// How many rows the request deleted, updated or inserted.
  public var count: Int
  /// With `.keys`: each changed row's primary-key column values (one value for a one-column
  /// key), in the order the database reported them; nil with `.count`.
  public var keys: [[SQLValue]]?

  /// Creates a result.
  public init(count: Int, keys: [[SQLValue]]? = nil) {
    self.count = count
    self.keys = keys
  }
}

extension SQLDatabase {
  /// Runs a batch delete as one transaction (the DELETE and, in tables Sift created, its
  /// clean-up): all of it or none. In a database Sift did not create the database's own
  /// foreign-key rules apply (on SQLite, declared keys are enforced for the delete) and Sift adds
  /// none (`SQLCompiler.compile(_:)` for the details).
  ///
  /// ```swift
  /// let gone = try db.run(BatchDeleteRequest(entity: "Venue", predicate: p), compiler: compiler).count
  /// ```
  /// - Throws: `SiftError` from compiling; the database's error for a statement that failed
  ///   (nothing of the request is left done).
  @discardableResult
  public func run(
    _ request: BatchDeleteRequest, compiler: SQLCompiler, resultType: SiftBatchResultType = .count
  ) throws(SiftError) -> SiftBatchResult {
    let statements = try compiler.deleteStatements(request, returningKeys: true)
    return try withDeclaredForeignKeys(compiler) { () throws(SiftError) in
      Self.result(try executeTransaction(statements).first ?? [], resultType)
    }
  }

  /// Runs `body` with SQLite's enforcement of declared foreign keys on (`PRAGMA foreign_keys`,
  /// off by default per connection) in a database Sift did not create, so a write follows the
  /// database's own rules (`ON DELETE`/`ON UPDATE` actions; a `RESTRICT`ed or `NO ACTION` key, or
  /// a child pointing at no parent, refuses it with `foreign-key-violation`, undoing it all); the
  /// connection's setting is restored afterwards. The pragma does nothing inside a transaction,
  /// so it is set before `body`'s `BEGIN`. Other databases enforce their keys always.
  func withDeclaredForeignKeys<T>(
    _ compiler: SQLCompiler, _ body: () throws(SiftError) -> T
  ) throws(SiftError) -> T {
    guard compiler.schema.layout == .existing, compiler.dialect is SQLiteDialect,
      case .integer(0)? = try execute(SQLStatement(sql: "PRAGMA foreign_keys")).first?.first
    else { return try body() }
    try executeScript("PRAGMA foreign_keys = ON")
    defer { try? executeScript("PRAGMA foreign_keys = OFF") }
    return try body()
  }

  /// Runs a batch update as one transaction; a Core Data store's `Z_OPT` is incremented on
  /// every row updated. Declared foreign keys are enforced as for a delete.
  ///
  /// ```swift
  /// try db.run(BatchUpdateRequest(entity: "Venue", assignments: [("favorite", .value(true))]), compiler: compiler)
  /// ```
  /// - Throws: `SiftError` from compiling; the database's error (nothing changed).
  @discardableResult
  public func run(
    _ request: BatchUpdateRequest, compiler: SQLCompiler, resultType: SiftBatchResultType = .count
  ) throws(SiftError) -> SiftBatchResult {
    let statements = try compiler.updateStatements(request, returningKeys: true)
    return try withDeclaredForeignKeys(compiler) { () throws(SiftError) in
      Self.result(try executeTransaction(statements).first ?? [], resultType)
    }
  }

  /// Inserts every object as one transaction: when one fails (a duplicate key, a constraint,
  /// a declared foreign key with no parent row), none is inserted.
  ///
  /// ```swift
  /// try db.run(BatchInsertRequest(entity: "Venue", objects: [["id": 7, "name": "Blue Cafe"]]), compiler: compiler)
  /// ```
  /// - Throws: `SiftError` from compiling; the database's error (nothing inserted).
  @discardableResult
  public func run(
    _ request: BatchInsertRequest, compiler: SQLCompiler, resultType: SiftBatchResultType = .count
  ) throws(SiftError) -> SiftBatchResult {
    let statements = try compiler.insertStatements(request, returningKeys: true)
    return try withDeclaredForeignKeys(compiler) { () throws(SiftError) in
      Self.result(try executeTransaction(statements).flatMap { $0 }, resultType)
    }
  }

  static func result(_ rows: [[SQLValue]], _ type: SiftBatchResultType) -> SiftBatchResult {
    SiftBatchResult(count: rows.count, keys: type == .keys ? rows : nil)
  }
}
