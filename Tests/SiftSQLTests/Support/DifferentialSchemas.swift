import Foundation
import SiftSQL
import SiftSyntax

/// Schemas and data the differential tests load into SQLite and PostgreSQL.
enum DifferentialSchemas {
  /// The generated data (`RandomData`): scalars of every kind, scalar arrays, a to-one and a
  /// to-many relationship.
  static let thingJSON = """
    {"entities": {
      "Thing": {"table": "thing", "attributes": {
        "id": "integer", "name": "string", "code": "string", "n": "integer", "small": "integer",
        "x": "double", "flag": "boolean", "when": "date", "tags": "stringArray", "nums": "integerArray"},
        "relationships": {"place": {"toOne": "Place"}, "items": {"toMany": "Item"}}},
      "Place": {"table": "thing_place", "attributes": {"id": "integer", "city": "string", "dist": "double"}},
      "Item": {"table": "thing_item", "attributes": {
        "id": "integer", "label": "string", "price": "double", "qty": "integer", "vegan": "boolean"}}
    }}
    """

  /// The conformance sample (`Tests/Fixtures/conformance/venues.json`).
  static let venueJSON = """
    {"entities": {
      "Venue": {"table": "venue", "attributes": {
        "id": "integer", "name": "string", "priceCategory": "string", "specialCount": "integer",
        "distance": "double", "tipCount": "integer", "favorite": "boolean", "createdAt": "integer",
        "rating": "double", "phone": "string", "code": "string", "tags": "stringArray",
        "scores": "integerArray"},
        "relationships": {"location": {"toOne": "Location"}, "menu": {"toMany": "MenuItem"}}},
      "Location": {"table": "venue_location", "attributes": {
        "id": "integer", "city": "string", "distance": "double", "zip": "string"}},
      "MenuItem": {"table": "venue_menu", "attributes": {
        "id": "integer", "item": "string", "price": "double", "vegan": "boolean"}}
    }}
    """

  static func thing() throws -> SQLSchema { try SQLSchema(json: thingJSON) }
  static func venue() throws -> SQLSchema { try SQLSchema(json: venueJSON) }

  /// `Tests/Fixtures/conformance/<name>`.
  static func fixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/conformance/\(name)")
  }

  /// The venue records as JSON values.
  static func venueRecords() throws -> [SiftValue] {
    let bytes = try [UInt8](Data(contentsOf: fixture("venues.json")))
    guard case .array(let records) = try SiftJSON.parse(bytes: bytes) else { return [] }
    return records
  }

  /// One conformance case: id, format, arguments, and the expected answer.
  struct Case: Sendable, CustomStringConvertible {
    var id: String
    var format: String
    var args: [SiftValue]
    /// nil when the case is expected to fail (parse, argument or evaluation error).
    var expected: [Int]?
    var description: String { id }
  }

  /// The conformance cases joined with their expected answers, in file order.
  static func conformanceCases() throws -> [Case] {
    func lines(_ name: String) throws -> [[String: SiftValue]] {
      let text = try String(contentsOf: fixture(name), encoding: .utf8)
      return try text.split(separator: "\n").compactMap { line in
        guard case .dictionary(let d) = try SiftJSON.parse(String(line)) else { return nil }
        return d
      }
    }
    var expected: [String: [Int]?] = [:]
    for d in try lines("venues-expected.jsonl") {
      guard case .string(let id)? = d["id"] else { continue }
      if case .bool(true)? = d["ok"], case .array(let m)? = d["matches"] {
        expected[id] = m.compactMap { if case .int(let i) = $0 { return Int(i) } else { return nil } }
      } else {
        expected[id] = .some(nil)
      }
    }
    return try lines("venues-cases.jsonl").compactMap { d in
      guard case .string(let id)? = d["id"], case .string(let format)? = d["format"] else { return nil }
      var args: [SiftValue] = []
      if case .array(let a)? = d["args"] { args = a }
      return Case(id: id, format: format, args: args, expected: expected[id] ?? nil)
    }
  }
}
