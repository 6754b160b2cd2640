import CSQLite
import SiftSQL
import SiftSyntax

extension SQLiteDatabase {
  /// The records (or rows of any shape) `request` selects, decoded as `type` through
  /// `Decodable`: coding keys are the schema's attribute names, and each value is read in its
  /// column's own encoding (`SQLColumnCodec`: dates as seconds or milliseconds since 1970,
  /// Core Data's seconds since 2001 or ISO-8601 text, booleans from 0/1, UUIDs from text or
  /// blobs, arrays from JSON). `SiftRow.self` gives rows with named access. Without `schema`,
  /// the database's own is read (`introspectSchema`). Arrays kept in Sift's side tables (a
  /// database `sift load` made) are not in the rows: declare them optional or leave them out.
  /// `keys` maps stored names to coding keys (`updated_at` fills `updatedAt` with `.snakeCase`).
  ///
  /// ```swift
  /// struct Note: Decodable { var id: Int; var title: String; var createdAt: Date; var pinned: Bool }
  /// let notes = try db.fetch(SiftFetchRequest(entity: "Note", predicate: try SiftPredicate(format: "pinned == YES")), as: Note.self)
  /// ```
  /// - Throws: `SiftError`: the compiler's, SQLite's, or a decoding error naming the row,
  ///   key, column and what was found.
  public func fetch<T: Decodable>(
    _ request: SiftFetchRequest, as type: T.Type, schema: SQLSchema? = nil, keys: SiftKeyStrategy = .exact
  ) throws(SiftError) -> [T] {
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: try self.schema(schema))
    do {
      let columns = try compiler.resultColumns(for: request).renamed(for: keys)
      let statement = try compiler.compileForDecoding(request)
      guard T.self == SiftRow.self else { return try decodeRows(statement, columns: columns, as: type) }
      var sink = SiftRowSink(columns: columns, as: type)
      try forEachRow(statement) { try sink.append($0) }
      return sink.results
    } catch {
      throw SiftError.decoding(error)
    }
  }

  /// `given` (checked against the file on first use: `SQLSchema.checkStorage`), or the file's
  /// own schema.
  func schema(_ given: SQLSchema?) throws(SiftError) -> SQLSchema {
    if let given {
      try schemaChecks.check(given, in: self, dialect: SQLiteDialect())
      return given
    }
    return try introspectSchema().schema
  }

  /// The number of records `request` selects (its limit and offset applied).
  ///
  /// ```swift
  /// let pinned = try db.fetchCount(SiftFetchRequest(entity: "Note", predicate: try SiftPredicate(format: "pinned == YES")))
  /// ```
  /// - Throws: `SiftError`: the compiler's or SQLite's.
  public func fetchCount(_ request: SiftFetchRequest, schema: SQLSchema? = nil) throws(SiftError) -> Int {
    do {
      return try SQLCompiler(dialect: SQLiteDialect(), schema: try self.schema(schema)).fetchCount(request, in: self)
    } catch {
      throw SiftError.decoding(error)
    }
  }

  /// Runs `statement` and hands each row to `body` as it is read, in one reused buffer (rows
  /// are not collected first, as `execute` does).
  func forEachRow(_ statement: SQLStatement, _ body: ([SQLValue]) throws -> Void) throws {
    let st = try bound(statement)
    defer { sqlite3_reset(st) }
    let columns = sqlite3_column_count(st)
    var row: [SQLValue] = []
    row.reserveCapacity(Int(columns))
    var first = true
    while true {
      let rc = step(st, firstStep: first)
      first = false
      if rc == SQLITE_DONE { break }
      guard rc == SQLITE_ROW else { throw lastError(statement.sql) }
      row.removeAll(keepingCapacity: true)
      for c in 0..<columns { row.append(SQLiteDatabase.read(st, c)) }
      try body(row)
    }
  }
}
