import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// The fixed data the evaluate, SQL and differential oracles run against: six records with
/// every attribute kind, nulls, empty strings, non-ASCII text, LIKE metacharacters and extreme
/// numbers. Every collection is present (maybe empty) and every string is NFC, so the two
/// documented memory/SQL gaps (a nil collection is empty in SQL; SQL stores NFC) stay out of
/// the differential oracle.
///
/// ```swift
/// FuzzData.records.count   // 6
/// ```
public enum FuzzData {
  /// The entity the records belong to.
  public static let entity = "Item"

  /// The SQL schema of `records`.
  public static let schemaJSON = """
    {"dateEncoding": "secondsSince2001", "entities": {
      "Item": {"table": "item", "attributes": {
        "id": "integer", "name": "string", "code": "string", "n": "integer", "x": "double",
        "flag": "boolean", "when": "date", "blob": "data", "tags": "stringArray", "nums": "integerArray",
        "ds": "doubleArray"},
        "relationships": {"place": {"toOne": "Place"}, "parts": {"toMany": "Part"}}},
      "Place": {"table": "place", "attributes": {"id": "integer", "city": "string", "dist": "double"}},
      "Part": {"table": "part", "attributes": {
        "id": "integer", "label": "string", "price": "double", "qty": "integer", "vegan": "boolean"}}
    }}
    """

  /// The records as JSON.
  public static let recordsJSON = """
    [
      {"id": 1, "name": "Blue Café", "code": "A-1", "n": 3, "x": 2.5, "flag": true,
       "when": {"$date": "2024-05-01T12:00:00Z"}, "tags": ["wifi", "quiet"], "nums": [1, 2, 3],
       "ds": [0.5, -1.25], "place": {"id": 10, "city": "Berlin", "dist": 1.5},
       "parts": [{"id": 100, "label": "Tea", "price": 2.0, "qty": 2, "vegan": true},
                 {"id": 101, "label": "Cake", "price": 3.5, "qty": 0, "vegan": false}]},
      {"id": 2, "name": "red bar", "code": "b_2%", "n": -7, "x": -0.0, "flag": false,
       "when": {"$date": "1999-12-31T23:59:59Z"}, "tags": [], "nums": [], "ds": [],
       "place": {"id": 11, "city": "MÜNCHEN", "dist": 0.0}, "parts": []},
      {"id": 3, "name": "", "code": "", "n": 0, "x": 1e300, "flag": true,
       "when": {"$date": "2001-01-01T00:00:00Z"}, "tags": ["", "Straße", "wifi"], "nums": [0, -1, 9007199254740993],
       "ds": [1e-300], "place": {"id": 12, "city": "", "dist": -2.75},
       "parts": [{"id": 102, "label": "", "price": 0.0, "qty": -1, "vegan": false}]},
      {"id": 4, "name": null, "code": null, "n": null, "x": null, "flag": null, "when": null,
       "tags": ["ΣΑΣ"], "nums": [42], "ds": [3.0],
       "place": {"id": 13, "city": null, "dist": null},
       "parts": [{"id": 103, "label": null, "price": null, "qty": null, "vegan": null}]},
      {"id": 5, "name": "naïve *?\\\\ x", "code": "ß", "n": 9223372036854775807, "x": 0.1, "flag": false,
       "when": {"$date": "2030-06-15T08:30:00Z"}, "tags": ["a", "A", "á"], "nums": [5, 5, 5], "ds": [0.1, 0.2],
       "place": {"id": 14, "city": "São Paulo", "dist": 12.0},
       "parts": [{"id": 104, "label": "Açaí", "price": 9.99, "qty": 3, "vegan": true},
                 {"id": 105, "label": "tea", "price": 2.0, "qty": 1, "vegan": true}]},
      {"id": 6, "name": "Zoë's 100% [c]", "code": "Z", "n": -9223372036854775808, "x": -1e-5, "flag": true,
       "when": {"$date": "1970-01-01T00:00:00Z"}, "tags": ["quiet"], "nums": [-5], "ds": [-0.5],
       "place": {"id": 15, "city": "berlin", "dist": 1.5},
       "parts": [{"id": 106, "label": "Tea", "price": 2.5, "qty": 7, "vegan": false}]}
    ]
    """

  /// The records as values (empty only if the JSON above were broken; a test checks).
  public static let records: [SiftValue] = (try? JSONRecords.values(bytes: Array(recordsJSON.utf8))) ?? []

  /// The records in Sift's fast in-memory layout.
  public static let objects: [SiftObject] = (try? JSONRecords.records(from: .array(records))) ?? []

  /// The same records as columns (the evaluate oracle compares both paths).
  public static let columns: SiftColumnarRecords? = try? SiftColumnarRecords(values: records)

  /// `objects` as SQLite reads them back: a stored -0.0 is +0.0 there (it stores integral
  /// reals as integers; a documented difference, Grammar/notes/sql.md "Signed zero").
  public static let objectsAsSQLiteStoresThem: [SiftObject] =
    (try? JSONRecords.records(from: .array(records.map(positiveZero)))) ?? []

  static func positiveZero(_ v: SiftValue) -> SiftValue {
    switch v {
    case .double(let d) where d == 0: return .double(0)
    case .array(let a): return .array(a.map(positiveZero))
    case .dictionary(let d): return .dictionary(d.mapValues(positiveZero))
    default: return v
    }
  }

  /// The schema (nil only if the JSON above were broken; a test checks).
  public static let schema: SQLSchema? = try? SQLSchema(json: schemaJSON)

  /// An in-memory SQLite database holding `records`, or the error that prevented it.
  public static let sqlite: Result<LockedDatabase, FuzzSetupError> = {
    guard let schema else { return .failure(FuzzSetupError(message: "schema does not load")) }
    do {
      let db = try SQLiteDatabase()
      try db.load(records, entity: entity, schema: schema, dialect: SQLiteDialect())
      return .success(LockedDatabase(db))
    } catch {
      return .failure(FuzzSetupError(message: "SQLite setup failed: \(error)"))
    }
  }()
}

/// Why the fixed data could not be set up.
public struct FuzzSetupError: Error, Sendable, CustomStringConvertible {
  /// What failed.
  public var message: String
  /// Same as `message`.
  public var description: String { message }
}

/// A SQLite connection used by one caller at a time (regression tests run in parallel).
///
/// ```swift
/// let rows = try FuzzData.sqlite.get().withDatabase { try $0.execute(statement) }
/// ```
public final class LockedDatabase: @unchecked Sendable {
  private let database: SQLiteDatabase
  private let lock = NSLock()

  init(_ database: SQLiteDatabase) { self.database = database }

  /// Runs `body` with exclusive use of the connection.
  public func withDatabase<T>(_ body: (SQLiteDatabase) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(database)
  }
}
