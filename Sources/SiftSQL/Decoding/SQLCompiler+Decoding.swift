import SiftSyntax

extension SiftRowColumns {
  /// `rows` (as a driver returns them, in these columns) decoded as `type`: one value per row,
  /// or the rows themselves for `SiftRow`.
  ///
  /// ```swift
  /// let notes = try columns.decode(try db.execute(statement), as: Note.self)
  /// ```
  /// - Throws: `SiftError` (stage `.decode`, id `decode-mismatch`, `decode-missing-key`) naming
  ///   the row, key, column and what was found; the type's own errors as `decode-failed`
  ///   (kept as `underlying`), naming the row.
  public func decode<T: Decodable>(_ rows: [[SQLValue]], as type: T.Type) throws(SiftError) -> [T] {
    var sink = SiftRowSink(columns: self, as: type)
    for values in rows { try sink.append(values) }
    return sink.results
  }
}

/// Decodes rows one at a time as a driver reads them (so it need not hold them all first):
/// `append` each row's values, then take `results`.
///
/// ```swift
/// var sink = SiftRowSink(columns: columns, as: Note.self)
/// for values in rows { try sink.append(values) }
/// let notes = sink.results
/// ```
package struct SiftRowSink<T: Decodable> {
  /// The columns of the rows.
  public let columns: SiftRowColumns
  /// The values decoded so far, one per row.
  public private(set) var results: [T] = []
  let cursor = SiftRowCursor()
  let wantsRows: Bool

  /// A sink decoding rows of `columns` as `type`.
  public init(columns: SiftRowColumns, as type: T.Type) {
    self.columns = columns
    wantsRows = T.self == SiftRow.self
  }

  /// Decodes one row.
  /// - Throws: as `SiftRowColumns.decode(_:as:)`.
  public mutating func append(_ values: [SQLValue]) throws(SiftError) {
    let row = SiftRow(columns: columns, values: values, number: results.count)
    if wantsRows {
      // T is SiftRow (checked in init), so the bit cast reinterprets nothing (see SiftRowDecoder
      // for what dynamic casts cost on this path).
      results.append(unsafeBitCast(row, to: T.self))
      return
    }
    cursor.next = 0
    do { results.append(try T(from: SiftRowDecoder(row: row, cursor: cursor))) } catch {
      throw SiftError.decoding(error, row: row.number)
    }
  }
}

extension SQLCompiler {
  /// Runs `request` on `database` (which must hold this compiler's schema) and decodes each
  /// row as `type` (`SiftRowColumns.decode`): what the drivers' `fetch(_:as:)` do. `keys` maps
  /// stored names to coding keys (`updated_at` fills `updatedAt` with `.snakeCase`).
  ///
  /// ```swift
  /// let notes = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).fetch(request, as: Note.self, in: db)
  /// ```
  /// - Throws: `SiftError`: the compiler's, the database's, or a decoding error (as
  ///   `SiftRowColumns.decode(_:as:)`).
  public func fetch<T: Decodable>(
    _ request: SiftFetchRequest, as type: T.Type, in database: any SQLDatabase, keys: SiftKeyStrategy = .exact
  ) throws(SiftError) -> [T] {
    let columns = try resultColumns(for: request).renamed(for: keys)
    return try columns.decode(try database.execute(try compileForDecoding(request)), as: type)
  }

  /// The number of records `request` selects on `database` (its limit and offset applied).
  ///
  /// ```swift
  /// let n = try compiler.fetchCount(request, in: db)
  /// ```
  /// - Throws: `SiftError`: the compiler's or the database's.
  public func fetchCount(_ request: SiftFetchRequest, in database: any SQLDatabase) throws(SiftError) -> Int {
    var r = request
    r.resultType = .count
    guard let first = try database.execute(try compile(r)).first?.first, let n = first.intValue else {
      throw SiftRow.error(.decodeMismatch, "the count query returned no number")
    }
    return Int(n)
  }
}
