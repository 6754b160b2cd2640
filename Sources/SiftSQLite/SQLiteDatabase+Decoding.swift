import SiftSQL
import SiftSyntax

extension SQLiteDatabase {
  /// The records (or rows of any shape) `request` selects, decoded as `type` through
  /// `Decodable`: coding keys are the schema's attribute names, and each value is read in its
  /// column's own encoding (`SQLColumnCodec`: dates as seconds or milliseconds since 1970,
  /// Core Data's seconds since 2001 or ISO-8601 text, booleans from 0/1, UUIDs from text or
  /// blobs, arrays from JSON). `SiftRow.self` gives rows with named access. Without `schema`,
  /// the database's own is read (`introspectSchema`).
  ///
  /// ```swift
  /// struct Note: Decodable { var id: Int; var title: String; var createdAt: Date; var pinned: Bool }
  /// let notes = try db.fetch(SiftFetchRequest(entity: "Note", predicate: try SiftPredicate(format: "pinned == YES")), as: Note.self)
  /// ```
  /// - Throws: `SiftError`: the compiler's, SQLite's, or a decoding error naming the row,
  ///   key, column and what was found.
  public func fetch<T: Decodable>(_ request: SiftFetchRequest, as type: T.Type, schema: SQLSchema? = nil) throws -> [T] {
    try SQLCompiler(dialect: SQLiteDialect(), schema: try schema ?? introspectSchema().schema).fetch(request, as: type, in: self)
  }

  /// The number of records `request` selects (its limit and offset applied).
  ///
  /// ```swift
  /// let pinned = try db.fetchCount(SiftFetchRequest(entity: "Note", predicate: try SiftPredicate(format: "pinned == YES")))
  /// ```
  /// - Throws: `SiftError`: the compiler's or SQLite's.
  public func fetchCount(_ request: SiftFetchRequest, schema: SQLSchema? = nil) throws -> Int {
    try SQLCompiler(dialect: SQLiteDialect(), schema: try schema ?? introspectSchema().schema).fetchCount(request, in: self)
  }
}
