import Foundation
import SiftSQL
import SiftSyntax

/// Finds the SQL schema for a data set: the sample schema for the built-in entities, a
/// schema file given with `.load --schema`, or one inferred from the attributes: scalar
/// attributes of one kind become columns, arrays of strings/integers/doubles become array
/// attributes; nested objects and mixed-kind attributes are left out (memory only).
///
/// ```swift
/// let schema = try REPLSchemaInference.schema(for: set, path: nil)
/// ```
enum REPLSchemaInference {
  static func schema(for set: REPLDataSet, path: String?) throws -> SQLSchema {
    if let path {
      let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
      let text = try String(contentsOf: url, encoding: .utf8)
      let schema = try SQLSchema(json: text)
      guard schema.entity(set.name) != nil else {
        throw REPLDataError(
          "schema \(url.lastPathComponent) has no entity '\(set.name)' (it has \(schema.entityNames.joined(separator: ", ")))"
        )
      }
      return schema
    }
    if set.origin == "built-in sample", let url = SampleData.schemaURL {
      return try SQLSchema(json: try String(contentsOf: url, encoding: .utf8))
    }
    return try infer(set)
  }

  static func infer(_ set: REPLDataSet) throws -> SQLSchema {
    if !set.isAllDictionaries,
      let i = (0..<set.count).first(where: { if case .dictionary = set.record(at: $0) { false } else { true } })
    {
      throw REPLDataError(
        "record \(i) is \(set.record(at: i).kindName), not an object: plain values have no SQL rows (memory engine only)"
      )
    }
    var attributes: [SQLAttribute] = []
    for a in set.attributes where !a.name.contains(".") && !a.name.hasPrefix("__sift") {
      let kinds = a.kinds.filter { $0 != "nil" }
      guard kinds.count == 1, let kind = kinds.first else { continue }
      let type: SQLAttributeType?
      switch kind {
      case "integer": type = .integer
      case "double": type = .double
      case "string": type = .string
      case "boolean": type = .boolean
      case "date": type = .date
      case "data": type = .data
      case "array":
        switch a.elementKinds {
        case ["string"]: type = .stringArray
        case ["integer"]: type = .integerArray
        case ["double"], ["double", "integer"]: type = .doubleArray
        default: type = nil
        }
      default: type = nil
      }
      if let type { attributes.append(SQLAttribute(name: a.name, type: type)) }
    }
    guard attributes.contains(where: { $0.name == "id" && ($0.type == .integer || $0.type == .string) }) else {
      throw REPLDataError(
        "records need an integer or string 'id' attribute for SQL (or use .load FILE --schema SCHEMA)")
    }
    let entity = SQLEntity(name: set.name, table: set.name, primaryKey: "id", attributes: attributes, relationships: [])
    return try SQLSchema(entities: [entity])
  }
}
