import Foundation
import SiftEvaluation
import SiftSyntax

/// The sample entities shipped in `Resources/sample`: 1,000 bubble-tea `venues` (locations,
/// menus, tags, scores) and 200 `notes` (dates, tags, authors, checklists).
///
/// ```swift
/// let sets = try SampleData.load()
/// sets.map(\.name)   // ["venues", "notes"]
/// ```
enum SampleData {
  /// Columns shown by default for each sample entity.
  static let defaultColumns: [String: [String]] = [
    "venues": ["id", "name", "priceCategory", "distance", "rating", "tipCount", "location.city", "tags"],
    "notes": ["id", "title", "createdAt", "pinned", "wordCount", "language", "tags"],
  ]

  /// Loads both sample entities from the package resources.
  static func load() throws -> [REPLDataSet] {
    try ["venues", "notes"].map { name in
      guard let url = url(name + ".json") else {
        throw REPLDataError("sample file \(name).json is missing from the SiftCLI resources")
      }
      var set = try JSONDataLoader.load(url: url, name: name)
      set.origin = "built-in sample"
      set.defaultColumns = defaultColumns[name] ?? set.defaultColumns
      return set
    }
  }

  /// The sample schema file for SiftSQL, if shipped.
  static var schemaURL: URL? { url("schema.json") }

  static func url(_ file: String) -> URL? {
    let parts = file.split(separator: ".")
    guard parts.count == 2 else { return nil }
    return Bundle.module.url(
      forResource: String(parts[0]), withExtension: String(parts[1]), subdirectory: "Resources/sample")
  }
}
