import SiftLive
import SiftSyntax

extension SQLiteLiveTable {
  /// The fetched rows in order (the sections concatenated), each decoded as your own
  /// `Decodable` type: dates, booleans and numbers as the rows hold them, a NULL or missing
  /// column as nil. `keys` maps column names to coding keys (`updated_at` fills `updatedAt`
  /// with `.snakeCase`).
  ///
  /// ```swift
  /// struct Venue: Decodable { var id: Int; var name: String; var rating: Int? }
  /// let venues = try table.rows(as: Venue.self)
  /// ```
  /// - Throws: `SiftError` (stage `.decode`: `decode-mismatch`, `decode-missing-key` or
  ///   `decode-failed`) naming the row's key and the coding key.
  public func rows<T: Decodable>(as type: T.Type, keys: SiftKeyStrategy = .exact) throws(SiftError) -> [T] {
    var out: [T] = []
    for id in results.ids {
      if let row = try row(for: id, as: type, keys: keys) { out.append(row) }
    }
    return out
  }

  /// The row stored under `id` (fetched or not) decoded as `type`; nil when there is none.
  ///
  /// ```swift
  /// let venue = try table.row(for: 7, as: Venue.self)
  /// ```
  /// - Throws: as `rows(as:keys:)`.
  public func row<T: Decodable>(
    for id: SiftValue, as type: T.Type, keys: SiftKeyStrategy = .exact
  ) throws(SiftError) -> T? {
    guard let record = results.record(for: id) else { return nil }
    return try SiftValueDecoding.decode(
      type, from: .dictionary(record), record: "row \(recordKey) = \(SiftJSON.serialize(id)) of '\(table)'",
      keys: keys)
  }
}
