import SiftSyntax

/// `INSERT INTO … (columns) VALUES (…)` for each object (Core Data's NSBatchInsertRequest):
/// attribute names to values, each value stored in its column's own form (dates in the
/// column's encoding, booleans as the column keeps them). Run with
/// `SQLDatabase.run(_:compiler:resultType:)`: all of the objects or none.
///
/// ```swift
/// let r = BatchInsertRequest(entity: "Venue", objects: [["id": 7, "name": "Blue Cafe"]])
/// ```
public struct BatchInsertRequest: Sendable {
  /// The entity.
  public var entity: String
  /// The new rows: attribute name → value (the key attribute included unless the database
  /// makes it).
  public var objects: [[String: SiftValue]]

  /// Creates a request.
  public init(entity: String, objects: [[String: SiftValue]]) {
    self.entity = entity
    self.objects = objects
  }
}

extension SQLCompiler {
  /// One `INSERT` per object (`RETURNING` its key columns when `returningKeys`). Attributes only:
  /// an array attribute, a relationship or an unknown name is `invalid-assignment`; a Core Data
  /// store's entity is refused (`unsupported-write`: a new row needs `Z_PRIMARYKEY.Z_MAX`,
  /// `Z_ENT` and `Z_OPT`, which only Core Data keeps).
  ///
  /// ```swift
  /// let statements = try compiler.compile(BatchInsertRequest(entity: "Venue", objects: [["id": 7]]))
  /// ```
  public func compile(_ request: BatchInsertRequest) throws(SiftError) -> [SQLStatement] {
    try insertStatements(request, returningKeys: false)
  }

  func insertStatements(_ request: BatchInsertRequest, returningKeys: Bool) throws(SiftError) -> [SQLStatement] {
    let e = try writableEntity(request.entity)
    let q = dialect.quoteIdentifier
    if isCoreDataTable(e) {
      throw SQLDiagnostic.coreDataInsert(entity: e.name).error()
    }
    var out: [SQLStatement] = []
    out.reserveCapacity(request.objects.count)
    for object in request.objects {
      var columns: [String] = []
      var values: [SQLFragment] = []
      var nextAlias = 1
      for name in object.keys.sorted() {
        guard let value = object[name] else { continue }
        let (a, written): (SQLAttribute, SQLExpr)
        if name == e.primaryKey, let key = e.attribute(name) {
          var c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: name)
          c.nextAlias = nextAlias
          (a, written) = (
            key, try c.bind(value, hint: SQLType(key.type), SiftSourceRange(start: 0, end: name.utf8.count))
          )
        } else {
          (a, written) = try assignment(name, .value(value), of: e, nextAlias: &nextAlias)
        }
        columns.append(q(a.column))
        values.append(written.sql)
      }
      guard !columns.isEmpty else {
        throw SQLDiagnostic.emptyInsert(entity: e.name).error()
      }
      var sql = SQLFragment(sql: "INSERT INTO " + q(e.table) + " (" + columns.joined(separator: ", ") + ") VALUES (")
      sql.append(list: values)
      sql.append(")")
      if returningKeys { sql.append(returning(e)) }
      out.append(sql.statement(dialect))
    }
    return out
  }
}

extension BatchInsertRequest {
  /// Creates a request from plain Swift values: `String`, every integer width, `Double`, `Bool`,
  /// `Date`, `UUID`, `Data`, optionals (`nil` stores NULL), `RawRepresentable` enums and any
  /// `SiftValueConvertible`.
  ///
  /// ```swift
  /// let name = "Blue Cafe"
  /// let r = try BatchInsertRequest(entity: "Venue", objects: [["id": 7, "name": name, "rating": nil]])
  /// ```
  /// - Throws: `SiftError` (stage `.arguments`, id `unsupported-argument-type`) naming the object
  ///   and the attribute whose value Sift cannot store.
  @_disfavoredOverload
  public init(entity: String, objects: [[String: Any?]]) throws(SiftError) {
    var converted: [[String: SiftValue]] = []
    for (n, object) in objects.enumerated() {
      var row: [String: SiftValue] = [:]
      for name in object.keys.sorted() {
        let value = object[name] ?? nil
        guard let v = SiftValue(converting: value) else {
          throw SiftError(
            stage: .arguments, id: .unsupportedArgumentType,
            message: "object \(n), '\(name)': \(SiftValue.typeName(of: value)) is not a value Sift can store; "
              + "conform it to SiftValueConvertible")
        }
        row[name] = v
      }
      converted.append(row)
    }
    self.init(entity: entity, objects: converted)
  }
}
