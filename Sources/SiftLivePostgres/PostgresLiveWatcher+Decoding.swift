import SiftLive
import SiftSyntax

extension PostgresLiveWatcher {
  /// The fetched rows in order (the sections concatenated), each decoded as your own
  /// `Decodable` type, values as the columns' codecs read them (as `PostgresDatabase.fetch`
  /// does); `keys` maps column names to coding keys (`.snakeCase`).
  ///
  /// ```swift
  /// struct Venue: Decodable { var id: Int; var name: String; var price: Double? }
  /// let venues = try watcher.rows(as: Venue.self)
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

  /// The fetched row with key `id` decoded as `type`; nil when the window does not hold it.
  ///
  /// ```swift
  /// let venue = try watcher.row(for: 7, as: Venue.self)
  /// ```
  /// - Throws: as `rows(as:keys:)`.
  public func row<T: Decodable>(
    for id: SiftValue, as type: T.Type, keys: SiftKeyStrategy = .exact
  ) throws(SiftError) -> T? {
    guard let record = results.record(for: id) else { return nil }
    return try SiftValueDecoding.decode(
      type, from: .dictionary(record), record: "row \(key) = \(SiftJSON.serialize(id)) of \(table)", keys: keys)
  }
}
