import SiftSyntax

extension SiftRowColumns {
  /// `rows` (as a driver returns them, in these columns) decoded as `type`: one value per row,
  /// or the rows themselves for `SiftRow`.
  ///
  /// ```swift
  /// let notes = try columns.decode(try db.execute(statement), as: Note.self)
  /// ```
  /// - Throws: `SiftError` (id `decode-mismatch`, `decode-missing-key`) naming the row, key,
  ///   column and what was found, or the type's own errors.
  public func decode<T: Decodable>(_ rows: [[SQLValue]], as type: T.Type) throws -> [T] {
    if T.self == SiftRow.self {
      var out: [SiftRow] = []
      out.reserveCapacity(rows.count)
      for (n, values) in rows.enumerated() { out.append(SiftRow(columns: self, values: values, number: n)) }
      guard let typed = out as? [T] else { return [] }
      return typed
    }
    var out: [T] = []
    out.reserveCapacity(rows.count)
    let cursor = SiftRowCursor()
    for (n, values) in rows.enumerated() {
      cursor.next = 0
      out.append(try T(from: SiftRowDecoder(row: SiftRow(columns: self, values: values, number: n), cursor: cursor)))
    }
    return out
  }
}

extension SQLCompiler {
  /// Runs `request` on `database` (which must hold this compiler's schema) and decodes each
  /// row as `type` (`SiftRowColumns.decode`): what the drivers' `fetch(_:as:)` do.
  ///
  /// ```swift
  /// let notes = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).fetch(request, as: Note.self, in: db)
  /// ```
  /// - Throws: the compiler's `SiftError`, the database's error, or a decoding error.
  public func fetch<T: Decodable>(_ request: SiftFetchRequest, as type: T.Type, in database: any SQLDatabase) throws -> [T] {
    let columns = try resultColumns(for: request)
    return try columns.decode(try database.execute(try compileForDecoding(request)), as: type)
  }

  /// The number of records `request` selects on `database` (its limit and offset applied).
  ///
  /// ```swift
  /// let n = try compiler.fetchCount(request, in: db)
  /// ```
  /// - Throws: the compiler's `SiftError` or the database's error.
  public func fetchCount(_ request: SiftFetchRequest, in database: any SQLDatabase) throws -> Int {
    var r = request
    r.resultType = .count
    guard let first = try database.execute(try compile(r)).first?.first, let n = first.intValue else {
      throw SiftRow.error("decode-mismatch", "the count query returned no number")
    }
    return Int(n)
  }
}
