import SiftSQL
import SiftSyntax

extension CoreDataStore {
  /// The objects (or rows of any shape) `request` selects from the store, decoded as `type`
  /// through `Decodable`: coding keys are the model's attribute names, dates are read from
  /// Core Data's seconds since 2001, booleans from 0/1, UUIDs from blobs. `SiftRow.self`
  /// gives rows with named access.
  ///
  /// ```swift
  /// struct Book: Decodable { var title: String; var createdAt: Date }
  /// let books = try store.fetch(SiftFetchRequest(entity: "Book", predicate: try SiftPredicate(format: "title BEGINSWITH 'A'")), as: Book.self)
  /// ```
  /// - Throws: `SiftError`: the compiler's, the database's, or a decoding error naming the
  ///   row, key, column and what was found (the type's own errors as `decode-failed`).
  public func fetch<T: Decodable>(_ request: SiftFetchRequest, as type: T.Type) throws(SiftError) -> [T] {
    try SQLCompiler(dialect: SQLiteDialect(), schema: schema).fetch(request, as: type, in: database)
  }

  /// The number of objects `request` selects (its limit and offset applied).
  ///
  /// ```swift
  /// let n = try store.fetchCount(SiftFetchRequest(entity: "Book"))
  /// ```
  /// - Throws: `SiftError`: the compiler's or the database's.
  public func fetchCount(_ request: SiftFetchRequest) throws(SiftError) -> Int {
    try SQLCompiler(dialect: SQLiteDialect(), schema: schema).fetchCount(request, in: database)
  }
}
